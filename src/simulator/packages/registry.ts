/**
 * Resolves template / interface identifiers (`<package-id>:M:E` or `#<package-name>:M:E`) to built-in definitions or to
 * templates and interfaces of uploaded Daml-LF packages, and holds the participant's package vetting state per
 * synchronizer (`registry-vetting.ts`).
 *
 * Built-in packages (TypeScript, `demo.ts`, the token-standard APIs, the wallet's Splice packages) keep their full
 * behaviour. A template of an uploaded package resolves to a `ResolvedTemplate` with `uploaded` set: the interpreter
 * then uses its generic create behaviour (LF-typed argument check, stakeholders from the arguments) and only `Archive`
 * can be exercised (see `uploaded.ts`).
 *
 * Built-in and uploaded packages coexist (see the simulator README, "Built-in and uploaded packages"):
 * - a package is found by its id, so a stored contract always runs with the package that created it;
 * - `#name:M:E` names a family: every known package of that name defining `M:E`. A create picks the highest version
 *   vetted somewhere, an uploaded package winning over a built-in one of the same version (built-ins give way);
 *   an exercise runs the target contract's own template; an interface filter covers every interface of the family,
 *   and an interface exercise uses the family member that the contract's template implements.
 */
import { compareVersions, PackageIndex, readDalf } from '../../daml-lf/index.js';
import type { Interface as LfInterface, PackageSummary } from '../../daml-lf/index.js';
import { CantonError } from '../errors.js';
import type { PackageStore, StoredPackage } from '../store/packages.js';
import { builtinPackages } from './builtins.js';
import { builtinArchive } from './builtin-archives.js';
import type { ChoiceDef, InterfaceDef, InterfaceImpl, PackageDef, TemplateDef } from './types.js';
import { toFieldDefs, uploadedBehaviour, type UploadedTemplateBehaviour } from './uploaded.js';
import { VettingState } from './registry-vetting.js';

export interface ResolvedPackage {
  /** Package id: SHA-256 of the Daml-LF archive payload (`archive`). */
  id: string;
  def: PackageDef;
  /** The Daml-LF 2 `Archive` (.dalf bytes), served by `GET /v2/packages/{id}`. */
  archive: Uint8Array;
  /** The decoded archive. */
  summary: PackageSummary;
  /** True for packages uploaded through `POST /v2/dars`. */
  uploaded: boolean;
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
  /** Interface ids (package-id form) the template implements; for built-ins in the order of `def.implements`. */
  implementedInterfaces: string[];
  /** Set for templates of uploaded packages: generic create behaviour instead of the TypeScript definition. */
  uploaded?: UploadedTemplateBehaviour;
}

export interface ResolvedInterface {
  pkg: ResolvedPackage;
  def: InterfaceDef;
  qualifiedName: string;
  interfaceId: string;
  key: string;
  /** The LF interface, for interfaces of uploaded packages (whose choices the simulator cannot run). */
  uploaded?: LfInterface;
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

/** Standard-library packages: no upgrade checks between their versions. */
const UTILITY_PACKAGE_NAMES = new Set(['daml-prim', 'daml-stdlib', 'ghc-stdlib']);
export const isUtilityPackage = (name: string): boolean => name === '' || UTILITY_PACKAGE_NAMES.has(name);

/** `a` is preferred over `b`: higher version, or the same version and `a` uploaded while `b` is built in. */
export const prefers = (a: ResolvedPackage, b: ResolvedPackage): boolean => {
  const c = compareVersions(a.def.version, b.def.version);
  return c > 0 || (c === 0 && a.uploaded && !b.uploaded);
};

const pushTo = <T>(m: Map<string, T[]>, k: string, v: T): void => {
  const xs = m.get(k);
  if (xs) xs.push(v);
  else m.set(k, [v]);
};

const ID_SHAPE = /^[^:]+:[^:]+:[^:]+$/;

export class PackageRegistry extends VettingState {
  private readonly builtins: ResolvedPackage[];
  private readonly uploadedPkgs: ResolvedPackage[] = [];
  private readonly byId = new Map<string, ResolvedPackage>();
  /** Every template by `<package-id>:Module:Entity`. */
  private readonly templatesById = new Map<string, ResolvedTemplate>();
  /** Template families by `<package-name>:Module:Entity`. */
  private readonly templateFamilies = new Map<string, ResolvedTemplate[]>();
  /** Built-in templates by `<package-name>:Module:Entity` (contracts stored under an earlier built-in package id). */
  private readonly builtinTemplates = new Map<string, ResolvedTemplate>();
  private readonly interfacesById = new Map<string, ResolvedInterface>();
  private readonly interfaceFamilies = new Map<string, ResolvedInterface[]>();
  readonly index = new PackageIndex();

  /**
   * Built-in packages in dependency order: a definition may refer to types and interfaces of a package listed before
   * its own (`#package-name:Module:Entity`), e.g. the token-standard APIs implemented by `splice-amulet`.
   */
  constructor(defs: PackageDef[] = builtinPackages(), opts: { archiveCacheDir?: string } = {}) {
    super();
    const idByName = new Map<string, string>();
    this.builtins = defs.map((def) => {
      const a = builtinArchive(
        def,
        (name) => {
          const id = idByName.get(name);
          if (!id) throw new Error(`built-in package ${def.name}: package ${name} is not defined by an earlier built-in package`);
          return id;
        },
        opts.archiveCacheDir,
      );
      idByName.set(def.name, a.packageId);
      // decoded when first needed: most starts never look at most built-in packages' LF
      let summary: PackageSummary | undefined;
      return {
        id: a.packageId,
        def,
        archive: a.bytes,
        get summary(): PackageSummary {
          summary ??= readDalf(a.bytes);
          return summary;
        },
        uploaded: false,
      };
    });
    for (const pkg of this.builtins) {
      this.byId.set(pkg.id, pkg);
      this.index.addLazy(pkg.id, () => pkg.summary);
      for (const i of pkg.def.interfaces) this.addInterface(pkg, i);
      for (const t of pkg.def.templates) {
        const qn = `${t.module}:${t.entity}`;
        const rt: ResolvedTemplate = {
          pkg,
          def: t,
          qualifiedName: qn,
          templateId: `${pkg.id}:${qn}`,
          key: `${pkg.def.name}:${qn}`,
          implementedInterfaces: t.implements.map((impl) => this.builtinInterfaceId(pkg, impl, idByName)),
        };
        this.addTemplate(rt);
        this.builtinTemplates.set(rt.key, rt);
      }
    }
  }

  private addTemplate(rt: ResolvedTemplate): void {
    this.templatesById.set(rt.templateId, rt);
    pushTo(this.templateFamilies, rt.key, rt);
  }

  private addInterface(pkg: ResolvedPackage, def: InterfaceDef, lf?: LfInterface): void {
    const qn = `${def.module}:${def.entity}`;
    const ri: ResolvedInterface = {
      pkg,
      def,
      qualifiedName: qn,
      interfaceId: `${pkg.id}:${qn}`,
      key: `${pkg.def.name}:${qn}`,
      ...(lf ? { uploaded: lf } : {}),
    };
    this.interfacesById.set(ri.interfaceId, ri);
    pushTo(this.interfaceFamilies, ri.key, ri);
  }

  /** The interface id (package-id form) a built-in implementation refers to: its own package or an earlier built-in. */
  private builtinInterfaceId(pkg: ResolvedPackage, impl: InterfaceImpl, idByName: Map<string, string>): string {
    if (!impl.interface.startsWith('#')) return `${pkg.id}:${impl.interface}`;
    const [name, mod, ent] = impl.interface.slice(1).split(':');
    const id = name ? idByName.get(name) : undefined;
    if (!id || !mod || !ent) throw new Error(`built-in package ${pkg.def.name}: unknown interface ${impl.interface}`);
    return `${id}:${mod}:${ent}`;
  }

  /** The template's implementation of interface `interfaceId` (package-id form), if it implements it. */
  implementation(t: ResolvedTemplate, interfaceId: string): InterfaceImpl | undefined {
    if (t.uploaded) return undefined;
    const i = t.implementedInterfaces.indexOf(interfaceId);
    return i < 0 ? undefined : t.def.implements[i];
  }

  /** Built-in packages first, then uploaded ones in upload order. */
  get packages(): ResolvedPackage[] {
    return [...this.builtins, ...this.uploadedPkgs];
  }

  package(id: string): ResolvedPackage | undefined {
    return this.byId.get(id);
  }

  /** True once a package was uploaded (commands may then run Daml-LF code). */
  get hasUploaded(): boolean {
    return this.uploadedPkgs.length > 0;
  }

  /** The id of the built-in package `name` (the simulator's own apps address their templates by it). */
  builtinId(name: string): string {
    const p = this.builtins.find((b) => b.def.name === name);
    if (!p) throw new Error(`no built-in package ${name}`);
    return p.id;
  }

  /**
   * Command template ids of the simulator's own apps: `#<built-in name>:M:E` becomes `<built-in id>:M:E`, so an uploaded
   * package of the same name (e.g. the real `splice-amulet`) never takes over the built-in behaviour they rely on.
   */
  pinBuiltin(templateId: string): string {
    if (!templateId.startsWith('#')) return templateId;
    const i = templateId.indexOf(':');
    const p = this.builtins.find((b) => b.def.name === templateId.slice(1, i));
    return p ? `${p.id}${templateId.slice(i)}` : templateId;
  }

  /** Loads uploaded packages and the vetting state from the store (built-ins seen for the first time get vetted). */
  attachStore(store: PackageStore, synchronizerIds: string[]): void {
    this.attachVetting(
      store,
      synchronizerIds,
      this.builtins.map((p) => p.id),
    );
    for (const p of store.packages()) this.addUploaded(p);
  }

  /** Registers a stored uploaded package (after its upload committed). */
  addUploaded(p: StoredPackage, summary?: PackageSummary): void {
    if (this.byId.has(p.packageId)) return;
    const s = summary ?? readDalf(p.archive);
    this.index.add(s);
    const templates: TemplateDef[] = [];
    const pkg: ResolvedPackage = {
      id: p.packageId,
      def: { name: s.name, version: s.version, templates, interfaces: [] },
      archive: p.archive,
      summary: s,
      uploaded: true,
    };
    for (const m of s.modules) {
      for (const i of m.interfaces) {
        const def: InterfaceDef = { module: m.name, entity: i.name, view: { name: i.qualifiedName, fields: [] }, choices: [] };
        pkg.def.interfaces.push(def);
        this.addInterface(pkg, def, i);
      }
      for (const t of m.templates) {
        const def: TemplateDef = {
          module: m.name,
          entity: t.name,
          fields: toFieldDefs(this.index, s, t),
          signatories: [],
          observers: [],
          choices: [],
          implements: [],
        };
        templates.push(def);
        this.addTemplate({
          pkg,
          def,
          qualifiedName: t.qualifiedName,
          templateId: `${p.packageId}:${t.qualifiedName}`,
          key: `${s.name}:${t.qualifiedName}`,
          implementedInterfaces: t.implements,
          uploaded: uploadedBehaviour(this.index, s, t),
        });
      }
    }
    this.byId.set(p.packageId, pkg);
    this.uploadedPkgs.push(pkg);
  }

  /**
   * The highest-versioned package named `name` vetted on `synchronizerId` at `at` (preferred packages); on equal
   * versions an uploaded package wins over a built-in one. `filter` restricts the candidates.
   */
  preferred(
    name: string,
    synchronizerId: string,
    at?: string,
    filter: (p: ResolvedPackage) => boolean = () => true,
  ): ResolvedPackage | undefined {
    let best: ResolvedPackage | undefined;
    for (const p of this.packages) {
      if (p.def.name !== name || !filter(p) || !this.isVetted(p.id, synchronizerId, at)) continue;
      if (!best || prefers(p, best)) best = p;
    }
    return best;
  }

  /** Fails like Canton's routing when a transaction uses a package that is not vetted on its synchronizer. */
  checkVetted(packageIds: Iterable<string>, synchronizerId: string, at: string): void {
    this.checkVettedWith(packageIds, synchronizerId, at, (id) => this.byId.get(id));
  }

  // ---------------------------------------------------------------------------------------------
  // Templates and interfaces
  // ---------------------------------------------------------------------------------------------

  /** Of a family, the member vetted somewhere with the highest version (uploaded before built-in), else the highest. */
  private pick<T extends { pkg: ResolvedPackage }>(family: T[] | undefined): T | undefined {
    if (!family || family.length === 0) return undefined;
    const vetted = family.filter((x) => this.isVettedAnywhere(x.pkg.id));
    const pool = vetted.length > 0 ? vetted : family;
    return pool.reduce((a, b) => (prefers(b.pkg, a.pkg) ? b : a));
  }

  /** A template by `<package-id>:M:E`, or the preferred member of the `#name:M:E` family. */
  findTemplate(id: string): ResolvedTemplate | undefined {
    if (!ID_SHAPE.test(id)) return undefined;
    if (id.startsWith('#')) return this.pick(this.templateFamilies.get(id.slice(1)));
    return this.templatesById.get(id);
  }

  /** Every interface an id names: the one of `<package-id>:M:E`, or all of the `#name:M:E` family. */
  interfacesFor(id: string): ResolvedInterface[] {
    if (!ID_SHAPE.test(id)) return [];
    if (id.startsWith('#')) return this.interfaceFamilies.get(id.slice(1)) ?? [];
    const i = this.interfacesById.get(id);
    return i ? [i] : [];
  }

  findInterface(id: string): ResolvedInterface | undefined {
    return id.startsWith('#') ? this.pick(this.interfacesFor(id)) : this.interfacesFor(id)[0];
  }

  /** The interface named by `id` that template `t` implements (for `#name` ids: the family member it implements). */
  interfaceOfTemplate(id: string, t: ResolvedTemplate): ResolvedInterface | undefined {
    return this.interfacesFor(id).find((i) => t.implementedInterfaces.includes(i.interfaceId));
  }

  template(id: string): ResolvedTemplate {
    if (!ID_SHAPE.test(id))
      throw new CantonError('INVALID_ARGUMENT', `Invalid template id '${id}': expected <package-id or #package-name>:<module>:<entity>`, {
        context: { templateId: id },
      });
    const t = this.findTemplate(id);
    if (!t) throw new CantonError('TEMPLATES_OR_INTERFACES_NOT_FOUND', `Template not found: ${id}`, { context: { templateId: id } });
    return t;
  }
  iface(id: string): ResolvedInterface {
    if (!ID_SHAPE.test(id)) throw new CantonError('INVALID_ARGUMENT', `Invalid interface id '${id}'`, { context: { interfaceId: id } });
    const i = this.findInterface(id);
    if (!i) throw new CantonError('TEMPLATES_OR_INTERFACES_NOT_FOUND', `Interface not found: ${id}`, { context: { interfaceId: id } });
    return i;
  }

  /**
   * The template of a stored node: the package that created it; for a built-in package id of an earlier simulator
   * version, today's built-in template of the same name.
   */
  templateOfNode(n: { packageId: string; packageName: string; qualifiedName: string }): ResolvedTemplate | undefined {
    return this.templatesById.get(`${n.packageId}:${n.qualifiedName}`) ?? this.builtinTemplates.get(`${n.packageName}:${n.qualifiedName}`);
  }

  /** Template `qn` of the same package (what a choice body creates). */
  templateIn(pkg: ResolvedPackage, qn: string): ResolvedTemplate | undefined {
    return this.templatesById.get(`${pkg.id}:${qn}`);
  }

  /**
   * A choice of a template. For uploaded templates only `Archive` runs; their other choices fail with
   * `UNIMPLEMENTED` (the simulator does not interpret Daml).
   */
  choice(t: ResolvedTemplate, name: string): ChoiceDef | undefined {
    if (name === 'Archive') return ARCHIVE_CHOICE;
    if (t.uploaded) {
      const lf = t.pkg.summary.modules.flatMap((m) => m.templates).find((x) => x.qualifiedName === t.qualifiedName);
      if (lf?.choices.some((c) => c.name === name)) throw notInterpreted(`template ${t.templateId}`, name);
      return undefined;
    }
    return t.def.choices.find((c) => c.name === name);
  }

  /** A choice of an interface; an uploaded interface's choices fail with `UNIMPLEMENTED`. */
  interfaceChoice(i: ResolvedInterface, name: string): ChoiceDef | undefined {
    if (i.uploaded) {
      if (i.uploaded.choices.some((c) => c.name === name)) throw notInterpreted(`interface ${i.interfaceId}`, name);
      return undefined;
    }
    return i.def.choices?.find((c) => c.name === name);
  }
}

const notInterpreted = (what: string, choice: string): CantonError =>
  new CantonError(
    'UNIMPLEMENTED',
    `Choice ${choice} of uploaded ${what} cannot be exercised: the simulator does not ` +
      'interpret Daml, so templates of uploaded packages support only create and Archive',
    { context: { [what.startsWith('template') ? 'templateId' : 'interfaceId']: what.split(' ')[1] ?? what, choice } },
  );
