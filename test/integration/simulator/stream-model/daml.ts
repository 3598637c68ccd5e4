/**
 * What the model knows of the `simulator-demo` package (src/simulator/README.md, "Built-in packages")
 * and of Daml's ledger model, written independently of the simulator's interpreter: stakeholders,
 * keys, interface views, and the nodes each choice produces, with their informees and witnesses.
 */
export type Json = null | boolean | string | number | Json[] | { [k: string]: Json };
export type Args = Record<string, Json>;

export type TemplateName = 'Iou' | 'IouProposal' | 'Account';
export const QUALIFIED: Record<TemplateName, string> = {
  Iou: 'Demo.Iou:Iou',
  IouProposal: 'Demo.Iou:IouProposal',
  Account: 'Demo.Account:Account',
};
export const ASSET = 'Demo.Asset:Asset';
/** Interfaces each template implements (the README table: Iou and Account implement Asset). */
export const IMPLEMENTS: Record<TemplateName, string[]> = { Iou: [ASSET], IouProposal: [], Account: [ASSET] };
export const PACKAGE_NAME = 'simulator-demo';

const sortedUnique = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

/** A JSON value that must be a string (arguments, answers); anything else is a bug in the scenario or the answer. */
export function str(v: Json | undefined): string {
  if (typeof v !== 'string') throw new Error(`expected a string, got ${JSON.stringify(v)}`);
  return v;
}

/** Numeric 10 as the JSON API prints it: a decimal string with exactly 10 fractional digits. */
export function numeric(units: bigint): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  const s = abs.toString().padStart(11, '0');
  return `${neg ? '-' : ''}${s.slice(0, -10)}.${s.slice(-10)}`;
}
/** Amounts are kept as integers of 10^-10. */
export const UNIT = 10_000_000_000n;

export function signatories(t: TemplateName, a: Args): string[] {
  return sortedUnique([str(t === 'Account' ? a.bank : a.issuer)]);
}

/** "The observers for this contract … This field never contains parties that are signatories." (CreatedEvent.observers) */
export function observers(t: TemplateName, a: Args): string[] {
  const sigs = signatories(t, a);
  const raw = t === 'Account' ? [str(a.holder)] : t === 'Iou' ? [str(a.owner), ...(a.observers as string[])] : [str(a.owner)];
  return sortedUnique(raw).filter((p) => !sigs.includes(p));
}

export const stakeholders = (t: TemplateName, a: Args): string[] => sortedUnique([...signatories(t, a), ...observers(t, a)]);

export function contractKey(t: TemplateName, a: Args): Json | undefined {
  return t === 'Account' ? { bank: a.bank as string, accountId: a.accountId as string } : undefined;
}

/** The Asset view of a contract (README: view `{owner, description, amount}`). */
export function assetView(t: TemplateName, a: Args): Args {
  if (t === 'Iou') return { owner: a.owner as string, description: `${str(a.amount)} ${str(a.currency)}`, amount: a.amount as string };
  if (t === 'Account')
    return { owner: a.holder as string, description: `account ${str(a.accountId)} (${str(a.label)})`, amount: numeric(0n) };
  throw new Error(`${t} does not implement Asset`);
}

// ---------------------------------------------------------------------------------------------
// Transaction nodes, as the Daml ledger model builds them
// ---------------------------------------------------------------------------------------------

/** A contract the model tracks (created by an earlier transaction or earlier in this one). */
export interface ContractRef {
  template: TemplateName;
  args: Args;
  /** Set once the creating transaction is committed (taken from the submission's answer). */
  cid?: string;
}

export interface CreateNode {
  kind: 'create';
  nodeId: number;
  contract: ContractRef;
  witnesses: string[];
}

export interface ExerciseNode {
  kind: 'exercise';
  nodeId: number;
  contract: ContractRef;
  choice: string;
  choiceArgument: Args;
  actingParties: string[];
  consuming: boolean;
  interfaceId?: string;
  lastDescendantNodeId: number;
  /** The choice's result, computed once the contract ids of the transaction are known. */
  result: () => Json;
  witnesses: string[];
}

export type Node = CreateNode | ExerciseNode;

const cidOf = (c: ContractRef): string => {
  if (c.cid === undefined) throw new Error('contract id not known yet');
  return c.cid;
};

/**
 * Builds the nodes of one transaction in pre-order (an exercise gets its node id before its
 * consequences, as node ids are assigned).
 *
 * Witnesses: "If consuming, the witnesses are the union of the stakeholders, the actors and all
 * informees of all the ancestors of this event … If not consuming, the witnesses are the union of
 * the signatories, the actors and all informees of all the ancestors of this event"
 * (ExercisedEvent.witnessParties); a create's informees are its stakeholders, plus "all informees of
 * all the ancestors of this create action" (CreatedEvent.witnessParties).
 */
export class TxBuilder {
  readonly nodes: Node[] = [];
  /** Contracts created by this transaction. */
  readonly created: ContractRef[] = [];
  /** Contracts consumed by this transaction (created earlier or here). */
  readonly consumed: ContractRef[] = [];

  create(template: TemplateName, args: Args, parentWitnesses: string[] = []): ContractRef {
    const contract: ContractRef = { template, args };
    this.nodes.push({
      kind: 'create',
      nodeId: this.nodes.length,
      contract,
      witnesses: sortedUnique([...stakeholders(template, args), ...parentWitnesses]),
    });
    this.created.push(contract);
    return contract;
  }

  /**
   * Exercises `choice` on `c`; `viaInterface` for interface choices; `other` is the contract an
   * Iou_Merge absorbs. Returns the choice's result.
   */
  exercise(
    c: ContractRef,
    choice: string,
    arg: Args,
    parentWitnesses: string[] = [],
    viaInterface?: string,
    other?: ContractRef,
  ): () => Json {
    const spec = choiceSpec(c, choice, arg, other);
    const informees = spec.consuming
      ? [...stakeholders(c.template, c.args), ...spec.actors]
      : [...signatories(c.template, c.args), ...spec.actors];
    const witnesses = sortedUnique([...informees, ...parentWitnesses]);
    const node: ExerciseNode = {
      kind: 'exercise',
      nodeId: this.nodes.length,
      contract: c,
      choice,
      choiceArgument: spec.argument,
      actingParties: sortedUnique(spec.actors),
      consuming: spec.consuming,
      ...(viaInterface ? { interfaceId: viaInterface } : {}),
      lastDescendantNodeId: this.nodes.length,
      result: () => null,
      witnesses,
    };
    this.nodes.push(node);
    if (spec.consuming) this.consumed.push(c);
    node.result = spec.body(this, witnesses);
    node.lastDescendantNodeId = this.nodes.length - 1;
    return node.result;
  }
}

interface ChoiceSpec {
  consuming: boolean;
  actors: string[];
  argument: Args;
  body: (tx: TxBuilder, witnesses: string[]) => () => Json;
}

const unit = (): Json => ({});

/** The demo choices (README table; bodies as described there). */
function choiceSpec(c: ContractRef, choice: string, arg: Args, other?: ContractRef): ChoiceSpec {
  const a = c.args;
  /** Iou and IouProposal only */
  const owner = (): string => str(a.owner);
  if (choice === 'Archive') return { consuming: true, actors: signatories(c.template, a), argument: {}, body: () => unit };
  if (choice === 'Asset_Describe') {
    const viewer = str(arg.viewer);
    const v = assetView(c.template, a);
    return {
      consuming: false,
      actors: [viewer],
      argument: { viewer },
      body: () => () => `${str(v.description)} (${str(v.amount)}) owned by ${str(v.owner)}`,
    };
  }
  switch (`${c.template}.${choice}`) {
    case 'Iou.Iou_Transfer':
      return {
        consuming: true,
        actors: [owner()],
        argument: { newOwner: arg.newOwner as string },
        body: (tx, w) => {
          const n = tx.create('Iou', { ...a, owner: arg.newOwner as string, observers: [] }, w);
          return () => cidOf(n);
        },
      };
    case 'Iou.Iou_Split':
      return {
        consuming: true,
        actors: [owner()],
        argument: { splitAmount: arg.splitAmount as string },
        body: (tx, w) => {
          const total = toUnits(str(a.amount));
          const split = toUnits(str(arg.splitAmount));
          const s = tx.create('Iou', { ...a, amount: numeric(split) }, w);
          const r = tx.create('Iou', { ...a, amount: numeric(total - split) }, w);
          return () => ({ splitCid: cidOf(s), restCid: cidOf(r) });
        },
      };
    case 'Iou.Iou_Merge':
      return {
        consuming: true,
        actors: [owner()],
        argument: { otherCid: arg.otherCid as string },
        body: (tx, w) => {
          if (!other) throw new Error('Iou_Merge needs the other contract');
          tx.exercise(other, 'Archive', {}, w);
          const sum = toUnits(str(a.amount)) + toUnits(str(other.args.amount));
          const m = tx.create('Iou', { ...a, amount: numeric(sum) }, w);
          return () => cidOf(m);
        },
      };
    case 'Iou.Iou_AddObserver': {
      const obs = a.observers as string[];
      const n = str(arg.newObserver);
      return {
        consuming: true,
        actors: [owner()],
        argument: { newObserver: n },
        body: (tx, w) => {
          const c2 = tx.create('Iou', { ...a, observers: obs.includes(n) ? obs : [...obs, n] }, w);
          return () => cidOf(c2);
        },
      };
    }
    case 'Iou.Iou_Describe':
      return {
        consuming: false,
        actors: [owner()],
        argument: {},
        body: () => () => `${str(a.amount)} ${str(a.currency)} issued by ${str(a.issuer)}`,
      };
    case 'IouProposal.IouProposal_Accept':
      return {
        consuming: true,
        actors: [owner()],
        argument: {},
        body: (tx, w) => {
          const i = tx.create(
            'Iou',
            { issuer: a.issuer as string, owner: owner(), currency: a.currency as string, amount: a.amount as string, observers: [] },
            w,
          );
          return () => cidOf(i);
        },
      };
    case 'IouProposal.IouProposal_Reject':
      return { consuming: true, actors: [owner()], argument: {}, body: () => unit };
    case 'IouProposal.IouProposal_Withdraw':
      return { consuming: true, actors: [str(a.issuer)], argument: {}, body: () => unit };
    case 'Account.Account_Relabel':
      return {
        consuming: true,
        actors: [str(a.bank)],
        argument: { newLabel: arg.newLabel as string },
        body: (tx, w) => {
          const c2 = tx.create('Account', { ...a, label: arg.newLabel as string }, w);
          return () => cidOf(c2);
        },
      };
    case 'Account.Account_Close':
      return { consuming: true, actors: [str(a.bank)], argument: {}, body: () => unit };
    case 'Account.Account_Ping':
      return {
        consuming: false,
        actors: [str(a.holder)],
        argument: { message: arg.message as string },
        body: () => () => `pong: ${str(arg.message)}`,
      };
    default:
      throw new Error(`the model does not know ${c.template}.${choice}`);
  }
}

export function toUnits(s: string): bigint {
  const [i = '0', f = ''] = s.split('.');
  return BigInt(i) * UNIT + BigInt((f + '0000000000').slice(0, 10));
}
