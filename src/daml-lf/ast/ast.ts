/**
 * The complete Daml-LF 2 abstract syntax tree of a package (daml-lf-2.rst "Abstract syntax"), as decoded from the
 * `Package` message of daml_lf2.proto: every definition, expression, update and case form. Interned strings, dotted
 * names, types, kinds and expressions are resolved (interned types and expressions are shared objects). Package
 * references are absolute: `self` is replaced by the package's own id, as the spec's "Package reference" rule says.
 * Compressed forms stay compressed (`App` with several arguments, `Block` with several bindings), as in the proto.
 */
import type { Type } from '../types.js';

export type { Type };

/** A fully qualified name: `packageId:Module.Name:Entity.Name`. */
export interface QualifiedName {
  packageId: string;
  module: string;
  name: string;
}

export type Kind = { k: 'star' } | { k: 'nat' } | { k: 'arrow'; params: Kind[]; result: Kind };

export interface TypeVarWithKind {
  name: string;
  kind: Kind;
}

export interface VarWithType {
  name: string;
  type: Type;
}

/** Source location (0-based lines and columns); `module` when outside the current module. */
export interface Location {
  module?: { packageId: string; module: string };
  startLine: number;
  startCol: number;
  endLine: number;
  endCol: number;
}

/** `BuiltinLit.RoundingMode`, in declaration order (which is also the literal order of the spec). */
export const ROUNDING_MODES = ['UP', 'DOWN', 'CEILING', 'FLOOR', 'HALF_UP', 'HALF_DOWN', 'HALF_EVEN', 'UNNECESSARY'] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

/** `BuiltinLit.FailureCategory`. */
export const FAILURE_CATEGORIES = ['INVALID_INDEPENDENT_OF_SYSTEM_STATE', 'INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER'] as const;
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

export type Literal =
  | { lit: 'int64'; value: bigint }
  /** Microseconds since the epoch. */
  | { lit: 'timestamp'; value: bigint }
  /** The interned numeric text, e.g. `1.0000000000` (its scale is the number of digits after the point). */
  | { lit: 'numeric'; value: string }
  | { lit: 'text'; value: string }
  /** Days since the epoch. */
  | { lit: 'date'; value: number }
  | { lit: 'failureCategory'; value: FailureCategory }
  | { lit: 'roundingMode'; value: RoundingMode };

export interface FieldWithExpr {
  name: string;
  expr: Expr;
}

export interface Binding {
  name: string;
  type: Type;
  bound: Expr;
}

/** A type constructor applied to arguments (`Type.Con`), as used by record and variant expressions. */
export interface TypeConApp {
  tycon: QualifiedName;
  args: Type[];
}

export type Expr = (
  | { tag: 'var'; name: string }
  | { tag: 'val'; ref: QualifiedName }
  | { tag: 'builtin'; fn: string }
  | { tag: 'builtinCon'; con: 'Unit' | 'False' | 'True' }
  | { tag: 'lit'; lit: Literal }
  | { tag: 'recCon'; type: TypeConApp; fields: FieldWithExpr[] }
  | { tag: 'recProj'; type: TypeConApp; field: string; record: Expr }
  | { tag: 'recUpd'; type: TypeConApp; field: string; record: Expr; update: Expr }
  | { tag: 'variantCon'; type: TypeConApp; variant: string; arg: Expr }
  | { tag: 'enumCon'; tycon: QualifiedName; con: string }
  | { tag: 'structCon'; fields: FieldWithExpr[] }
  | { tag: 'structProj'; field: string; struct: Expr }
  | { tag: 'structUpd'; field: string; struct: Expr; update: Expr }
  | { tag: 'app'; fun: Expr; args: Expr[] }
  | { tag: 'tyApp'; expr: Expr; types: Type[] }
  | { tag: 'abs'; params: VarWithType[]; body: Expr }
  | { tag: 'tyAbs'; params: TypeVarWithKind[]; body: Expr }
  | { tag: 'case'; scrut: Expr; alts: CaseAlt[] }
  | { tag: 'let'; bindings: Binding[]; body: Expr }
  | { tag: 'nil'; type: Type }
  | { tag: 'cons'; type: Type; front: Expr[]; tail: Expr }
  | { tag: 'update'; update: Update }
  | { tag: 'none'; type: Type }
  | { tag: 'some'; type: Type; value: Expr }
  | { tag: 'toAny'; type: Type; expr: Expr }
  | { tag: 'fromAny'; type: Type; expr: Expr }
  | { tag: 'typeRep'; type: Type }
  | { tag: 'toAnyException'; type: Type; expr: Expr }
  | { tag: 'fromAnyException'; type: Type; expr: Expr }
  | { tag: 'throw'; returnType: Type; exceptionType: Type; expr: Expr }
  | { tag: 'toInterface'; iface: QualifiedName; template: QualifiedName; expr: Expr }
  | { tag: 'fromInterface'; iface: QualifiedName; template: QualifiedName; expr: Expr }
  | { tag: 'unsafeFromInterface'; iface: QualifiedName; template: QualifiedName; cid: Expr; expr: Expr }
  | { tag: 'callInterface'; iface: QualifiedName; method: string; expr: Expr }
  | { tag: 'viewInterface'; iface: QualifiedName; expr: Expr }
  | { tag: 'signatoryInterface'; iface: QualifiedName; expr: Expr }
  | { tag: 'observerInterface'; iface: QualifiedName; expr: Expr }
  | { tag: 'interfaceTemplateTypeRep'; iface: QualifiedName; expr: Expr }
  | { tag: 'toRequiredInterface'; required: QualifiedName; requiring: QualifiedName; expr: Expr }
  | { tag: 'fromRequiredInterface'; required: QualifiedName; requiring: QualifiedName; expr: Expr }
  | { tag: 'unsafeFromRequiredInterface'; required: QualifiedName; requiring: QualifiedName; cid: Expr; expr: Expr }
  | { tag: 'choiceController'; template: QualifiedName; choice: string; contract: Expr; arg: Expr }
  | { tag: 'choiceObserver'; template: QualifiedName; choice: string; contract: Expr; arg: Expr }
  | { tag: 'experimental'; name: string; type: Type }
) & { loc?: Location };

export type ExprTag = Expr['tag'];

export type Pattern =
  | { pat: 'default' }
  | { pat: 'variant'; tycon: QualifiedName; variant: string; binder: string }
  | { pat: 'enum'; tycon: QualifiedName; con: string }
  | { pat: 'builtinCon'; con: 'Unit' | 'False' | 'True' }
  | { pat: 'nil' }
  | { pat: 'cons'; head: string; tail: string }
  | { pat: 'none' }
  | { pat: 'some'; binder: string };

export interface CaseAlt {
  pattern: Pattern;
  body: Expr;
}

export type Update =
  | { tag: 'pure'; type: Type; expr: Expr }
  | { tag: 'block'; bindings: Binding[]; body: Expr }
  | { tag: 'create'; template: QualifiedName; expr: Expr }
  | { tag: 'createInterface'; iface: QualifiedName; expr: Expr }
  | { tag: 'exercise'; template: QualifiedName; choice: string; cid: Expr; arg: Expr }
  | { tag: 'exerciseInterface'; iface: QualifiedName; choice: string; cid: Expr; arg: Expr; guard?: Expr }
  | { tag: 'exerciseByKey'; template: QualifiedName; choice: string; key: Expr; arg: Expr }
  | { tag: 'fetch'; template: QualifiedName; cid: Expr }
  | { tag: 'fetchInterface'; iface: QualifiedName; cid: Expr }
  | { tag: 'getTime' }
  | { tag: 'lookupByKey'; template: QualifiedName }
  | { tag: 'fetchByKey'; template: QualifiedName }
  | { tag: 'queryNByKey'; template: QualifiedName }
  | { tag: 'embedExpr'; type: Type; body: Expr }
  | { tag: 'tryCatch'; returnType: Type; tryExpr: Expr; binder: string; catchExpr: Expr }
  | { tag: 'ledgerTimeLt'; expr: Expr };

export type UpdateTag = Update['tag'];

export interface TemplateChoice {
  name: string;
  consuming: boolean;
  /** `List Party`, template parameter and choice argument in scope. */
  controllers: Expr;
  /** Choice observers (`List Party`); absent = no observers. */
  observers?: Expr;
  /** Explicit authorizers (LF ≥ 2.dev); absent = signatories + controllers. */
  authorizers?: Expr;
  argBinder: VarWithType;
  returnType: Type;
  /** `Update returnType`, with the self binder (contract id), the template parameter and the argument in scope. */
  update: Expr;
  selfBinder: string;
  loc?: Location;
}

export interface TemplateKey {
  type: Type;
  /** The key, with the template parameter in scope. */
  keyExpr: Expr;
  /** A function from the key type to `List Party`. */
  maintainers: Expr;
}

export interface InterfaceInstance {
  iface: QualifiedName;
  methods: { name: string; value: Expr }[];
  view: Expr;
  loc?: Location;
}

export interface DefTemplate {
  /** The template's type constructor name (a record of the same module). */
  name: string;
  /** Binder of the template parameter (`this`). */
  param: string;
  /** Absent = `True` (spec: "Template precondition"). */
  precond?: Expr;
  signatories: Expr;
  observers: Expr;
  choices: TemplateChoice[];
  key?: TemplateKey;
  implements: InterfaceInstance[];
  loc?: Location;
}

export interface InterfaceMethod {
  name: string;
  type: Type;
  loc?: Location;
}

export interface DefInterface {
  name: string;
  param: string;
  methods: InterfaceMethod[];
  choices: TemplateChoice[];
  view: Type;
  requires: QualifiedName[];
  loc?: Location;
}

export interface DefException {
  name: string;
  /** `exception type → Text`. */
  message: Expr;
  loc?: Location;
}

export type DataCons =
  | { kind: 'record'; fields: VarWithType[] }
  | { kind: 'variant'; constructors: VarWithType[] }
  | { kind: 'enum'; constructors: string[] }
  | { kind: 'interface' };

export interface DefDataType {
  name: string;
  params: TypeVarWithKind[];
  serializable: boolean;
  cons: DataCons;
  loc?: Location;
}

export interface DefTypeSyn {
  name: string;
  params: TypeVarWithKind[];
  type: Type;
  loc?: Location;
}

export interface DefValue {
  name: string;
  type: Type;
  expr: Expr;
  loc?: Location;
}

export interface FeatureFlags {
  forbidPartyLiterals: boolean;
  dontDivulgeContractIdsInCreateArguments: boolean;
  dontDiscloseNonConsumingChoicesToObservers: boolean;
}

export interface ModuleAst {
  name: string;
  flags: FeatureFlags;
  synonyms: DefTypeSyn[];
  dataTypes: DefDataType[];
  values: DefValue[];
  templates: DefTemplate[];
  exceptions: DefException[];
  interfaces: DefInterface[];
}

export interface PackageAst {
  packageId: string;
  /** `2.1`, `2.dev`, … */
  lfVersion: string;
  /** `PackageMetadata.name` ('' without metadata). */
  name: string;
  version: string;
  upgradedPackageId?: string;
  modules: ModuleAst[];
  /** `Package.package_imports` (LF ≥ 2.dev), when present. */
  imports?: string[];
  /** `Package.no_imported_packages_reason` (LF ≥ 2.dev), when present. */
  noImportsReason?: string;
  /** Sizes of the interning tables, as read. */
  interned: { strings: number; dottedNames: number; types: number; kinds: number; exprs: number };
}
