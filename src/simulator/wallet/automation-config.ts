/**
 * The wallet automation settings (simulator-specific; Splice configures the same things in the validator app's config
 * file): zod schema, defaults and persistence. Read and replaced through `GET|PUT /api/validator/v0/sim/automation`
 * (validator operator only); initial values come from `settings.wallet`; a PUT is stored in the ledger database's
 * meta table (`wallet_automation`) and survives restarts.
 */
import { z } from 'zod';
import type { MetaStore } from '../store/meta.js';

/** Default seconds between background automation runs. */
export const DEFAULT_BACKGROUND_INTERVAL_SECONDS = 10;

const decimal = z.string().regex(/^\d+(\.\d{1,10})?$/, 'a non-negative decimal string with at most 10 fractional digits');

export const AutomationConfigSchema = z
  .object({
    /** Expire transfer offers / accepted offers whose expiry passed (funds return to the sender). */
    autoExpireOffers: z.boolean(),
    /** The sender's automation completes accepted offers at once (else they stay in accepted-transfer-offers). */
    autoCompleteAcceptedOffers: z.boolean(),
    /** Merge a party's amulets once it holds more than this many (0 = off), in batches of `mergeBatchSize` ≤ 100. */
    mergeThreshold: z.number().int().min(0),
    mergeBatchSize: z.number().int().min(2).max(100),
    /** The DSO expires dust amulets whose accrued holding fee reached their amount (`Amulet_Expire`). */
    expireDustHoldings: z.boolean(),
    /** The validator collects closed-round reward coupons (validator coupons of its users, app coupons it provides). */
    collectRewards: z.boolean(),
    /** Reward issuance carried by each new round: CC minted per CC of coupon weight. */
    validatorRewardRate: decimal,
    appRewardRate: decimal,
    featuredAppRewardRate: decimal,
    /**
     * Traffic top-up of the validator (Splice `buy-extra-traffic`): when the unused purchased traffic is below
     * `targetThroughput × minTopupIntervalSeconds` bytes and at least `minTopupIntervalSeconds` passed since the last
     * top-up, buy that many bytes with the operator's amulets. `targetThroughput` is bytes per second; 0 = off.
     */
    trafficTopup: z.object({ targetThroughput: z.number().int().min(0), minTopupIntervalSeconds: z.number().int().min(1) }).strict(),
    /** Sweeps (Splice `wallet-sweep`), by sender party: above `maxBalanceUSD`, send down to `minBalanceUSD` to `receiver`. */
    sweeps: z.record(
      z.string().min(1),
      z
        .object({ receiver: z.string().min(1), maxBalanceUSD: decimal, minBalanceUSD: decimal, useTransferPreapproval: z.boolean() })
        .strict(),
    ),
    /** The provider (validator) renews its users' TransferPreapprovals expiring within this many seconds (0 = never). */
    preapprovalRenewBeforeSeconds: z.number().int().min(0),
    /** Auto-accept (Splice `auto-accept-transfers`), by receiver party: incoming offers from `fromParties` are accepted. */
    autoAcceptTransfers: z.record(z.string().min(1), z.object({ fromParties: z.array(z.string().min(1)) }).strict()),
    /**
     * Background trigger (`background.ts`): seconds of wall time between automation runs (0 = only before wallet
     * requests). With static time a run happens only once the clock moved since the previous one. Optional in a PUT
     * (default 10).
     */
    backgroundIntervalSeconds: z.number().min(0).max(86_400).default(DEFAULT_BACKGROUND_INTERVAL_SECONDS),
  })
  .strict();

export type AutomationConfig = z.infer<typeof AutomationConfigSchema>;

export const defaultAutomationConfig = (): AutomationConfig => ({
  autoExpireOffers: true,
  autoCompleteAcceptedOffers: true,
  mergeThreshold: 0,
  mergeBatchSize: 100,
  expireDustHoldings: true,
  collectRewards: true,
  validatorRewardRate: '0.001',
  appRewardRate: '0.0001',
  featuredAppRewardRate: '0.01',
  trafficTopup: { targetThroughput: 0, minTopupIntervalSeconds: 600 },
  sweeps: {},
  preapprovalRenewBeforeSeconds: 30 * 24 * 3600,
  autoAcceptTransfers: {},
  backgroundIntervalSeconds: DEFAULT_BACKGROUND_INTERVAL_SECONDS,
});

const META_KEY = 'wallet_automation';

/**
 * The effective config: defaults ← `initial` (settings) ← the last stored PUT. Invalid stored data is ignored; a stored
 * config from before a key existed gets that key's default.
 */
export function loadAutomationConfig(meta: MetaStore, initial: Partial<AutomationConfig>): AutomationConfig {
  const base = AutomationConfigSchema.parse({ ...defaultAutomationConfig(), ...initial });
  const stored = meta.get(META_KEY);
  if (!stored) return base;
  try {
    return AutomationConfigSchema.parse(JSON.parse(stored));
  } catch {
    return base;
  }
}

export function saveAutomationConfig(meta: MetaStore, config: AutomationConfig): void {
  meta.set(META_KEY, JSON.stringify(config));
}

/** Semantic checks zod cannot express (the config is rejected as a whole, nothing changes). */
export function automationConfigProblem(c: AutomationConfig, partyExists: (p: string) => boolean): string | undefined {
  for (const [sender, s] of Object.entries(c.sweeps)) {
    if (!partyExists(sender)) return `sweeps: unknown sender party ${sender}`;
    if (!partyExists(s.receiver)) return `sweeps.${sender}: unknown receiver party ${s.receiver}`;
    if (s.receiver === sender) return `sweeps.${sender}: the receiver must differ from the sender`;
    if (Number(s.minBalanceUSD) >= Number(s.maxBalanceUSD)) return `sweeps.${sender}: minBalanceUSD must be below maxBalanceUSD`;
  }
  for (const [receiver, a] of Object.entries(c.autoAcceptTransfers)) {
    if (!partyExists(receiver)) return `autoAcceptTransfers: unknown receiver party ${receiver}`;
    for (const p of a.fromParties) if (!partyExists(p)) return `autoAcceptTransfers.${receiver}: unknown sender party ${p}`;
  }
  return undefined;
}
