/**
 * What a traffic purchase costs, before it is bought — from what a Splice validator exposes through its scan proxy:
 * the amulet price of the open mining round (USD per CC) and the traffic price of the AmuletRules' fee schedule
 * (`decentralizedSynchronizer.fees.extraTrafficPrice`, USD per MB; `minTopupAmount`, bytes). Exact decimal
 * arithmetic (10 fractional digits, as Daml's Numeric 10).
 */
import { z } from 'zod';
import { ConsoleError } from '../../ipc/errors.js';
import { DECIMAL_PATTERN, formatDecimal, parseDecimal } from '../../common/decimal.js';
import type { ValidatorClient } from './validator-client.js';

/** Prices are Daml Numeric 10. */
const SCALE = 10;
const Decimal = z.string().regex(DECIMAL_PATTERN, 'a decimal');

/** The parts of an OpenMiningRound payload the price needs (Splice.Round:OpenMiningRound). */
const OpenRoundPayload = z.object({
  round: z.object({ number: z.union([z.string(), z.number()]) }),
  amuletPrice: Decimal,
  opensAt: z.string(),
});
const OpenRoundsResponse = z.object({
  open_mining_rounds: z.array(z.object({ contract: z.object({ payload: z.unknown() }) })),
});

const Fees = z.object({ extraTrafficPrice: Decimal, minTopupAmount: z.union([z.string(), z.number()]) });
const AmuletConfig = z.object({ decentralizedSynchronizer: z.object({ fees: Fees }) });
/** Splice.AmuletRules:AmuletRules — `configSchedule` (Schedule Time AmuletConfig: future values as `{_1, _2}` tuples). */
const AmuletRulesPayload = z.object({
  configSchedule: z.object({
    initialValue: AmuletConfig,
    futureValues: z.array(z.object({ _1: z.string(), _2: AmuletConfig })).default([]),
  }),
});
const AmuletRulesResponse = z.object({ amulet_rules: z.object({ contract: z.object({ payload: z.unknown() }) }) });

export interface TrafficPrice {
  /** USD per Canton Coin, from the open mining round. */
  amuletPriceUsd: string;
  round: string;
  /** USD per MB (10^6 bytes) of extra traffic. */
  trafficPriceUsdPerMb: string;
  /** The smallest top-up the synchronizer accepts, in bytes. */
  minTopupBytes: number;
}

export interface TrafficQuote extends TrafficPrice {
  trafficBytes: number;
  costUsd: string;
  costCc: string;
}

function shapeError(what: string, issue: z.core.$ZodIssue | undefined): ConsoleError {
  return new ConsoleError(
    'VALIDATOR_ERROR',
    `The validator's scan proxy answered ${what} without the fields a price needs` +
      (issue ? ` (${issue.path.join('.')}: ${issue.message})` : ''),
  );
}

/** The current prices: the latest open round that has opened, and the fee schedule in force now. */
export async function trafficPrice(client: ValidatorClient, now: Date = new Date()): Promise<TrafficPrice> {
  const [rounds, rules] = await Promise.all([
    client.get('/v0/scan-proxy/open-and-issuing-mining-rounds', OpenRoundsResponse),
    client.get('/v0/scan-proxy/amulet-rules', AmuletRulesResponse),
  ]);
  const open = rounds.open_mining_rounds.map((r) => {
    const p = OpenRoundPayload.safeParse(r.contract.payload);
    if (!p.success) throw shapeError('the open mining rounds', p.error.issues[0]);
    return p.data;
  });
  const opened = open.filter((r) => Date.parse(r.opensAt) <= now.getTime()).sort((a, b) => Date.parse(b.opensAt) - Date.parse(a.opensAt));
  const round = opened[0] ?? [...open].sort((a, b) => Date.parse(a.opensAt) - Date.parse(b.opensAt))[0];
  if (!round) throw new ConsoleError('VALIDATOR_ERROR', 'The validator knows no open mining round, so there is no amulet price');
  const r = AmuletRulesPayload.safeParse(rules.amulet_rules.contract.payload);
  if (!r.success) throw shapeError('the AmuletRules', r.error.issues[0]);
  const schedule = r.data.configSchedule;
  const inForce = schedule.futureValues
    .filter((v) => Date.parse(v._1) <= now.getTime())
    .sort((a, b) => Date.parse(b._1) - Date.parse(a._1));
  const fees = (inForce[0]?._2 ?? schedule.initialValue).decentralizedSynchronizer.fees;
  return {
    amuletPriceUsd: round.amuletPrice,
    round: String(round.round.number),
    trafficPriceUsdPerMb: fees.extraTrafficPrice,
    minTopupBytes: Number(fees.minTopupAmount),
  };
}

/** The cost of `bytes` of traffic at `price`: bytes / 10^6 × USD per MB, then / USD per CC. */
export function quote(price: TrafficPrice, bytes: number): TrafficQuote {
  const perMb = parseDecimal(price.trafficPriceUsdPerMb, SCALE, 'truncate');
  const amulet = parseDecimal(price.amuletPriceUsd, SCALE, 'truncate');
  if (perMb === null || amulet === null || amulet <= 0n)
    throw new ConsoleError('VALIDATOR_ERROR', 'The validator reported an unusable price');
  const usd = (perMb * BigInt(bytes)) / 1_000_000n; // scaled 10^10
  const cc = (usd * 10_000_000_000n) / amulet;
  return { ...price, trafficBytes: bytes, costUsd: formatDecimal(usd, SCALE), costCc: formatDecimal(cc, SCALE) };
}
