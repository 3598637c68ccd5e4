/**
 * Resolves template / interface identifiers (`<package-id>:M:E` or `#<package-name>:M:E`) to built-in definitions or to
 * templates of uploaded Daml-LF packages, and holds the participant's package vetting state per synchronizer.
 *
 * Built-in packages (TypeScript, `demo.ts`) keep their full behaviour. A template of an uploaded package resolves to a
 * `ResolvedTemplate` with `uploaded` set: the interpreter then uses its generic create behaviour (LF-typed argument
 * check, stakeholders from the arguments) and only `Archive` can be exercised (see `uploaded.ts`).
 */
import { compareVersions, PackageIndex, readDalf } from '../../daml-lf/index.js';
import type { PackageSummary } from '../../daml-lf/index.js';
import { CantonError } from '../errors.js';
import type { PackageStore, StoredPackage, VettingBounds } from '../store/packages.js';
import { demoPackage } from './demo.js';
import { amuletPackage } from '../wallet/package.js';
import { mergeDelegationPackage } from '../wallet/merge-delegation.js';
import { archiveOf } from './lf.js';
import { tokenStandardPackages } from './token-standard.js';
import type { ChoiceDef, InterfaceDef, InterfaceImpl, PackageDef, TemplateDef } from './types.js';
import { toFieldDefs, uploadedBehaviour, type UploadedTemplateBehaviour } from './uploaded.js';

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
  /** Interface ids (package-id form) the template implements. */
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

const withinBounds = (b: VettingBounds, at: string | undefined): boolean => {
  if (at === undefined) return true;
  const t = Date.parse(at);
  if (b.validFrom !== null && t < Date.parse(b.validFrom)) return false;
  if (b.validUntil !== null && t >= Date.parse(b.validUntil)) return false;
  return true;
};

export class PackageRegistry {
  private readonly builtins: ResolvedPackage[];
  private readonly uploadedPkgs: ResolvedPackage[] = [];
  private readonly byId = new Map<string, ResolvedPackage>();
  private readonly templates = new Map<string, ResolvedTemplate>();
  private readonly interfaces = new Map<string, ResolvedInterface>();
  /** Uploaded templates by `<package-id>:Module:Entity`. */
  private readonly uploadedTemplates = new Map<string, ResolvedTemplate>();
  readonly index = new PackageIndex();
  private store: PackageStore | undefined;
  /** synchronizer id → vetted package id → bounds. Undefined until a store is attached (then: everything vetted). */
  private vettingState: Map<string, Map<string, VettingBounds>> | undefined;
  private serials = new Map<string, number>();

  /**
   * Built-in packages in dependency order: a template may implement an interface of a package listed before its own
   * (`#package-name:Module:Entity`), e.g. the token-standard APIs implemented by `splice-amulet`.
   */
  constructor(defs: PackageDef[] = [demoPackage, ...tokenStandardPackages, amuletPackage, mergeDelegationPackage]) {
    const idByName = new Map<string, string>();
    this.builtins = defs.map((def) => {
      const a = archiveOf(def, (ref) => this.resolveInterfaceRef(ref, idByName));
      idByName.set(def.name, a.packageId);
      return { id: a.packageId, def, archive: a.bytes, summary: readDalf(a.bytes), uploaded: false };
    });
    for (const pkg of this.builtins) {
      this.byId.set(pkg.id, pkg);
      this.index.add(pkg.summary);
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
          implementedInterfaces: t.implements.map((impl) => this.interfaceIdOf(pkg, impl)),
        };
        this.templates.set(rt.key, rt);
      }
    }
  }

  /** `pkgId:Module:Entity` of an `InterfaceImpl.interface` reference, given the ids of the packages defined so far. */
  private resolveInterfaceRef(ref: string, idByName: Map<string, string>): string {
    if (!ref.startsWith('#')) return ref;
    const [name, mod, ent] = ref.slice(1).split(':');
    const id = name ? idByName.get(name) : undefined;
    if (!id || !mod || !ent) throw new Error(`built-in package: interface ${ref} is not defined by an earlier built-in package`);
    return `${id}:${mod}:${ent}`;
  }

  /** The interface id (package-id form) an implementation refers to. */
  private interfaceIdOf(pkg: ResolvedPackage, impl: InterfaceImpl): string {
    if (!impl.interface.startsWith('#')) return `${pkg.id}:${impl.interface}`;
    const i = this.findInterface(impl.interface);
    if (!i) throw new Error(`built-in package ${pkg.def.name}: unknown interface ${impl.interface}`);
    return i.interfaceId;
  }

  /** The template's implementation of interface `interfaceId` (package-id form), if it implements it. */
  implementation(t: ResolvedTemplate, interfaceId: string): InterfaceImpl | undefined {
    return t.def.implements.find((impl) => this.interfaceIdOf(t.pkg, impl) === interfaceId);
  }

  /** Built-in packages first, then uploaded ones in upload order. */
  get packages(): ResolvedPackage[] {
    return [...this.builtins, ...this.uploadedPkgs];
  }

  package(id: string): ResolvedPackage | undefined {
    return this.byId.get(id);
  }

  isBuiltinName(name: string): boolean {
    return this.builtins.some((p) => p.def.name === name);
  }

  /**
   * Loads uploaded packages and the vetting state from the store. Built-in packages seen for the first time are vetted
   * on every synchronizer (so un-vetting a built-in package survives restarts).
   */
  attachStore(store: PackageStore, synchronizerIds: string[]): void {
    this.store = store;
    store.transaction(() => {
      const fresh = store.markBuiltinsSeen(this.builtins.map((p) => p.id));
      if (fresh.length === 0) return;
      const state = store.vetting();
      const serials = store.serials();
      for (const s of synchronizerIds) {
        const m = state.get(s) ?? new Map<string, VettingBounds>();
        for (const id of fresh) m.set(id, { validFrom: null, validUntil: null });
        store.writeVetting(s, m, (serials.get(s) ?? 0) + 1);
      }
    });
    for (const p of store.packages()) this.addUploaded(p);
    this.vettingState = store.vetting();
    this.serials = store.serials();
  }

  get packageStore(): PackageStore | undefined {
    return this.store;
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
    for (const m of s.modules)
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
        const rt: ResolvedTemplate = {
          pkg,
          def,
          qualifiedName: t.qualifiedName,
          templateId: `${p.packageId}:${t.qualifiedName}`,
          key: `${s.name}:${t.qualifiedName}`,
          implementedInterfaces: t.implements,
          uploaded: uploadedBehaviour(this.index, s, t),
        };
        this.uploadedTemplates.set(rt.templateId, rt);
      }
    this.byId.set(p.packageId, pkg);
    this.uploadedPkgs.push(pkg);
  }

  // ---------------------------------------------------------------------------------------------
  // Vetting
  // ---------------------------------------------------------------------------------------------

  /** Vetted packages (id → bounds) on a synchronizer. Without a store every known package is vetted everywhere. */
  vetted(synchronizerId: string): Map<string, VettingBounds> {
    if (!this.vettingState) return new Map(this.packages.map((p) => [p.id, { validFrom: null, validUntil: null }]));
    return new Map(this.vettingState.get(synchronizerId) ?? []);
  }

  serial(synchronizerId: string): number {
    if (!this.vettingState) return 1;
    return this.serials.get(synchronizerId) ?? 0;
  }

  isVetted(packageId: string, synchronizerId: string, at?: string): boolean {
    const b = this.vetted(synchronizerId).get(packageId);
    return b !== undefined && withinBounds(b, at);
  }

  /** Persists a new vetting state for one synchronizer (caller runs inside a store transaction). */
  writeVetting(synchronizerId: string, state: Map<string, VettingBounds>): number {
    if (!this.store || !this.vettingState) throw new Error('package store not attached');
    const serial = this.serial(synchronizerId) + 1;
    this.store.writeVetting(synchronizerId, state, serial);
    return serial;
  }

  /** Re-reads the vetting state after a committed change. */
  reloadVetting(): void {
    if (!this.store) return;
    this.vettingState = this.store.vetting();
    this.serials = this.store.serials();
  }

  /**
   * The highest-versioned package named `name` vetted on `synchronizerId` at `at` (for preferred packages and
   * `#name` references). `filter` restricts the candidates (e.g. packages that define a template).
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
      if (!best || compareVersions(p.def.version, best.def.version) > 0) best = p;
    }
    return best;
  }

  /**
   * Fails like Canton's routing when a transaction uses a package that is not vetted on its synchronizer.
   * Called by the interpreter with the package ids of the transaction's nodes.
   */
  checkVetted(packageIds: Iterable<string>, synchronizerId: string, at: string): void {
    const missing = [...new Set(packageIds)].filter((id) => !this.isVetted(id, synchronizerId, at)).sort();
    if (missing.length === 0) return;
    const names = missing.map((id) => {
      const p = this.byId.get(id);
      return p ? `${id} (${p.def.name} ${p.def.version})` : id;
    });
    throw new CantonError(
      'NO_SYNCHRONIZER_FOR_SUBMISSION',
      `No valid synchronizer for submission found. Reasons: ${synchronizerId}: packages not vetted by participant: ${names.join(', ')}`,
      { context: { synchronizerId, unvettedPackages: missing.join(',') } },
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Templates and interfaces
  // ---------------------------------------------------------------------------------------------

  /** Uploaded template `qn` of package name `name`: the highest version vetted somewhere, else the highest known. */
  private uploadedByName(name: string, qn: string): ResolvedTemplate | undefined {
    const candidates = this.uploadedPkgs.filter((p) => p.def.name === name && this.uploadedTemplates.has(`${p.id}:${qn}`));
    if (candidates.length === 0) return undefined;
    const syncs = this.vettingState ? [...this.vettingState.keys()] : [];
    const vetted = candidates.filter((p) => !this.vettingState || syncs.some((s) => this.isVetted(p.id, s)));
    const pool = vetted.length > 0 ? vetted : candidates;
    const best = pool.reduce((a, b) => (compareVersions(b.def.version, a.def.version) > 0 ? b : a));
    return this.uploadedTemplates.get(`${best.id}:${qn}`);
  }

  /** Splits an identifier into (package name key, qualified name) or returns undefined when malformed. */
  private parseId(id: string): { pkgName: string; qn: string; pkgId?: string } | undefined {
    const parts = id.split(':');
    if (parts.length !== 3 || parts.some((p) => p.length === 0)) return undefined;
    const [pkgRef, mod, ent] = parts as [string, string, string];
    if (pkgRef.startsWith('#')) return { pkgName: pkgRef.slice(1), qn: `${mod}:${ent}` };
    const pkg = this.byId.get(pkgRef);
    if (pkg === undefined) return { pkgName: `?${pkgRef}`, qn: `${mod}:${ent}` };
    return { pkgName: pkg.def.name, qn: `${mod}:${ent}`, ...(pkg.uploaded ? { pkgId: pkg.id } : {}) };
  }

  findTemplate(id: string): ResolvedTemplate | undefined {
    const p = this.parseId(id);
    if (!p) return undefined;
    if (p.pkgId !== undefined) return this.uploadedTemplates.get(`${p.pkgId}:${p.qn}`);
    return this.templates.get(`${p.pkgName}:${p.qn}`) ?? this.uploadedByName(p.pkgName, p.qn);
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
  /** Template by its stored package name + qualified name. */
  templateOf(packageName: string, qualifiedName: string): ResolvedTemplate | undefined {
    return this.templates.get(`${packageName}:${qualifiedName}`) ?? this.uploadedByName(packageName, qualifiedName);
  }
  /**
   * A choice of a template. For uploaded templates only `Archive` runs; their other choices fail with
   * `UNSUPPORTED_OPERATION` (the simulator does not interpret Daml).
   */
  choice(t: ResolvedTemplate, name: string): ChoiceDef | undefined {
    if (name === 'Archive') return ARCHIVE_CHOICE;
    if (t.uploaded) {
      const lf = t.pkg.summary.modules.flatMap((m) => m.templates).find((x) => x.qualifiedName === t.qualifiedName);
      if (lf?.choices.some((c) => c.name === name))
        throw new CantonError(
          'UNIMPLEMENTED',
          `Choice ${name} of uploaded template ${t.templateId} cannot be exercised: the simulator does not interpret Daml, so templates of uploaded packages support only create and Archive`,
          { context: { templateId: t.templateId, choice: name } },
        );
      return undefined;
    }
    return t.def.choices.find((c) => c.name === name);
  }
  interfaceByQn(pkg: ResolvedPackage, qn: string): ResolvedInterface | undefined {
    return this.interfaces.get(`${pkg.def.name}:${qn}`);
  }
}
