/**
 * Token-standard view of the simulator's coin over real HTTP: the ACS read with an InterfaceFilter on the library's
 * Holding interface id returns the party's amulets (unlocked and locked) with Splice's HoldingView; the DSO's
 * ExternalPartyAmuletRules is a TransferFactory; the served archives declare the cross-package `implements`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLDING_INTERFACE_ID, TRANSFER_FACTORY_INTERFACE_ID } from '@canton-network/core-token-standard';
import { readDalf } from '../../../src/daml-lf/index.js';
import { acs, acsCreated, call } from './helpers.js';
import { nowMicros, onboard, startTestSim, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let alice: string;
let bob: string;

const holdingFilter = (party: string) => ({
  filtersByParty: {
    [party]: {
      cumulative: [
        {
          identifierFilter: {
            InterfaceFilter: { value: { interfaceId: HOLDING_INTERFACE_ID, includeInterfaceView: true, includeCreatedEventBlob: false } },
          },
        },
      ],
    },
  },
});

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true });
  alice = await onboard(sim.url, 'alice');
  bob = await onboard(sim.url, 'bob');
  await wok(sim.url, 'alice', 'POST', '/v0/wallet/tap', { body: { amount: '100' } });
  await wok(sim.url, 'alice', 'POST', '/v0/wallet/tap', { body: { amount: '50' } });
  await wok(sim.url, 'alice', 'POST', '/v0/wallet/transfer-offers', {
    body: {
      receiver_party_id: bob,
      amount: '30',
      description: 'locked',
      expires_at: (await nowMicros(sim.url)) + 3_600_000_000,
      tracking_id: 'ts-1',
    },
  });
});
afterAll(async () => {
  await sim.dispose();
});

describe('token-standard interfaces', () => {
  it('an InterfaceFilter on the Holding interface id returns the amulets with the HoldingView', async () => {
    const amulets = (await wok(sim.url, 'alice', 'GET', '/v0/wallet/amulets')).amulets as {
      contract: { contract: { payload: { dso: string } } };
    }[];
    const dsoParty = amulets[0]?.contract.contract.payload.dso as string;
    const events = acsCreated(await acs(sim.url, holdingFilter(alice)));
    // tap 100 + tap 50 → the offer consumed the 100 (largest first): change 70 + the untouched 50, and the locked 30
    expect(events.map((e) => e.templateId.split(':').slice(1).join(':')).sort()).toEqual([
      'Splice.Amulet:Amulet',
      'Splice.Amulet:Amulet',
      'Splice.Amulet:LockedAmulet',
    ]);
    const views = events.map(
      (e) => e.interfaceViews?.[0] as { interfaceId: string; viewValue: Record<string, unknown>; viewStatus: { code: number } },
    );
    for (const v of views) {
      expect(v.viewStatus.code).toBe(0);
      expect(v.interfaceId).toMatch(/^[0-9a-f]{64}:Splice\.Api\.Token\.HoldingV1:Holding$/);
    }
    const byAmount = new Map(views.map((v) => [v.viewValue.amount as string, v.viewValue]));
    expect([...byAmount.keys()].sort()).toEqual(['30.0000000000', '50.0000000000', '70.0000000000']);
    expect(byAmount.get('50.0000000000')).toEqual({
      owner: alice,
      instrumentId: { admin: dsoParty, id: 'Amulet' },
      amount: '50.0000000000',
      lock: null,
      meta: {
        values: {
          'amulet.splice.lfdecentralizedtrust.org/created-in-round': '0',
          'amulet.splice.lfdecentralizedtrust.org/rate-per-round': '0.00380518',
        },
      },
    });
    const locked = byAmount.get('30.0000000000') as { lock: { holders: string[]; expiresAt: string | null } };
    expect(locked.lock.holders).toEqual([bob]);
    expect(typeof locked.lock.expiresAt).toBe('string');
    // bob only sees the locked amulet as a lock holder (observer), not alice's free holdings
    const bobSees = acsCreated(await acs(sim.url, holdingFilter(bob))).map((e) => e.contractId);
    expect(bobSees).toHaveLength(1);
  });

  it('the DSO rules contract is a TransferFactory with admin = DSO', async () => {
    const parties = (await call(sim.url, 'GET', '/v2/parties')).json as { partyDetails: { party: string }[] };
    const dso = parties.partyDetails.map((p) => p.party).find((p) => p.startsWith('DSO::')) as string;
    const events = acsCreated(
      await acs(sim.url, {
        filtersByParty: {
          [dso]: {
            cumulative: [
              {
                identifierFilter: {
                  InterfaceFilter: { value: { interfaceId: TRANSFER_FACTORY_INTERFACE_ID, includeInterfaceView: true } },
                },
              },
            ],
          },
        },
      }),
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.templateId).toMatch(/:Splice\.ExternalPartyAmuletRules:ExternalPartyAmuletRules$/);
    expect((events[0]?.interfaceViews?.[0] as { viewValue: unknown }).viewValue).toEqual({ admin: dso, meta: { values: {} } });
  });

  it(
    'the served archives: the token-standard package names carry the interfaces; ' + 'splice-amulet implements them across packages',
    async () => {
      const ids = ((await call(sim.url, 'GET', '/v2/packages')).json as { packageIds: string[] }).packageIds;
      const summaries = await Promise.all(
        ids.map(async (id) => readDalf(new Uint8Array(await (await fetch(`${sim.url}/v2/packages/${id}`)).arrayBuffer()))),
      );
      const holdingPkg = summaries.find((s) => s.name === 'splice-api-token-holding-v1');
      expect(holdingPkg?.modules.flatMap((m) => m.interfaces.map((i) => i.qualifiedName))).toContain('Splice.Api.Token.HoldingV1:Holding');
      const amulet = summaries.find((s) => s.name === 'splice-amulet');
      const amuletTpl = amulet?.modules.flatMap((m) => m.templates).find((t) => t.qualifiedName === 'Splice.Amulet:Amulet');
      expect(amuletTpl?.implements).toEqual([`${holdingPkg?.packageId}:Splice.Api.Token.HoldingV1:Holding`]);
    },
  );
});
