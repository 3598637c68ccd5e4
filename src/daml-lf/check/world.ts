/**
 * The packages available to the type checker (the spec's `Ξ`): definitions by qualified name, indexed on first use.
 */
import type {
  DefDataType,
  DefException,
  DefInterface,
  DefTemplate,
  DefTypeSyn,
  DefValue,
  ModuleAst,
  PackageAst,
  QualifiedName,
  TemplateChoice,
} from '../ast/ast.js';
import { fail } from './error.js';

interface ModuleIndex {
  module: ModuleAst;
  dataTypes: Map<string, DefDataType>;
  synonyms: Map<string, DefTypeSyn>;
  values: Map<string, DefValue>;
  templates: Map<string, DefTemplate>;
  interfaces: Map<string, DefInterface>;
  exceptions: Map<string, DefException>;
}

const byName = <X extends { name: string }>(xs: X[]): Map<string, X> => new Map(xs.map((x) => [x.name, x]));
const qn = (q: QualifiedName): string => `${q.packageId.slice(0, 8)}:${q.module}:${q.name}`;

export class World {
  private readonly modules = new Map<string, ModuleIndex | null>();

  constructor(private readonly packages: (packageId: string) => PackageAst | undefined) {}

  pkg(packageId: string): PackageAst {
    return this.packages(packageId) ?? fail('Package', `unknown package ${packageId}`);
  }

  private mod(q: { packageId: string; module: string }): ModuleIndex {
    const key = `${q.packageId}:${q.module}`;
    let m = this.modules.get(key);
    if (m === undefined) {
      const p = this.packages(q.packageId);
      const module = p?.modules.find((x) => x.name === q.module);
      m = module
        ? {
            module,
            dataTypes: byName(module.dataTypes),
            synonyms: byName(module.synonyms),
            values: byName(module.values),
            templates: byName(module.templates),
            interfaces: byName(module.interfaces),
            exceptions: byName(module.exceptions),
          }
        : null;
      this.modules.set(key, m);
    }
    return m ?? fail('Module', `unknown module ${q.packageId.slice(0, 8)}:${q.module}`);
  }

  dataType(q: QualifiedName): DefDataType {
    return this.mod(q).dataTypes.get(q.name) ?? fail('TyCon', `unknown data type ${qn(q)}`);
  }
  synonym(q: { packageId: string; module: string; name: string }): DefTypeSyn {
    return this.mod(q).synonyms.get(q.name) ?? fail('RewriteSynonym', `unknown type synonym ${qn(q)}`);
  }
  value(q: QualifiedName): DefValue {
    return this.mod(q).values.get(q.name) ?? fail('ExpVal', `unknown value ${qn(q)}`);
  }
  template(q: QualifiedName, rule = 'Template'): DefTemplate {
    return this.mod(q).templates.get(q.name) ?? fail(rule, `unknown template ${qn(q)}`);
  }
  maybeTemplate(q: QualifiedName): DefTemplate | undefined {
    return this.mod(q).templates.get(q.name);
  }
  iface(q: QualifiedName, rule = 'Interface'): DefInterface {
    return this.mod(q).interfaces.get(q.name) ?? fail(rule, `unknown interface ${qn(q)}`);
  }
  isInterface(q: QualifiedName): boolean {
    return this.mod(q).interfaces.has(q.name);
  }
  exception(q: QualifiedName): DefException | undefined {
    return this.mod(q).exceptions.get(q.name);
  }

  templateChoice(q: QualifiedName, choice: string, rule: string): TemplateChoice {
    return this.template(q, rule).choices.find((c) => c.name === choice) ?? fail(rule, `template ${qn(q)} has no choice ${choice}`);
  }
  interfaceChoice(q: QualifiedName, choice: string, rule: string): TemplateChoice {
    return this.iface(q, rule).choices.find((c) => c.name === choice) ?? fail(rule, `interface ${qn(q)} has no choice ${choice}`);
  }
}

export const sameName = (a: QualifiedName, b: QualifiedName): boolean =>
  a.name === b.name && a.module === b.module && a.packageId === b.packageId;
export const qnText = qn;
