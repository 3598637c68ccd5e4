/**
 * The validator's scan proxy (`../shared/reference/splice/scan-proxy.yaml`, all 15 operations) under
 * `/api/validator/v0/scan-proxy` (and `/v1/scan-proxy/holdings/summary`): the simulator is its own Scan, so the answers
 * come from its ledger (`scan-proxy-state.ts`). Shapes as in the spec (contracts as `{ contract, domain_id }`), errors
 * `{ "error" }`; a bearer token is required, as by the validator. The payloads of the mining rounds and the AmuletRules
 * are shaped like Splice's (`round: { number }`, `tickDuration`, the fee schedule under
 * `configSchedule.initialValue.decentralizedSynchronizer.fees`, `isDevNet`), built from the simulator's simplified
 * contracts and its wallet configuration, since wallets read them (amulet price, traffic price, minimum top-up; the
 * official SDK's DevNet check and active-round choice). Simulator specifics: there is one synchronizer
 * migration (id 0) and holdings summaries are computed at the current state (any `record_time` up to now is
 * accepted with `record_time_match: at_or_before`; `exact` requires the record time of the latest update).
 */
import { z } from 'zod';
import type { SimContext } from '../context.js';
import type { ContractRow } from '../model.js';
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import { WalletError } from './app.js';
import { fmt } from './coin.js';
import type { AddRoute } from './http.js';
import { ok, parsedBody } from './http.js';
import { args, T } from './names.js';
import { DEV_FUND_QN } from './templates-development-fund.js';
import { ScanProxyState, SV_NAME } from './scan-proxy-state.js';
import { asText } from '../lf-text.js';

const MIGRATION_ID = 0;

const HoldingsRequest = z.object({
  migration_id: z.number().int(),
  record_time: z.string().min(1),
  record_time_match: z.enum(['exact', 'at_or_before']).optional(),
  owner_party_ids: z.array(z.string().min(1)).min(1),
  as_of_round: z.number().int().optional(),
});
const AnsRulesRequest = z.object({
  cached_ans_rules_contract_id: z.string().optional(),
  cached_ans_rules_domain_id: z.string().optional(),
});

/** Splice's default base-rate traffic limits and top-up minimum (bytes). */
const BURST_AMOUNT = '400000';
const BURST_WINDOW_MICROS = '1200000000';
const MIN_TOPUP_BYTES = '200000';

export function registerScanProxyRoutes(add: AddRoute, user: (ctx: RequestCtx) => string, app: WalletApp, sim: SimContext): void {
  const state = new ScanProxyState(sim, app);
  const withState = (c: ContractRow) => ({ contract: app.contractJson(c), domain_id: c.synchronizerId });
  const tick = () => ({ microseconds: String(BigInt(app.config.roundDurationSeconds) * 1_000_000n) });
  /** An OpenMiningRound with Splice's payload shape. */
  const roundWithState = (c: ContractRow) => {
    const a = args(c);
    return {
      contract: {
        ...app.contractJson(c),
        payload: {
          dso: a.dso,
          round: { number: asText(a.round) },
          amuletPrice: a.amuletPrice,
          opensAt: a.opensAt,
          targetClosesAt: a.targetClosesAt,
          issuingFor: { microseconds: String(BigInt(asText(a.round)) * BigInt(tick().microseconds)) },
          tickDuration: tick(),
        },
      },
      domain_id: c.synchronizerId,
    };
  };
  /** The AmuletRules with Splice's payload shape (the traffic fees of the wallet configuration). */
  const rulesWithState = (c: ContractRow) => {
    const a = args(c);
    return {
      contract: {
        ...app.contractJson(c),
        payload: {
          dso: a.dso,
          configSchedule: {
            initialValue: {
              decentralizedSynchronizer: {
                requiredSynchronizers: { map: [[c.synchronizerId, {}]] },
                activeSynchronizer: c.synchronizerId,
                fees: {
                  baseRateTrafficLimits: { burstAmount: BURST_AMOUNT, burstWindow: { microseconds: BURST_WINDOW_MICROS } },
                  extraTrafficPrice: app.config.trafficPriceUsdPerMb,
                  readVsWriteScalingFactor: '4',
                  minTopupAmount: MIN_TOPUP_BYTES,
                },
              },
              tickDuration: tick(),
            },
            futureValues: [],
          },
          isDevNet: a.isDevNet,
        },
      },
      domain_id: c.synchronizerId,
    };
  };
  const get = (path: string, h: (ctx: RequestCtx) => unknown): void =>
    add('GET', path, (ctx) => {
      user(ctx);
      app.runAutomation();
      return ok(h(ctx));
    });
  const P = '/v0/scan-proxy';

  get(`${P}/dso-party-id`, () => ({ dso_party_id: app.dso }));

  get(`${P}/dso`, () => {
    const { rules, svNodeStates } = state.governance();
    return {
      sv_user: SV_NAME,
      sv_party_id: app.dso,
      dso_party_id: app.dso,
      voting_threshold: 1,
      latest_mining_round: roundWithState(app.openRoundContract()),
      amulet_rules: rulesWithState(app.rulesContract()),
      dso_rules: withState(rules),
      sv_node_states: svNodeStates.map(withState),
      initial_round: '0',
    };
  });

  get(`${P}/featured-apps/{provider_party_id}`, (ctx) => {
    const c = app.featuredAppRightOf(ctx.params.provider_party_id ?? '');
    return c ? { featured_app_right: app.contractJson(c) } : {};
  });

  get(`${P}/open-and-issuing-mining-rounds`, () => ({
    open_mining_rounds: [roundWithState(app.openRoundContract())],
    issuing_mining_rounds: [],
  }));

  get(`${P}/amulet-rules`, () => ({ amulet_rules: rulesWithState(app.rulesContract()) }));

  const ansEntry = (c: ContractRow) => {
    const a = args(c);
    return {
      contract_id: c.contractId,
      user: asText(a.user),
      name: asText(a.name),
      url: asText(a.url),
      description: asText(a.description),
      expires_at: asText(a.expiresAt),
    };
  };
  get(`${P}/ans-entries/by-party/{party}`, (ctx) => {
    const c = state.ansEntries().find((e) => args(e).user === ctx.params.party);
    if (!c) throw new WalletError(404, `No ANS entry found for party: ${ctx.params.party ?? ''}`);
    return { entry: ansEntry(c) };
  });
  get(`${P}/ans-entries`, (ctx) => {
    const size = ctx.query.get('page_size');
    if (size === null || !/^\d{1,9}$/.test(size)) throw new WalletError(400, "Missing or invalid required query parameter 'page_size'");
    const prefix = ctx.query.get('name_prefix') ?? '';
    return {
      entries: state
        .ansEntries()
        .filter((e) => asText(args(e).name).startsWith(prefix))
        .slice(0, Number(size))
        .map(ansEntry),
    };
  });
  get(`${P}/ans-entries/by-name/{name}`, (ctx) => {
    const c = state.ansEntries().find((e) => args(e).name === ctx.params.name);
    if (!c) throw new WalletError(404, `No ANS entry found for name: ${ctx.params.name ?? ''}`);
    return { entry: ansEntry(c) };
  });
  add('POST', `${P}/ans-rules`, async (ctx) => {
    user(ctx);
    const req = await parsedBody(ctx, AnsRulesRequest);
    app.runAutomation();
    const rules = state.ansRules();
    // the caller's cached copy is still current: no contract, only its synchronizer
    if (req.cached_ans_rules_contract_id === rules.contractId) return ok({ ans_rules_update: { domain_id: rules.synchronizerId } });
    return ok({ ans_rules_update: withState(rules) });
  });

  get(`${P}/transfer-preapprovals/by-party/{party}`, (ctx) => {
    const c = app.preapprovalOf(ctx.params.party ?? '');
    if (!c) throw new WalletError(404, `No TransferPreapproval found for party: ${ctx.params.party ?? ''}`);
    return { transfer_preapproval: withState(c) };
  });

  get(`${P}/transfer-command-counter/{party}`, (ctx) => {
    const party = ctx.params.party ?? '';
    const c = app.contracts(app.dso, T.counter).find((x) => args(x).sender === party);
    if (!c) throw new WalletError(404, `No TransferCommandCounter found for party: ${party}`);
    return { transfer_command_counter: withState(c) };
  });

  get(`${P}/transfer-command/status`, (ctx) => {
    const sender = ctx.query.get('sender');
    const nonce = ctx.query.get('nonce');
    if (!sender) throw new WalletError(400, "Missing required query parameter 'sender'");
    if (nonce === null || !/^\d{1,18}$/.test(nonce)) throw new WalletError(400, "Missing or invalid required query parameter 'nonce'");
    const found = state.transferCommands(sender, BigInt(nonce));
    if (found.length === 0) throw new WalletError(404, `No TransferCommand found for sender ${sender} and nonce ${nonce}`);
    return {
      transfer_commands_by_contract_id: Object.fromEntries(
        found.map((f) => [f.contract.contractId, { contract: app.contractJson(f.contract), status: f.status }]),
      ),
    };
  });

  /** The request's record time, checked against the ledger (the summary is the state now). */
  const checkRecordTime = (req: z.infer<typeof HoldingsRequest>): void => {
    if (req.migration_id !== MIGRATION_ID)
      throw new WalletError(404, `No data for migration id ${req.migration_id} (the simulator has ${MIGRATION_ID})`);
    const t = Date.parse(req.record_time);
    if (Number.isNaN(t)) throw new WalletError(400, `Invalid record_time '${req.record_time}'`);
    const latest = Date.parse(sim.lastRecordTime());
    if ((req.record_time_match ?? 'exact') === 'exact' ? t !== latest : t < latest)
      throw new WalletError(404, `No ACS snapshot for record time ${req.record_time}; the latest is ${sim.lastRecordTime()}`);
  };
  const summaries = (req: z.infer<typeof HoldingsRequest>, round: bigint) => state.holdingsSummary(req.owner_party_ids, round);

  add('POST', `${P}/holdings/summary`, async (ctx) => {
    user(ctx);
    const req = await parsedBody(ctx, HoldingsRequest);
    app.runAutomation();
    checkRecordTime(req);
    const round = req.as_of_round !== undefined ? BigInt(req.as_of_round) : app.openRound().round;
    return ok({
      record_time: req.record_time,
      migration_id: req.migration_id,
      computed_as_of_round: Number(round),
      summaries: summaries(req, round).map((s) => ({
        party_id: s.party_id,
        total_unlocked_coin: fmt(s.unlocked),
        total_locked_coin: fmt(s.locked),
        total_coin_holdings: fmt(s.unlocked + s.locked),
        accumulated_holding_fees_unlocked: fmt(s.feesUnlocked),
        accumulated_holding_fees_locked: fmt(s.feesLocked),
        accumulated_holding_fees_total: fmt(s.feesUnlocked + s.feesLocked),
        total_available_coin: fmt(s.unlocked - s.feesUnlocked),
      })),
    });
  });
  add('POST', '/v1/scan-proxy/holdings/summary', async (ctx) => {
    user(ctx);
    const req = await parsedBody(ctx, HoldingsRequest.omit({ as_of_round: true }));
    app.runAutomation();
    checkRecordTime(req);
    return ok({
      record_time: req.record_time,
      migration_id: req.migration_id,
      summaries: summaries(req, app.openRound().round).map((s) => ({
        party_id: s.party_id,
        total_unlocked_coin: fmt(s.unlocked),
        total_locked_coin: fmt(s.locked),
        total_coin_holdings: fmt(s.unlocked + s.locked),
      })),
    });
  });

  get(`${P}/unclaimed-development-fund-coupons`, () => ({
    'unclaimed-development-fund-coupons': app.contracts(app.dso, DEV_FUND_QN.unclaimed).map(withState),
  }));
}
