/**
 * The validator's scan proxy (`scan-proxy.yaml`) for what wallets read from the DSO: the open and issuing mining
 * rounds (amulet price), the AmuletRules (traffic price, minimum top-up) and a party's transfer pre-approval.
 * Contracts are `ContractWithState`; their payloads are shaped like Splice's (`round: { number }`, the fee schedule
 * under `configSchedule.initialValue.decentralizedSynchronizer.fees`), built from the simulator's simplified
 * contracts and its wallet configuration.
 */
import type { WalletApp } from './app.js';
import { WalletError } from './app.js';
import type { AddRoute } from './http.js';
import { ok } from './http.js';
import { args, T } from './names.js';

/** Splice's default base-rate traffic limits and top-up minimum (bytes). */
const BURST_AMOUNT = '400000';
const BURST_WINDOW_MICROS = '1200000000';
const MIN_TOPUP_BYTES = '200000';

export function registerScanProxyRoutes(add: AddRoute, app: WalletApp): void {
  const tick = () => ({ microseconds: String(BigInt(app.config.roundDurationSeconds) * 1_000_000n) });

  add('GET', '/v0/scan-proxy/dso-party-id', () => {
    app.init();
    return ok({ dso_party_id: app.dso });
  });

  add('GET', '/v0/scan-proxy/open-and-issuing-mining-rounds', () => {
    app.init();
    app.openRound();
    const rounds = app.contracts(app.dso, T.round).map((c) => {
      const a = args(c);
      const json = app.contractJson(c);
      return {
        contract: {
          ...json,
          payload: {
            dso: a.dso,
            round: { number: String(a.round) },
            amuletPrice: a.amuletPrice,
            opensAt: a.opensAt,
            targetClosesAt: a.targetClosesAt,
            issuingFor: { microseconds: String(BigInt(String(a.round)) * BigInt(tick().microseconds)) },
            tickDuration: tick(),
          },
        },
        domain_id: c.synchronizerId,
      };
    });
    return ok({ open_mining_rounds: rounds, issuing_mining_rounds: [] });
  });

  add('GET', '/v0/scan-proxy/amulet-rules', () => {
    app.init();
    const c = app.contracts(app.dso, T.rules)[0];
    if (!c) throw new WalletError(404, 'No AmuletRules on this ledger');
    const a = args(c);
    return ok({
      amulet_rules: {
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
      },
    });
  });

  add('GET', '/v0/scan-proxy/transfer-preapprovals/by-party/{party}', (ctx) => {
    app.runAutomation();
    const party = ctx.params['party'] ?? '';
    const c = app.contracts(app.dso, T.preapproval).find((x) => args(x).receiver === party);
    if (!c) throw new WalletError(404, `No TransferPreapproval for ${party}`);
    return ok({ transfer_preapproval: { contract: app.contractJson(c), domain_id: c.synchronizerId } });
  });
}
