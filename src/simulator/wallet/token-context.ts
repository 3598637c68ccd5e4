/**
 * Helpers of the coin's token-standard implementations, after Splice's `Splice.Amulet.TokenApiUtils`: the choice context
 * the registry hands out (`extraArgs.context`, keys `amulet-rules`, `open-round`, `transfer-preapproval`,
 * `featured-app-right`, `expire-lock`, values `AnyValue`), deadline checks against the ledger time, and the
 * transaction metadata (`splice.lfdecentralizedtrust.org/tx-kind`, `…/sender`, `…/reason`, `…/burned`) that wallets
 * and the official transaction parser read.
 */
import type { LfValue } from '../model.js';
import type { ChoiceContext, LfRecord } from '../packages/types.js';
import { fmt, roundOf } from './coin.js';
import { asText } from '../lf-text.js';

export const AMULET_INSTRUMENT_ID = 'Amulet';

const SPLICE = 'splice.lfdecentralizedtrust.org/';
export const META = {
  txKind: `${SPLICE}tx-kind`,
  sender: `${SPLICE}sender`,
  reason: `${SPLICE}reason`,
  burned: `${SPLICE}burned`,
} as const;

/** Choice-context keys of Splice's registry. */
export const CTX = {
  amuletRules: 'amulet-rules',
  openRound: 'open-round',
  preapproval: 'transfer-preapproval',
  featuredAppRight: 'featured-app-right',
  expireLock: 'expire-lock',
} as const;

export type TxKind = 'transfer' | 'unlock' | 'merge-split' | 'burn' | 'mint' | 'expire-dust';

/** Splice's `holdingTxMeta`: the kind, and the reason, sender and burned amount when given (burned only when non-zero). */
export function holdingTxMeta(kind: TxKind, opts: { reason?: string | null; sender?: string | null; burned?: bigint } = {}): LfRecord {
  const values: Record<string, string> = { [META.txKind]: kind };
  if (opts.reason) values[META.reason] = opts.reason;
  if (opts.sender) values[META.sender] = opts.sender;
  if (opts.burned !== undefined && opts.burned !== 0n) values[META.burned] = fmt(opts.burned);
  return { values };
}

export const emptyMetadata = (): LfRecord => ({ values: {} });

/** The reason a transfer's metadata carries (the memo). */
export const reasonOf = (meta: LfValue | undefined): string | undefined => {
  const v = (meta as { values?: Record<string, LfValue> } | null | undefined)?.values?.[META.reason];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/** An `AnyValue` of the choice context in `ctx.arg.extraArgs.context` (undefined when absent). */
function contextValue(ctx: ChoiceContext, key: string): { tag: string; value: LfValue } | undefined {
  const extra = ctx.arg.extraArgs as { context?: { values?: Record<string, LfValue> } } | null | undefined;
  const v = extra?.context?.values?.[key];
  if (v === undefined || v === null) return undefined;
  return v as unknown as { tag: string; value: LfValue };
}

/** A contract id from the choice context; missing → `Missing context entry for: <key>` (as Splice) when required. */
export function contextCid(ctx: ChoiceContext, key: string, required: true): string;
export function contextCid(ctx: ChoiceContext, key: string, required: false): string | undefined;
export function contextCid(ctx: ChoiceContext, key: string, required: boolean): string | undefined {
  const v = contextValue(ctx, key);
  if (v === undefined) return required ? ctx.fail(`Missing context entry for: ${key}`) : undefined;
  if (v.tag !== 'AV_ContractId' || typeof v.value !== 'string')
    ctx.fail(`Failed to decode context value for '${key}': expected contract id, got: ${v.tag}`);
  return v.value;
}

export function contextBool(ctx: ChoiceContext, key: string): boolean | undefined {
  const v = contextValue(ctx, key);
  if (v === undefined) return undefined;
  if (v.tag !== 'AV_Bool' || typeof v.value !== 'boolean')
    ctx.fail(`Failed to decode context value for '${key}': expected bool, got: ${v.tag}`);
  return v.value;
}

/** The open round named by the context (checked to be the DSO's). */
export function openRoundFromContext(ctx: ChoiceContext, dso: LfValue): LfRecord {
  const round = roundOf(ctx, contextCid(ctx, CTX.openRound, true));
  if (round.dso !== dso) ctx.fail(`the open round of the context belongs to ${asText(round.dso)}, not to ${asText(dso)}`);
  return round;
}

/** The AmuletRules named by the context, when given, must be the DSO's. */
export function checkAmuletRules(ctx: ChoiceContext, dso: LfValue): void {
  const cid = contextCid(ctx, CTX.amuletRules, false);
  if (cid === undefined) return;
  const rules = ctx.fetch(cid, 'Splice.AmuletRules:AmuletRules');
  if (rules.dso !== dso) ctx.fail(`the AmuletRules of the context belong to ${asText(rules.dso)}, not to ${asText(dso)}`);
}

const micros = (t: LfValue | undefined): number => Date.parse(asText(t));

/** `t` must lie in the future of the ledger time (Splice's `assertWithinDeadline`). */
export function assertWithinDeadline(ctx: ChoiceContext, name: string, t: LfValue | undefined): void {
  if (!(micros(ctx.ledgerTime) < micros(t))) ctx.fail(`${name} (${asText(t)}) is not in the future of the ledger time ${ctx.ledgerTime}`);
}

/** `t` must have passed (Splice's `assertDeadlineExceeded`). */
export function assertDeadlineExceeded(ctx: ChoiceContext, name: string, t: LfValue | undefined): void {
  if (!(micros(t) <= micros(ctx.ledgerTime))) ctx.fail(`${name} (${asText(t)}) is not yet before the ledger time ${ctx.ledgerTime}`);
}

/** The instrument must be the DSO's Amulet. */
export function requireAmuletInstrument(ctx: ChoiceContext, instrument: LfValue | undefined, dso: LfValue): void {
  const i = (instrument ?? {}) as LfRecord;
  if (i.admin !== dso || i.id !== AMULET_INSTRUMENT_ID)
    ctx.fail(
      `Expected instrumentId ${JSON.stringify({ admin: dso, id: AMULET_INSTRUMENT_ID })} ` +
        `matches actual instrumentId ${JSON.stringify(instrument)}`,
    );
}

export function requireExpectedAdmin(ctx: ChoiceContext, expected: LfValue | undefined, dso: LfValue): void {
  if (expected !== dso) ctx.fail(`Expected admin ${asText(expected)} matches actual admin ${asText(dso)}`);
}

/** `extraArgs` with a choice context of contract ids (and booleans), as the registry hands them out. */
export function extraArgsWith(values: Record<string, string | boolean | undefined>): LfRecord {
  const ctx: Record<string, LfValue> = {};
  for (const [k, v] of Object.entries(values))
    if (v !== undefined) ctx[k] = typeof v === 'boolean' ? { tag: 'AV_Bool', value: v } : { tag: 'AV_ContractId', value: v };
  return { context: { values: ctx }, meta: { values: {} } };
}
