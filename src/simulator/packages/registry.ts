/** Resolves template / interface identifiers (`<package-id>:M:E` or `#<package-name>:M:E`) to built-in definitions. */
import { CantonError } from '../errors.js';
import { demoPackage } from './demo.js';
import { archiveOf } from './lf.js';
import type { ChoiceDef, InterfaceDef, PackageDef, TemplateDef } from './types.js';

export interface ResolvedPackage {
  /** Package id: SHA-256 of the Daml-LF archive payload (`archive`). */
  id: string;
  def: PackageDef;
  /** The Daml-LF 2 `Archive` (.dalf bytes) describing `def`, served by `GET /v2/packages/{id}`. */
  archive: Uint8Array;
}

export interface ResolvedTemplate {
  pkg: ResolvedPackage;
  def: TemplateDef;
  /** `Module:Entity` */
  qualifiedName: string;
  /** `<package-id>:Module:Entity` */
  templateId: string;
  /** `<package-name>:Module:Entity`, stable across package versions. */
  key: string;
  /** Interface ids (package-id form) the template implements. */
  implementedInterfaces: string[];
}

export interface ResolvedInterface {
  pkg: ResolvedPackage;
  def: InterfaceDef;
  qualifiedName: string;
  interfaceId: string;
  key: string;
}

/** Archive: implicit consuming choice controlled by the signatories. */
export const ARCHIVE_CHOICE: ChoiceDef = {
  name: 'Archive',
  consuming: true,
  argument: [],
  returnType: { kind: 'Unit' },
  controllers: [],
  description: 'implicit archive, controlled by the signatories',
  body: () => ({}),
};

export class PackageRegistry {
  readonly packages: ResolvedPackage[];
  private readonly templates = new Map<string, ResolvedTemplate>();
  private readonly interfaces = new Map<string, ResolvedInterface>();

  constructor(defs: PackageDef[] = [demoPackage]) {
    this.packages = defs.map((def) => {
      const a = archiveOf(def);
      return { id: a.packageId, def, archive: a.bytes };
    });
    for (const pkg of this.packages) {
      for (const i of pkg.def.interfaces) {
        const qn = `${i.module}:${i.entity}`;
        const ri: ResolvedInterface = { pkg, def: i, qualifiedName: qn, interfaceId: `${pkg.id}:${qn}`, key: `${pkg.def.name}:${qn}` };
        this.interfaces.set(ri.key, ri);
      }
      for (const t of pkg.def.templates) {
        const qn = `${t.module}:${t.entity}`;
        const rt: ResolvedTemplate = {
          pkg,
          def: t,
          qualifiedName: qn,
          templateId: `${pkg.id}:${qn}`,
          key: `${pkg.def.name}:${qn}`,
          implementedInterfaces: t.implements.map((impl) => `${pkg.id}:${impl.interface}`),
        };
        this.templates.set(rt.key, rt);
      }
    }
  }

  /** Splits an identifier into (package name key, qualified name) or returns undefined when malformed. */
  private parseId(id: string): { pkgName: string; qn: string } | undefined {
    const parts = id.split(':');
    if (parts.length !== 3 || parts.some((p) => p.length === 0)) return undefined;
    const [pkgRef, mod, ent] = parts as [string, string, string];
    let pkgName: string | undefined;
    if (pkgRef.startsWith('#')) pkgName = pkgRef.slice(1);
    else pkgName = this.packages.find((p) => p.id === pkgRef)?.def.name;
    if (pkgName === undefined) return { pkgName: `?${pkgRef}`, qn: `${mod}:${ent}` };
    return { pkgName, qn: `${mod}:${ent}` };
  }

  findTemplate(id: string): ResolvedTemplate | undefined {
    const p = this.parseId(id);
    return p ? this.templates.get(`${p.pkgName}:${p.qn}`) : undefined;
  }
  findInterface(id: string): ResolvedInterface | undefined {
    const p = this.parseId(id);
    return p ? this.interfaces.get(`${p.pkgName}:${p.qn}`) : undefined;
  }

  template(id: string): ResolvedTemplate {
    if (!/^[^:]+:[^:]+:[^:]+$/.test(id))
      throw new CantonError('INVALID_ARGUMENT', `Invalid template id '${id}': expected <package-id or #package-name>:<module>:<entity>`, {
        context: { templateId: id },
      });
    const t = this.findTemplate(id);
    if (!t) throw new CantonError('TEMPLATES_OR_INTERFACES_NOT_FOUND', `Template not found: ${id}`, { context: { templateId: id } });
    return t;
  }
  iface(id: string): ResolvedInterface {
    if (!/^[^:]+:[^:]+:[^:]+$/.test(id))
      throw new CantonError('INVALID_ARGUMENT', `Invalid interface id '${id}'`, { context: { interfaceId: id } });
    const i = this.findInterface(id);
    if (!i) throw new CantonError('TEMPLATES_OR_INTERFACES_NOT_FOUND', `Interface not found: ${id}`, { context: { interfaceId: id } });
    return i;
  }
  /** Template by its stored package id + qualified name. */
  templateOf(packageName: string, qualifiedName: string): ResolvedTemplate | undefined {
    return this.templates.get(`${packageName}:${qualifiedName}`);
  }
  choice(t: ResolvedTemplate, name: string): ChoiceDef | undefined {
    if (name === 'Archive') return ARCHIVE_CHOICE;
    return t.def.choices.find((c) => c.name === name);
  }
  interfaceByQn(pkg: ResolvedPackage, qn: string): ResolvedInterface | undefined {
    return this.interfaces.get(`${pkg.def.name}:${qn}`);
  }
}
