/**
 * Subscriptions over real HTTP (wallet-internal subscription endpoints, ajv-validated): an app creates a
 * SubscriptionRequest through the JSON API; the wallet accepts it (first period locked), the provider collects it on
 * the ledger (receiver paid, subscription idle), the sender's automation pays the next period when due (static time),
 * the provider collects again, the sender cancels; a rejected request goes away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acs, acsCreated, call, exercise, submitTx } from './helpers.js';
import { advance, nowMicros, onboard, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let alice: string;
let app: string;
let artist: string;
let dso: string;
const DAY_MICROS = 24 * 3600 * 1_000_000;
const T = (e: string) => `#splice-amulet:Splice.Wallet.Subscriptions:${e}`;

const bal = async (user: string) => {
  const b = await wok(base, user, 'GET', '/v0/wallet/balance');
  return { unlocked: Number(b.effective_unlocked_qty), locked: Number(b.effective_locked_qty) };
};

async function request(description: string): Promise<string> {
  const tx = await submitTx(
    base,
    [app, artist],
    [
      {
        CreateCommand: {
          templateId: T('SubscriptionRequest'),
          createArguments: {
            sender: alice,
            receiver: artist,
            provider: app,
            dso,
            description,
            paymentAmount: '4',
            paymentIntervalMicros: String(DAY_MICROS),
          },
        },
      },
    ],
  );
  return tx.created[0]?.contractId as string;
}

async function disclosures(): Promise<{ disclosed: unknown[]; round: string }> {
  const items = acsCreated(
    await acs(base, {
      filtersByParty: { [dso]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } },
    }),
  );
  const pick = (suffix: string) =>
    items.find((c) => c.templateId.endsWith(suffix)) as unknown as { contractId: string; templateId: string; createdEventBlob: string };
  const sync = (
    (await call(base, 'GET', '/v2/state/connected-synchronizers')).json as { connectedSynchronizers: { synchronizerId: string }[] }
  ).connectedSynchronizers[0]?.synchronizerId;
  const round = pick(':Splice.Round:OpenMiningRound');
  return {
    disclosed: [pick(':Splice.AmuletRules:AmuletRules'), round].map((c) => ({
      templateId: c.templateId,
      contractId: c.contractId,
      createdEventBlob: c.createdEventBlob,
      synchronizerId: sync,
    })),
    round: round.contractId,
  };
}

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true });
  base = sim.url;
  alice = await onboard(base, 'alice');
  app = await onboard(base, 'music-app');
  artist = await onboard(base, 'artist');
  dso = ((await (await fetch(`${base}/v2/parties`)).json()) as { partyDetails: { party: string }[] }).partyDetails
    .map((p) => p.party)
    .find((p) => p.startsWith('DSO::')) as string;
  await wok(base, 'alice', 'POST', '/v0/wallet/tap', { body: { amount: '100' } });
});
afterAll(async () => {
  await sim.dispose();
});

describe('subscriptions', () => {
  it('request → accept (first period locked) → provider collects → due period paid by automation → collected → cancelled', async () => {
    const req = await request('daily songs');
    const listed = (await wok(base, 'alice', 'GET', '/v0/wallet/subscription-requests')).subscription_requests as { contract_id: string }[];
    expect(listed.map((c) => c.contract_id)).toEqual([req]);
    expect(
      (
        await wok(base, 'alice', 'GET', '/v0/wallet/subscription-requests/{contract_id}', {
          path: `/v0/wallet/subscription-requests/${req}`,
        })
      ).contract_id,
    ).toBe(req);

    const acc = await wok(base, 'alice', 'POST', '/v0/wallet/subscription-requests/{contract_id}/accept', {
      path: `/v0/wallet/subscription-requests/${req}/accept`,
    });
    const initial = acc.initial_payment_contract_id as string;
    expect(await bal('alice')).toEqual({ unlocked: 96, locked: 4 });
    expect(
      ((await wok(base, 'alice', 'GET', '/v0/wallet/subscription-initial-payments')).initial_payments as { contract_id: string }[]).map(
        (c) => c.contract_id,
      ),
    ).toEqual([initial]);

    const due = new Date((await nowMicros(base)) / 1000 + DAY_MICROS / 1000).toISOString();
    let d = await disclosures();
    await submitTx(
      base,
      [app],
      [
        exercise(T('SubscriptionInitialPayment'), initial, 'SubscriptionInitialPayment_Collect', {
          openRound: d.round,
          nextPaymentDueAt: due,
        }),
      ],
      { disclosedContracts: d.disclosed },
    );
    expect(await bal('artist')).toEqual({ unlocked: 4, locked: 0 });
    let subs = (await wok(base, 'alice', 'GET', '/v0/wallet/subscriptions')).subscriptions as {
      subscription: { contract_id: string };
      state: { idle?: { contract_id: string }; payment?: { contract_id: string } };
    }[];
    expect(subs).toHaveLength(1);
    expect(subs[0]?.state.idle).toBeDefined();

    // a day later the sender's automation pays the next period
    await advance(base, 24 * 3600);
    subs = (await wok(base, 'alice', 'GET', '/v0/wallet/subscriptions')).subscriptions as typeof subs;
    const payment = subs[0]?.state.payment?.contract_id as string;
    expect(payment).toBeDefined();
    expect((await bal('alice')).locked).toBe(4);
    d = await disclosures();
    const artist0 = (await bal('artist')).unlocked; // the first 4 CC paid a day of holding fees meanwhile
    const next = new Date((await nowMicros(base)) / 1000 + DAY_MICROS / 1000).toISOString();
    await submitTx(
      base,
      [app],
      [exercise(T('SubscriptionPayment'), payment, 'SubscriptionPayment_Collect', { openRound: d.round, nextPaymentDueAt: next })],
      { disclosedContracts: d.disclosed },
    );
    expect((await bal('artist')).unlocked).toBeCloseTo(artist0 + 4, 6);
    subs = (await wok(base, 'alice', 'GET', '/v0/wallet/subscriptions')).subscriptions as typeof subs;
    const idle = subs[0]?.state.idle?.contract_id as string;
    expect(idle).toBeDefined();

    await wok(base, 'alice', 'DELETE', '/v0/wallet/subscription-requests/{contract_id}', {
      path: `/v0/wallet/subscription-requests/${idle}`,
    });
    expect((await wok(base, 'alice', 'GET', '/v0/wallet/subscriptions')).subscriptions).toEqual([]);
    expect(
      (
        await wcall(base, 'alice', 'DELETE', '/v0/wallet/subscription-requests/{contract_id}', {
          path: `/v0/wallet/subscription-requests/${idle}`,
        })
      ).status,
    ).toBe(404);
  });

  it('a rejected request goes away; unknown ids are 404', async () => {
    const req = await request('rejected');
    await wok(base, 'alice', 'POST', '/v0/wallet/subscription-requests/{contract_id}/reject', {
      path: `/v0/wallet/subscription-requests/${req}/reject`,
    });
    expect((await wok(base, 'alice', 'GET', '/v0/wallet/subscription-requests')).subscription_requests).toEqual([]);
    expect(
      (
        await wcall(base, 'alice', 'POST', '/v0/wallet/subscription-requests/{contract_id}/accept', {
          path: `/v0/wallet/subscription-requests/${req}/accept`,
        })
      ).status,
    ).toBe(404);
  });
});
