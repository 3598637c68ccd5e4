/**
 * Coin arithmetic and choice-body helpers shared by the `splice-amulet` templates (`package.ts`,
 * `templates-external.ts`): field-type shorthands, numerics, holding fees, input consumption, unlocking.
 */
import { formatDecimal, parseDecimal } from '../../common/decimal.js';
import type { LfValue } from '../model.js';
import type { ChoiceContext, FieldDef, LfRecord } from '../packages/types.js';
import { asText } from '../lf-text.js';

export const AMULET_PACKAGE_NAME = 'splice-amulet';
export const MAX_TRANSFER_INPUTS = 100;

export const party = { kind: 'Party' } as const;
export const text = { kind: 'Text' } as const;
export const int = { kind: 'Int64' } as const;
export const time = { kind: 'Time' } as const;
export const numeric = { kind: 'Numeric', scale: 10 } as const;
export const parties = { kind: 'List', elem: party } as const;
export const cid = (template: string) => ({ kind: 'ContractId', template }) as const;
export const cids = (template: string) => ({ kind: 'List', elem: cid(template) }) as const;

/** A Numeric field as a scaled bigint; an absent Optional counts as zero. */
export const num = (v: LfValue | undefined): bigint => (v === null || v === undefined ? 0n : (parseDecimal(asText(v), 10) ?? 0n));
export const fmt = (v: bigint): string => formatDecimal(v, 10);
export const int64 = (v: LfValue | undefined): bigint => BigInt(asText(v ?? '0'));

/** Effective amount of an (un)locked amulet in a round, and the holding fee accrued so far. */
export function effectiveAmount(a: LfRecord, round: bigint): { effective: bigint; fee: bigint } {
  const initial = num(a.initialAmount);
  const elapsed = round - int64(a.createdAtRound);
  let fee = (elapsed > 0n ? elapsed : 0n) * num(a.ratePerRound);
  if (fee > initial) fee = initial;
  return { effective: initial - fee, fee };
}

export const amuletFields: FieldDef[] = [
  { name: 'dso', type: party },
  { name: 'owner', type: party },
  { name: 'initialAmount', type: numeric },
  { name: 'createdAtRound', type: int },
  { name: 'ratePerRound', type: numeric },
];

export const offerFields: FieldDef[] = [
  { name: 'sender', type: party },
  { name: 'receiver', type: party },
  { name: 'dso', type: party },
  { name: 'amount', type: numeric },
  { name: 'description', type: text },
  { name: 'expiresAt', type: time },
  { name: 'trackingId', type: text },
  { name: 'lockedAmulet', type: cid('Splice.Amulet:LockedAmulet') },
];

export const roundOf = (ctx: ChoiceContext, roundCid: LfValue | undefined): LfRecord =>
  ctx.fetch(asText(roundCid), 'Splice.Round:OpenMiningRound');

export const newAmulet = (ctx: ChoiceContext, dso: LfValue, owner: LfValue, amount: bigint, round: LfRecord): string =>
  ctx.create('Splice.Amulet:Amulet', {
    dso,
    owner,
    initialAmount: fmt(amount),
    createdAtRound: asText(round.round),
    ratePerRound: round.holdingFeeRate ?? '0',
  });

/** Archives the inputs (owned by `owner`, at most 100) and returns their summed effective amount and fees. */
export function consumeInputs(
  ctx: ChoiceContext,
  owner: string,
  inputs: LfValue | undefined,
  round: LfRecord,
): { total: bigint; fees: bigint } {
  const list = (inputs as LfValue[] | undefined) ?? [];
  if (list.length === 0) ctx.fail('at least one input amulet is required');
  if (list.length > MAX_TRANSFER_INPUTS) ctx.fail(`a transfer takes at most ${MAX_TRANSFER_INPUTS} inputs, got ${list.length}`);
  if (new Set(list.map(String)).size !== list.length) ctx.fail('duplicate input amulet');
  let total = 0n;
  let fees = 0n;
  for (const c of list) {
    const a = ctx.fetch(asText(c), 'Splice.Amulet:Amulet');
    if (a.owner !== owner) ctx.fail(`input ${asText(c)} is not owned by ${owner}`);
    const e = effectiveAmount(a, int64(round.round));
    total += e.effective;
    fees += e.fee;
    ctx.exercise(asText(c), 'Archive', {});
  }
  return { total, fees };
}

/** Unlocks a locked amulet back to its owner (the lock's amount minus the fees accrued meanwhile). */
export function unlock(ctx: ChoiceContext, lockedCid: LfValue | undefined, roundCid: LfValue | undefined): LfValue {
  const round = roundOf(ctx, roundCid);
  const l = ctx.fetch(asText(lockedCid), 'Splice.Amulet:LockedAmulet');
  ctx.exercise(asText(lockedCid), 'Archive', {});
  const { effective } = effectiveAmount(l, int64(round.round));
  return newAmulet(ctx, l.dso ?? null, l.owner ?? null, effective, round);
}
