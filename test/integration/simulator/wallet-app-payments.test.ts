/**
 * App payments over real HTTP: an app (provider + receivers) creates an AppPaymentRequest through the JSON API; the
 * wallet lists it, accepts it (the total is locked to the provider) or rejects it (wallet-internal endpoints,
 * ajv-validated); the provider collects the accepted payment on the ledger with the DSO contracts disclosed, as apps
 * do, and the receivers get their amounts; a provider's rejection returns the funds; expired requests are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acs, acsCreated, call, exercise, submitTx } from './helpers.js';
import { advance, nowMicros, onboard, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let alice: string;
let shop: string;
let artist: string;
let dso: string;
const REQUEST = '#splice-amulet:Splice.Wallet.Payment:AppPaymentRequest';
const ACCEPTED = '#splice-amulet:Splice.Wallet.Payment:AcceptedAppPayment';

const bal = async (user: string) => {
  const b = await wok(base, user, 'GET', '/v0/wallet/balance');
  return { unlocked: Number(b.effective_unlocked_qty), locked: Number(b.effective_locked_qty) };
};

async function request(description: string, expiresInSec = 3600): Promise<string> {
  const expiresAt = new Date((await nowMicros(base)) / 1000 + expiresInSec * 1000).toISOString();
  const tx = await submitTx(
    base,
    [shop, artist],
    [
      {
        CreateCommand: {
          templateId: REQUEST,
          createArguments: {
            sender: alice,
            receiverAmounts: [
              { receiver: shop, amuletAmount: '10' },
              { receiver: artist, amuletAmount: '5' },
            ],
            receivers: [shop, artist],
            provider: shop,
            dso,
            expiresAt,
            description,
          },
        },
      },
    ],
  );
  return tx.created[0]?.contractId as string;
}

/** The DSO's AmuletRules and open round, as disclosed contracts (what an app gets from Scan). */
async function dsoDisclosures(): Promise<{ disclosed: unknown[]; round: string }> {
  const items = acsCreated(
    await acs(base, {
      filtersByParty: { [dso]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } },
    }),
  );
  const pick = (suffix: string) =>
    items.find((c) => c.templateId.endsWith(suffix)) as unknown as { contractId: string; templateId: string; createdEventBlob: string };
  const rules = pick(':Splice.AmuletRules:AmuletRules');
  const round = pick(':Splice.Round:OpenMiningRound');
  const sync = (
    (await call(base, 'GET', '/v2/state/connected-synchronizers')).json as { connectedSynchronizers: { synchronizerId: string }[] }
  ).connectedSynchronizers[0]?.synchronizerId;
  return {
    disclosed: [rules, round].map((c) => ({
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
  shop = await onboard(base, 'shop');
  artist = await onboard(base, 'artist');
  dso = ((await (await fetch(`${base}/v2/parties`)).json()) as { partyDetails: { party: string }[] }).partyDetails
    .map((p) => p.party)
    .find((p) => p.startsWith('DSO::')) as string;
  await wok(base, 'alice', 'POST', '/v0/wallet/tap', { body: { amount: '100' } });
});
afterAll(async () => {
  await sim.dispose();
});

describe('app payments', () => {
  it('the wallet accepts a request (funds locked); the provider collects; the receivers are paid', async () => {
    const req = await request('order 42');
    const listed = (await wok(base, 'alice', 'GET', '/v0/wallet/app-payment-requests')).payment_requests as {
      contract: { contract_id: string };
    }[];
    expect(listed.map((c) => c.contract.contract_id)).toEqual([req]);
    const one = await wok(base, 'alice', 'GET', '/v0/wallet/app-payment-requests/{contract_id}', {
      path: `/v0/wallet/app-payment-requests/${req}`,
    });
    expect((one.contract as { payload: { description: string } }).payload.description).toBe('order 42');
    expect(
      (
        await wcall(base, 'shop', 'GET', '/v0/wallet/app-payment-requests/{contract_id}', {
          path: `/v0/wallet/app-payment-requests/${req}`,
        })
      ).status,
    ).toBe(404);

    const acc = await wok(base, 'alice', 'POST', '/v0/wallet/app-payment-requests/{contract_id}/accept', {
      path: `/v0/wallet/app-payment-requests/${req}/accept`,
    });
    const accepted = acc.accepted_payment_contract_id as string;
    expect(await bal('alice')).toEqual({ unlocked: 85, locked: 15 });
    expect((await wok(base, 'alice', 'GET', '/v0/wallet/app-payment-requests')).payment_requests).toEqual([]);
    const acceptedList = (await wok(base, 'alice', 'GET', '/v0/wallet/accepted-app-payments')).accepted_app_payments as {
      contract: { contract_id: string };
    }[];
    expect(acceptedList.map((c) => c.contract.contract_id)).toEqual([accepted]);

    const { disclosed, round } = await dsoDisclosures();
    await submitTx(base, [shop], [exercise(ACCEPTED, accepted, 'AcceptedAppPayment_Collect', { openRound: round })], {
      disclosedContracts: disclosed,
    });
    expect(await bal('shop')).toEqual({ unlocked: 10, locked: 0 });
    expect(await bal('artist')).toEqual({ unlocked: 5, locked: 0 });
    expect(await bal('alice')).toEqual({ unlocked: 85, locked: 0 });
    expect((await wok(base, 'alice', 'GET', '/v0/wallet/accepted-app-payments')).accepted_app_payments).toEqual([]);
  });

  it('the sender rejects a request; the provider rejects an accepted payment and the funds return', async () => {
    const r1 = await request('rejected by alice');
    await wok(base, 'alice', 'POST', '/v0/wallet/app-payment-requests/{contract_id}/reject', {
      path: `/v0/wallet/app-payment-requests/${r1}/reject`,
    });
    expect((await wok(base, 'alice', 'GET', '/v0/wallet/app-payment-requests')).payment_requests).toEqual([]);

    const r2 = await request('rejected by the shop');
    const acc = await wok(base, 'alice', 'POST', '/v0/wallet/app-payment-requests/{contract_id}/accept', {
      path: `/v0/wallet/app-payment-requests/${r2}/accept`,
    });
    expect(await bal('alice')).toEqual({ unlocked: 70, locked: 15 });
    const { disclosed, round } = await dsoDisclosures();
    await submitTx(
      base,
      [shop],
      [exercise(ACCEPTED, acc.accepted_payment_contract_id as string, 'AcceptedAppPayment_Reject', { openRound: round })],
      { disclosedContracts: disclosed },
    );
    expect(await bal('alice')).toEqual({ unlocked: 85, locked: 0 });
  });

  it('an expired request cannot be accepted and nothing changes', async () => {
    const r = await request('late', 60);
    await advance(base, 120);
    const end = async () => ((await (await fetch(`${base}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
    await wok(base, 'alice', 'GET', '/v0/wallet/balance'); // let the round advance first
    const before = await end();
    const late = await wcall(base, 'alice', 'POST', '/v0/wallet/app-payment-requests/{contract_id}/accept', {
      path: `/v0/wallet/app-payment-requests/${r}/accept`,
    });
    expect(late.status).toBe(400);
    expect(await end()).toBe(before);
  });
});
