/**
 * Clear-sign recognisers as a registry: each recogniser is one registration (`defineRecogniser`) that declares, for
 * the kind of transaction it states field by field, how it is matched, its counterparties and amounts for the signing
 * policy, its one-line description and its field rows for the confirmation screen. Adding a recogniser = one file
 * plus one line in `RECOGNISERS` (recognisers.ts).
 *
 * Matching is strict: exactly one root action, of the expected shape, with the signing party in the expected role.
 * A matcher answers null when the root is not its shape (others are tried), a clear-sign value when it recognises it,
 * or warnings when the root has its shape but cannot be clear-signed (no other matcher is tried then).
 */
import type { Create, DamlTransaction_Node, Exercise } from '@canton-network/core-ledger-proto';

export type ClearSignFieldKind = 'party' | 'amount' | 'timestamp' | 'contract' | 'text';
export interface ClearSignField {
  label: string;
  /** A party id, an exact decimal, an ISO timestamp, a contract id or text ('—' when absent). */
  value: string;
  kind: ClearSignFieldKind;
  /** The instrument of an amount ("CC", "Amulet", …). */
  unit?: string;
}

/** Field rows, typed so every screen shows parties, amounts and times the same way. */
export const row = {
  party: (label: string, value: string | null): ClearSignField => ({ label, value: value ?? '—', kind: value ? 'party' : 'text' }),
  amount: (label: string, value: string, unit: string): ClearSignField => ({ label, value, kind: 'amount', unit }),
  timestamp: (label: string, value: string | null): ClearSignField => ({ label, value: value ?? '—', kind: value ? 'timestamp' : 'text' }),
  contract: (label: string, value: string): ClearSignField => ({ label, value, kind: 'contract' }),
  text: (label: string, value: string | null): ClearSignField => ({ label, value: value ?? '—', kind: 'text' }),
};

/** An exact decimal without trailing zeros, for one-line descriptions (25.0000000000 → 25). */
export const amountText = (v: string): string => (v.includes('.') ? v.replace(/\.?0+$/, '') : v);
/** What the confirmation screen shows for a recognised transaction (the IPC wire shape of a clear sign). */
export interface ClearSignWire {
  kind: string;
  title: string;
  fields: ClearSignField[];
}
export interface PolicyAmount {
  path: string;
  value: string;
}

/** The root action being matched, with what matchers need from the rest of the transaction. */
export interface MatchContext {
  signingParty: string;
  /** Every node of the transaction by node id. */
  byId: Map<string, DamlTransaction_Node>;
  /** The transaction's input contracts by contract id (covered by the V2 hash). */
  inputs: Map<string, Create>;
}
export type RootAction = { kind: 'exercise'; exercise: Exercise } | { kind: 'create'; create: Create };

export type MatchResult<C> = { clearSign: C; warnings: [] } | { clearSign: null; warnings: string[] };
export type Matcher<C> = (root: RootAction, ctx: MatchContext) => MatchResult<C> | null;

export interface RecogniserDef<C extends { kind: string }> {
  kind: C['kind'];
  /** The root shapes this kind is recognised from (e.g. a direct choice and the same choice through a wallet proxy). */
  matchers: Array<Matcher<C>>;
  /** Parties other than the signer that the transaction deals with; the policy's counterparty allow-list applies to them. */
  counterparties(c: C): string[];
  /** Amounts the policy's per-transaction limit applies to (what the signer gives or takes in); [] when none moves. */
  amounts(c: C): PolicyAmount[];
  /** One line for lists, audit entries and confirmations. */
  headline(c: C): string;
  /** Title and field rows for the confirmation screen. */
  wire(c: C): Omit<ClearSignWire, 'kind'>;
}

export function defineRecogniser<C extends { kind: string }>(def: RecogniserDef<C>): RecogniserDef<C> {
  return def;
}

export const ok = <C>(clearSign: C): MatchResult<C> => ({ clearSign, warnings: [] });
export const notClear = (...warnings: string[]): { clearSign: null; warnings: string[] } => ({ clearSign: null, warnings });

/** The exercises directly below `e`. */
export function childExercises(e: Exercise, ctx: MatchContext): Exercise[] {
  return e.children.flatMap((id) => {
    const n = ctx.byId.get(id);
    return n?.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'exercise'
      ? [n.versionedNode.v1.nodeType.exercise]
      : [];
  });
}

export const actsAlone = (e: Exercise, party: string): boolean => e.actingParties.length > 0 && e.actingParties.every((p) => p === party);
