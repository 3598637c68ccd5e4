/**
 * Built-in package definitions (the simulator's stand-in for Daml-LF). Declarative parts (names,
 * field types, signatories, keys, choice signatures) are hashed into the package id; behaviour
 * (ensure clauses, choice bodies, interface views) is TypeScript code.
 */
import type { LfValue } from '../model.js';

export type FieldType =
  | { kind: 'Party' }
  | { kind: 'Text' }
  | { kind: 'Int64' }
  | { kind: 'Numeric'; scale: number }
  | { kind: 'Bool' }
  | { kind: 'Time' }
  | { kind: 'Date' }
  | { kind: 'Unit' }
  | { kind: 'ContractId'; template?: string }
  | { kind: 'List'; elem: FieldType }
  | { kind: 'Optional'; elem: FieldType }
  | { kind: 'TextMap'; elem: FieldType }
  /** A variant: JSON `{ tag, value }` with `tag` one of the constructors (each with its argument type). */
  | { kind: 'Variant'; name: string; constructors: FieldDef[] }
  | { kind: 'Record'; name: string; fields: FieldDef[] };

export interface FieldDef {
  name: string;
  type: FieldType;
}

export type LfRecord = { [k: string]: LfValue };

/** A party expression: a Party or [Party] field of the contract (a dotted path reaches nested record fields) or of the choice argument. */
export type PartyExpr = { contract: string } | { argument: string };

export interface ChoiceContext {
  /** Contract id of the exercised contract. */
  self: string;
  contract: LfRecord;
  arg: LfRecord;
  actors: string[];
  /** Create a contract of a template of the same package (`Module:Entity`). Returns the contract id. */
  create(template: string, args: LfRecord): string;
  exercise(contractId: string, choice: string, arg: LfRecord): LfValue;
  /** Fetch an active contract's arguments; the template must match. */
  fetch(contractId: string, template: string): LfRecord;
  /** Abort the transaction with a Daml interpretation error. */
  fail(message: string): never;
}

export interface ChoiceDef {
  name: string;
  consuming: boolean;
  argument: FieldDef[];
  returnType: FieldType;
  controllers: PartyExpr[];
  observers?: PartyExpr[];
  /** Human description (part of the hashed definition). */
  description: string;
  body: (ctx: ChoiceContext) => LfValue;
}

export interface InterfaceImpl {
  /**
   * The implemented interface: `Module:Entity` of an interface in the same package, or `#package-name:Module:Entity` of
   * an interface in another built-in package (defined earlier in the registry, e.g. the token-standard APIs).
   */
  interface: string;
  view: (contract: LfRecord) => LfRecord;
}

export interface TemplateDef {
  module: string;
  entity: string;
  fields: FieldDef[];
  signatories: string[];
  observers: string[];
  key?: { fields: string[]; maintainers: string[] };
  /** Returns an error message when the contract arguments violate the template's precondition. */
  ensure?: (args: LfRecord) => string | undefined;
  ensureDescription?: string;
  choices: ChoiceDef[];
  implements: InterfaceImpl[];
}

export interface InterfaceDef {
  module: string;
  entity: string;
  view: { name: string; fields: FieldDef[] };
  /**
   * Interface choices: exercised with the interface id as `templateId`. Party expressions with
   * `contract` refer to fields of the interface view; `ctx.contract` is the view.
   */
  choices?: ChoiceDef[];
}

export interface PackageDef {
  name: string;
  version: string;
  templates: TemplateDef[];
  interfaces: InterfaceDef[];
}
