/**
 * The encoder's input: a small in-memory description of a Daml-LF 2 package (modules, data types, templates, choices,
 * interfaces, exceptions), and the parser of the `Module:Entity` / `packageId:Module:Entity` references it uses.
 */
import { DamlLfError } from './errors.js';
import type { Field, InterfaceMethod, Type, TypeConRef } from './types.js';

export interface ChoiceDescription {
  name: string;
  /** Default true. */
  consuming?: boolean;
  /** The argument type; alternatively give `argFields` and a record named after the choice is generated. */
  argType?: Type;
  argFields?: Field[];
  /** Default Unit. */
  returnType?: Type;
  /** Template fields (Party or [Party]) that control the choice; default: the stub `[]`. */
  controllers?: string[];
}

export interface TemplateDescription {
  name: string;
  fields: Field[];
  /** Party / [Party] fields (at most one list, last) whose parties are the signatories; default: the stub `[]`. */
  signatories?: string[];
  /** Party / [Party] fields whose parties are the observers; default: the stub `[]`. */
  observers?: string[];
  /** Add the consuming `Archive` choice (argument record `Archive {}`, controllers = signatories, body `pure ()`). */
  archive?: boolean;
  key?: Type;
  choices?: ChoiceDescription[];
  /** Interfaces as `Module:Entity` (this package) or `packageId:Module:Entity`. */
  implements?: string[];
}

export interface InterfaceDescription {
  name: string;
  /** The view type; alternatively give `viewFields` and a record `<Name>View` is generated. Default Unit. */
  viewType?: Type;
  viewFields?: Field[];
  choices?: ChoiceDescription[];
  methods?: InterfaceMethod[];
  /** Required interfaces as `Module:Entity` or `packageId:Module:Entity`. */
  requires?: string[];
}

/** A data type; `serializable` defaults to true, `params` to none. */
export type DataTypeDescription =
  | { kind: 'record'; name: string; params?: string[]; serializable?: boolean; fields: Field[] }
  | { kind: 'variant'; name: string; params?: string[]; serializable?: boolean; constructors: Field[] }
  | { kind: 'enum'; name: string; params?: string[]; serializable?: boolean; constructors: string[] };

export interface ModuleDescription {
  name: string;
  dataTypes?: DataTypeDescription[];
  templates?: TemplateDescription[];
  interfaces?: InterfaceDescription[];
  exceptions?: string[];
}

export interface PackageDescription {
  name: string;
  version: string;
  /** Daml-LF 2 minor version (default `1`); `dev` switches to the flat type encoding (`Type.TApp`). */
  lfMinor?: string;
  upgradedPackageId?: string;
  modules: ModuleDescription[];
  /**
   * Encode every type through `Package.interned_types` (default true, as the Daml compiler does). Canton's LF2 decoder
   * only accepts interned types outside the table, so `false` is for exercising decoders only.
   */
  internTypes?: boolean;
}
export const invalid = (message: string): never => {
  throw new DamlLfError('INVALID_DESCRIPTION', message);
};

/** Parses `Module:Entity` or `packageId:Module:Entity`. */
export function parseTypeConRef(s: string): TypeConRef {
  const parts = s.split(':');
  if (parts.length === 2 && parts[0] && parts[1]) return { packageId: 'self', module: parts[0], name: parts[1] };
  if (parts.length === 3 && parts[0] && parts[1] && parts[2]) return { packageId: parts[0], module: parts[1], name: parts[2] };
  return invalid(`"${s}" is not Module:Entity or packageId:Module:Entity`);
}
