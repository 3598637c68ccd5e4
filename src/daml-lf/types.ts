/**
 * The library's data model: a decoded Daml-LF 2 package reduced to what a console/simulator needs — modules,
 * templates, choices, interfaces, serializable data types and their field types. Expressions are not decoded.
 */

/** Daml-LF builtin types (daml_lf2.proto `BuiltinType`). */
export type PrimType =
  | 'Unit'
  | 'Bool'
  | 'Int64'
  | 'Date'
  | 'Timestamp'
  | 'Numeric'
  | 'Party'
  | 'Text'
  | 'ContractId'
  | 'Optional'
  | 'List'
  | 'GenMap'
  | 'TextMap'
  | 'Any'
  | 'AnyException'
  | 'TypeRep'
  | 'Arrow'
  | 'Update'
  | 'FailureCategory'
  | 'BigNumeric'
  | 'RoundingMode';

/** Package reference inside a type: `'self'` is the package that contains the reference. */
export type PackageRef = string;

export interface TypeConRef {
  packageId: PackageRef;
  /** Dotted module name, e.g. `Main` or `Splice.Amulet`. */
  module: string;
  /** Dotted entity name, e.g. `Iou`. */
  name: string;
}

/**
 * A Daml-LF type. Applications are flattened: `Numeric 10` is `{kind:'prim', prim:'Numeric', args:[{kind:'nat', value:10}]}`,
 * `Optional (ContractId Main:Iou)` nests `prim` nodes, a user type is `con` with its arguments.
 */
export type Type =
  | { kind: 'prim'; prim: PrimType; args: Type[] }
  | ({ kind: 'con'; args: Type[] } & TypeConRef)
  | { kind: 'syn'; args: Type[]; synonym: TypeConRef }
  | { kind: 'var'; name: string; args: Type[] }
  | { kind: 'nat'; value: number }
  | { kind: 'forall'; vars: string[]; body: Type }
  | { kind: 'struct'; fields: Field[] }
  /** An application whose head is not a variable/constructor/builtin (cannot occur in serializable types). */
  | { kind: 'app'; fun: Type; args: Type[] };

export interface Field {
  name: string;
  type: Type;
}

export type DataType =
  | { kind: 'record'; name: string; params: string[]; serializable: boolean; fields: Field[] }
  | { kind: 'variant'; name: string; params: string[]; serializable: boolean; constructors: Field[] }
  | { kind: 'enum'; name: string; params: string[]; serializable: boolean; constructors: string[] };

export interface Choice {
  name: string;
  consuming: boolean;
  argType: Type;
  returnType: Type;
  /** Fields of the argument record when `argType` is a record of this package (type parameters substituted). */
  argFields?: Field[];
}

export interface Template {
  name: string;
  /** `Module:Entity`. */
  qualifiedName: string;
  /** Fields of the template's record type (the contract's create arguments). */
  fields: Field[];
  key?: Type;
  choices: Choice[];
  /** Implemented interfaces as `packageId:Module:Entity` (own package id substituted for self references). */
  implements: string[];
}

export interface InterfaceMethod {
  name: string;
  type: Type;
}

export interface Interface {
  name: string;
  qualifiedName: string;
  viewType: Type;
  /** Fields of the view record when it is a record of this package. */
  viewFields?: Field[];
  choices: Choice[];
  methods: InterfaceMethod[];
  /** Required interfaces as `packageId:Module:Entity`. */
  requires: string[];
}

export interface Module {
  name: string;
  templates: Template[];
  interfaces: Interface[];
  dataTypes: DataType[];
  /** Exception type names defined in the module. */
  exceptions: string[];
}

export interface PackageSummary {
  packageId: string;
  /** `PackageMetadata.name` ('' if the package has no metadata). */
  name: string;
  /** `PackageMetadata.version` ('' if the package has no metadata). */
  version: string;
  /** e.g. `2.1`, `2.dev`. */
  lfVersion: string;
  /** `PackageMetadata.upgraded_package_id`, when declared. */
  upgradedPackageId?: string;
  modules: Module[];
  /**
   * Other packages referenced: the explicit import table when the package has one (LF >= 2.dev), plus every package id
   * referenced from the interned type table (all types of the package, expressions included, as compilers intern every
   * type) and the decoded signatures (implements, requires). Packages referenced only through values used in
   * expressions are not found; the DAR's other DALFs cover those.
   */
  dependencies: string[];
}
