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
  /** `template`: `Module:Entity` of this package, or `#package-name:Module:Entity` of an earlier built-in package. */
  | { kind: 'ContractId'; template?: string }
  | { kind: 'List'; elem: FieldType }
  | { kind: 'Optional'; elem: FieldType }
  | { kind: 'TextMap'; elem: FieldType }
  /** JSON: a list of `[key, value]` pairs. */
  | { kind: 'GenMap'; key: FieldType; value: FieldType }
  /**
   * A variant: JSON `{ tag, value }` with `tag` one of the constructors (each with its argument type). `package`: the
   * built-in package defining the type when it is not the package using it. A recursive type refers to itself by
   * object identity (e.g. the token standard's `AnyValue`).
   */
  | { kind: 'Variant'; name: string; package?: string; constructors: FieldDef[] }
  | { kind: 'Record'; name: string; package?: string; fields: FieldDef[] };

export interface FieldDef {
  name: string;
  type: FieldType;
}

export type LfRecord = { [k: string]: LfValue };

/**
 * A party expression: a Party or [Party] field of the contract (for interface choices: of the interface view) or of
 * the choice argument; a dotted path reaches nested record fields (`transfer.receiver`).
 */
export type PartyExpr = { contract: string } | { argument: string };

export interface ChoiceContext {
  /** Contract id of the exercised contract. */
  self: string;
  /** The contract's create arguments (through an interface too). */
  contract: LfRecord;
  /** The interface view, when the choice is exercised through an interface. */
  view?: LfRecord;
  arg: LfRecord;
  actors: string[];
  /** The transaction's ledger effective time (RFC 3339), for deadline checks. */
  ledgerTime: string;
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
  /** The template's bodies of the interface's choices (`ctx.contract`: the template's arguments, `ctx.view`: the view). */
  choices?: Record<string, ChoiceDef['body']>;
}

export interface TemplateDef {
  module: string;
  entity: string;
  fields: FieldDef[];
  /** Party / [Party] fields (dotted paths reach nested record fields, e.g. `transfer.sender`). */
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
   * Interface choices: exercised with the interface id as `templateId`. Party expressions with `contract` refer to
   * fields of the interface view; the body is the implementing template's (`InterfaceImpl.choices`), else this one.
   */
  choices?: ChoiceDef[];
}

export interface PackageDef {
  name: string;
  version: string;
  templates: TemplateDef[];
  interfaces: InterfaceDef[];
  /** Named records and variants the package defines besides those its templates and interfaces reach. */
  types?: FieldType[];
}
