/**
 * The token-standard registry API and the validator's scan proxy over real HTTP, every answer validated with ajv
 * against the reference YAMLs (../shared/reference/splice/token-standard/*.yaml, scan-proxy.yaml + scan.yaml):
 * every operation is called, and the choice contexts and disclosed contracts the registry hands out are used, exactly
 * as a client does, to exercise the token-standard choices through the Ledger API — a two-step transfer (factory,
 * accept), a direct transfer through a preapproval, an allocation (factory, execute-transfer) and withdraw contexts.
 * The last test checks that every operation of those five files was answered successfully (and ajv-valid) above.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALLOCATION_FACTORY_INTERFACE_ID,
  ALLOCATION_INTERFACE_ID,
  TRANSFER_FACTORY_INTERFACE_ID,
  TRANSFER_INSTRUCTION_INTERFACE_ID,
} from '@canton-network/core-token-standard';
import { submitTx } from './helpers.js';
import { tokenClient, type ChoiceContext } from './token-client.js';
import { onboard, spliceSpecs, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let alice: string;
let bob: string;
let carol: string;
let venue: string;
let dso: string;

const R = '/v0/scan-proxy/registry';
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
let unlocked: ReturnType<typeof tokenClient>['unlocked'];
let exerciseWith: ReturnType<typeof tokenClient>['exerciseWith'];
const { extraArgs } = tokenClient('');

beforeAll(async () => {
  sim = await startTestSim();
  base = sim.url;
  ({ unlocked, exerciseWith } = tokenClient(base));
  alice = await onboard(base, 'alice');
  bob = await onboard(base, 'bob');
  carol = await onboard(base, 'carol');
  venue = await onboard(base, 'venue');
  await wok(base, 'alice', 'POST', '/v0/wallet/tap', { body: { amount: '500' } });
  await wok(base, 'carol', 'POST', '/v0/wallet/transfer-preapproval', {});
  dso = (await wok(base, 'alice', 'GET', '/v0/scan-proxy/dso-party-id')).dso_party_id as string;
});
afterAll(async () => {
  await sim.dispose();
});

describe('token-standard registry (metadata)', () => {
  it('info, instruments and the Amulet instrument; unknown instrument 404; a token is required', async () => {
    const info = await wok(base, 'alice', 'GET', `${R}/metadata/v1/info`);
    expect(info.adminId).toBe(dso);
    expect(info.supportedApis).toMatchObject({ 'splice-api-token-transfer-instruction-v1': 1 });
    const list = (await wok(base, 'alice', 'GET', `${R}/metadata/v1/instruments`)).instruments as { id: string; totalSupply: string }[];
    expect(list.map((i) => i.id)).toEqual(['Amulet']);
    expect(Number(list[0]?.totalSupply)).toBeGreaterThanOrEqual(500);
    const one = await wok(base, 'alice', 'GET', `${R}/metadata/v1/instruments/{instrumentId}`, {
      path: `${R}/metadata/v1/instruments/Amulet`,
    });
    expect(one.id).toBe('Amulet');
    const nope = await wcall(base, 'alice', 'GET', `${R}/metadata/v1/instruments/{instrumentId}`, {
      path: `${R}/metadata/v1/instruments/Gold`,
    });
    expect(nope.status).toBe(404);
    expect((await wcall(base, undefined, 'GET', `${R}/metadata/v1/info`)).status).toBe(401);
  });
});

describe('token-standard registry (transfers and allocations)', () => {
  it('two-step transfer: factory context → TransferFactory_Transfer → accept context → TransferInstruction_Accept', async () => {
    const inputs = (await unlocked(alice)).map((h) => h.cid);
    const choiceArguments = {
      expectedAdmin: dso,
      transfer: {
        sender: alice,
        receiver: bob,
        amount: '40',
        instrumentId: { admin: dso, id: 'Amulet' },
        requestedAt: iso(-60_000),
        executeBefore: iso(3_600_000),
        inputHoldingCids: inputs,
        meta: { values: { 'splice.lfdecentralizedtrust.org/reason': 'registry test' } },
      },
      extraArgs: { context: { values: {} }, meta: { values: {} } },
    };
    const f = await wok(base, 'alice', 'POST', `${R}/transfer-instruction/v1/transfer-factory`, { body: { choiceArguments } });
    expect(f.transferKind).toBe('offer');
    const fctx = f.choiceContext as ChoiceContext;
    expect(Object.keys(fctx.choiceContextData.values).sort()).toEqual(['amulet-rules', 'open-round']);
    expect(fctx.disclosedContracts.map((d) => d.contractId)).toContain(f.factoryId);
    const tx = await exerciseWith(
      [alice],
      TRANSFER_FACTORY_INTERFACE_ID,
      String(f.factoryId),
      'TransferFactory_Transfer',
      { ...choiceArguments, extraArgs: extraArgs(fctx) },
      fctx,
    );
    const instruction = tx.created.find((c) => (c as { templateId: string }).templateId.endsWith(':AmuletTransferInstruction')) as {
      contractId: string;
    };
    expect(instruction).toBeDefined();

    const path = `${R}/transfer-instruction/v1/${encodeURIComponent(instruction.contractId)}/choice-contexts/accept`;
    const spec = `${R}/transfer-instruction/v1/{transferInstructionId}/choice-contexts/accept`;
    const actx = (await wok(base, 'bob', 'POST', spec, { path, body: {} })) as unknown as ChoiceContext;
    expect(actx.choiceContextData.values['expire-lock']).toEqual({ tag: 'AV_Bool', value: true });
    const slim = (await wok(base, 'bob', 'POST', spec, { path, body: { excludeDebugFields: true } })) as unknown as ChoiceContext;
    expect(JSON.stringify(slim)).not.toContain('debugPayload');
    for (const c of ['reject', 'withdraw'])
      await wok(base, 'alice', 'POST', `${R}/transfer-instruction/v1/{transferInstructionId}/choice-contexts/${c}`, {
        path: `${R}/transfer-instruction/v1/${encodeURIComponent(instruction.contractId)}/choice-contexts/${c}`,
        body: {},
      });
    await exerciseWith(
      [bob],
      TRANSFER_INSTRUCTION_INTERFACE_ID,
      instruction.contractId,
      'TransferInstruction_Accept',
      { extraArgs: extraArgs(actx) },
      actx,
    );
    expect((await unlocked(bob)).map((h) => h.view.amount)).toEqual(['40.0000000000']);
    // no longer pending: 404
    expect((await wcall(base, 'bob', 'POST', spec, { path, body: {} })).status).toBe(404);
  });

  it(
    'direct transfer: the receiver pre-approved, the factory context carries its preapproval ' + 'and the transfer completes at once',
    async () => {
      const choiceArguments = {
        expectedAdmin: dso,
        transfer: {
          sender: alice,
          receiver: carol,
          amount: '7',
          instrumentId: { admin: dso, id: 'Amulet' },
          requestedAt: iso(-60_000),
          executeBefore: iso(3_600_000),
          inputHoldingCids: (await unlocked(alice)).map((h) => h.cid),
          meta: { values: {} },
        },
        extraArgs: { context: { values: {} }, meta: { values: {} } },
      };
      const f = await wok(base, 'alice', 'POST', `${R}/transfer-instruction/v1/transfer-factory`, { body: { choiceArguments } });
      expect(f.transferKind).toBe('direct');
      const ctx = f.choiceContext as ChoiceContext;
      expect(ctx.choiceContextData.values['transfer-preapproval']).toMatchObject({ tag: 'AV_ContractId' });
      const tx = await exerciseWith(
        [alice],
        TRANSFER_FACTORY_INTERFACE_ID,
        String(f.factoryId),
        'TransferFactory_Transfer',
        { ...choiceArguments, extraArgs: extraArgs(ctx) },
        ctx,
      );
      const root = tx.events.find((e) => 'ExercisedEvent' in e) as { ExercisedEvent: { exerciseResult: { output: { tag: string } } } };
      expect(root.ExercisedEvent.exerciseResult.output.tag).toBe('TransferInstructionResult_Completed');
      expect((await unlocked(carol)).map((h) => h.view.amount)).toEqual(['7.0000000000']);
    },
  );

  it('allocation: factory context → AllocationFactory_Allocate → execute-transfer context → Allocation_ExecuteTransfer', async () => {
    const allocation = {
      settlement: {
        executor: venue,
        settlementRef: { id: 'trade-1', cid: null },
        requestedAt: iso(-60_000),
        allocateBefore: iso(1_800_000),
        settleBefore: iso(3_600_000),
        meta: { values: {} },
      },
      transferLegId: 'leg-1',
      transferLeg: { sender: alice, receiver: bob, amount: '12', instrumentId: { admin: dso, id: 'Amulet' }, meta: { values: {} } },
    };
    const choiceArguments = {
      expectedAdmin: dso,
      allocation,
      requestedAt: iso(-60_000),
      inputHoldingCids: (await unlocked(alice)).map((h) => h.cid),
      extraArgs: { context: { values: {} }, meta: { values: {} } },
    };
    const f = await wok(base, 'alice', 'POST', `${R}/allocation-instruction/v1/allocation-factory`, { body: { choiceArguments } });
    const fctx = f.choiceContext as ChoiceContext;
    const tx = await exerciseWith(
      [alice],
      ALLOCATION_FACTORY_INTERFACE_ID,
      String(f.factoryId),
      'AllocationFactory_Allocate',
      { ...choiceArguments, extraArgs: extraArgs(fctx) },
      fctx,
    );
    const alloc = tx.created.find((c) => (c as { templateId: string }).templateId.endsWith(':AmuletAllocation')) as {
      contractId: string;
    };
    for (const c of ['withdraw', 'cancel'])
      await wok(base, 'alice', 'POST', `${R}/allocations/v1/{allocationId}/choice-contexts/${c}`, {
        path: `${R}/allocations/v1/${encodeURIComponent(alloc.contractId)}/choice-contexts/${c}`,
        body: {},
      });
    const xctx = (await wok(base, 'venue', 'POST', `${R}/allocations/v1/{allocationId}/choice-contexts/execute-transfer`, {
      path: `${R}/allocations/v1/${encodeURIComponent(alloc.contractId)}/choice-contexts/execute-transfer`,
      body: {},
    })) as unknown as ChoiceContext;
    const bob0 = (await unlocked(bob)).length;
    await exerciseWith(
      [venue, alice, bob],
      ALLOCATION_INTERFACE_ID,
      alloc.contractId,
      'Allocation_ExecuteTransfer',
      { extraArgs: extraArgs(xctx) },
      xctx,
    );
    const after = await unlocked(bob);
    expect(after).toHaveLength(bob0 + 1);
    expect(after.map((h) => h.view.amount)).toContain('12.0000000000');
  });

  it('refuses malformed choice arguments (400), another admin (400) and unknown contracts (404)', async () => {
    const bad = await wcall(base, 'alice', 'POST', `${R}/transfer-instruction/v1/transfer-factory`, {
      body: { choiceArguments: { nope: 1 } },
    });
    expect(bad.status).toBe(400);
    const other = await wcall(base, 'alice', 'POST', `${R}/allocation-instruction/v1/allocation-factory`, {
      body: { choiceArguments: { expectedAdmin: alice, allocation: { transferLeg: { instrumentId: { admin: alice, id: 'X' } } } } },
    });
    expect(other.status).toBe(400);
    const missing = await wcall(base, 'alice', 'POST', `${R}/allocations/v1/{allocationId}/choice-contexts/withdraw`, {
      path: `${R}/allocations/v1/00${'ab'.repeat(32)}/choice-contexts/withdraw`,
      body: {},
    });
    expect(missing.status).toBe(404);
  });
});

describe('scan proxy (all 15 operations)', () => {
  const P = '/v0/scan-proxy';
  it('DSO, rules, rounds, featured apps, preapprovals, development fund', async () => {
    expect((await wok(base, 'bob', 'GET', `${P}/dso-party-id`)).dso_party_id).toBe(dso);
    const info = await wok(base, 'bob', 'GET', `${P}/dso`);
    expect(info.dso_party_id).toBe(dso);
    expect((info.sv_node_states as unknown[]).length).toBe(1);
    const rules = (await wok(base, 'bob', 'GET', `${P}/amulet-rules`)).amulet_rules as {
      contract: { template_id: string; payload: Record<string, unknown> };
    };
    expect(rules.contract.template_id).toMatch(/:Splice\.AmuletRules:AmuletRules$/);
    expect(rules.contract.payload.isDevNet).toBe(true);
    const rounds = await wok(base, 'bob', 'GET', `${P}/open-and-issuing-mining-rounds`);
    const open = (rounds.open_mining_rounds as { contract: { payload: { opensAt: string; targetClosesAt: string } } }[])[0];
    expect(Date.parse(open?.contract.payload.opensAt ?? '')).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(open?.contract.payload.targetClosesAt ?? '')).toBeGreaterThan(Date.now() - 1000);
    const spec = `${P}/featured-apps/{provider_party_id}`;
    expect(await wok(base, 'bob', 'GET', spec, { path: `${P}/featured-apps/${encodeURIComponent(bob)}` })).toEqual({});
    await wok(base, 'bob', 'POST', '/v0/wallet/self-grant-feature-app-right', { body: {} });
    expect(
      (await wok(base, 'bob', 'GET', spec, { path: `${P}/featured-apps/${encodeURIComponent(bob)}` })).featured_app_right,
    ).toBeDefined();
    const pre = `${P}/transfer-preapprovals/by-party/{party}`;
    expect(
      (await wok(base, 'bob', 'GET', pre, { path: `${P}/transfer-preapprovals/by-party/${encodeURIComponent(carol)}` }))
        .transfer_preapproval,
    ).toBeDefined();
    expect((await wcall(base, 'bob', 'GET', pre, { path: `${P}/transfer-preapprovals/by-party/${encodeURIComponent(bob)}` })).status).toBe(
      404,
    );
    const coupons = await wok(base, 'bob', 'GET', `${P}/unclaimed-development-fund-coupons`);
    expect(Array.isArray(coupons['unclaimed-development-fund-coupons'])).toBe(true);
  });

  it('ANS: rules (with a cached copy: no contract), entries by party, by name and listed', async () => {
    const r1 = (await wok(base, 'bob', 'POST', `${P}/ans-rules`, { body: {} })).ans_rules_update as { contract: { contract_id: string } };
    const r2 = (await wok(base, 'bob', 'POST', `${P}/ans-rules`, { body: { cached_ans_rules_contract_id: r1.contract.contract_id } }))
      .ans_rules_update as Record<string, unknown>;
    expect(r2.contract).toBeUndefined();
    expect(
      (
        await wcall(base, 'bob', 'GET', `${P}/ans-entries/by-party/{party}`, {
          path: `${P}/ans-entries/by-party/${encodeURIComponent(bob)}`,
        })
      ).status,
    ).toBe(404);
    // an entry, created by its user and the DSO through the Ledger API
    await submitTx(
      base,
      [bob, dso],
      [
        {
          CreateCommand: {
            templateId: '#splice-amulet-name-service:Splice.Ans:AnsEntry',
            createArguments: {
              user: bob,
              dso,
              name: 'bob.unverified.ans',
              url: 'https://bob.example.com',
              description: 'Bob',
              expiresAt: iso(86_400_000),
            },
          },
        },
      ],
    );
    const byParty = await wok(base, 'bob', 'GET', `${P}/ans-entries/by-party/{party}`, {
      path: `${P}/ans-entries/by-party/${encodeURIComponent(bob)}`,
    });
    expect((byParty.entry as { name: string }).name).toBe('bob.unverified.ans');
    const byName = await wok(base, 'bob', 'GET', `${P}/ans-entries/by-name/{name}`, {
      path: `${P}/ans-entries/by-name/bob.unverified.ans`,
    });
    expect((byName.entry as { user: string }).user).toBe(bob);
    expect(
      (await wok(base, 'bob', 'GET', `${P}/ans-entries`, { path: `${P}/ans-entries?page_size=10&name_prefix=bob` })).entries,
    ).toHaveLength(1);
    expect((await wcall(base, 'bob', 'GET', `${P}/ans-entries`, { path: `${P}/ans-entries` })).status).toBe(400);
  });

  it('transfer commands: counter and status by sender and nonce (created, then sent by the DSO automation)', async () => {
    const factory = (await wok(base, 'alice', 'POST', `${R}/transfer-instruction/v1/transfer-factory`, {
      body: {
        choiceArguments: { expectedAdmin: dso, transfer: { sender: alice, receiver: carol, instrumentId: { admin: dso, id: 'Amulet' } } },
      },
    })) as { factoryId: string; choiceContext: ChoiceContext };
    const counter = `${P}/transfer-command-counter/{party}`;
    expect(
      (await wcall(base, 'alice', 'GET', counter, { path: `${P}/transfer-command-counter/${encodeURIComponent(alice)}` })).status,
    ).toBe(404);
    await submitTx(
      base,
      [alice],
      [
        {
          ExerciseCommand: {
            templateId: '#splice-amulet:Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules',
            contractId: factory.factoryId,
            choice: 'ExternalPartyAmuletRules_CreateTransferCommand',
            choiceArgument: {
              sender: alice,
              receiver: carol,
              delegate: dso,
              amount: '2',
              expiresAt: iso(3_600_000),
              nonce: '0',
              description: null,
              expectedDso: dso,
            },
          },
        },
      ],
      { disclosedContracts: factory.choiceContext.disclosedContracts },
    );
    const status = `${P}/transfer-command/status`;
    const q = `${P}/transfer-command/status?sender=${encodeURIComponent(alice)}&nonce=0`;
    // the DSO automation runs before the proxy answers: the command was sent through carol's preapproval
    const s = (await wok(base, 'alice', 'GET', status, { path: q })).transfer_commands_by_contract_id as Record<
      string,
      { status: { status: string } }
    >;
    expect(Object.values(s).map((x) => x.status.status)).toEqual(['sent']);
    expect(
      (await wok(base, 'alice', 'GET', counter, { path: `${P}/transfer-command-counter/${encodeURIComponent(alice)}` }))
        .transfer_command_counter,
    ).toBeDefined();
    expect(
      (await wcall(base, 'alice', 'GET', status, { path: `${P}/transfer-command/status?sender=${encodeURIComponent(alice)}&nonce=7` }))
        .status,
    ).toBe(404);
  });

  it('holdings summaries (v0 with fees, v1 without) at the latest record time', async () => {
    const ledgerEnd = (await (await fetch(`${base}/v2/state/ledger-end`)).json()) as { offset: number };
    expect(ledgerEnd.offset).toBeGreaterThan(0);
    const t = ((await (await fetch(`${base}/simulator/admin/time`)).json()) as { now: string }).now;
    const body = { migration_id: 0, record_time: t, record_time_match: 'at_or_before', owner_party_ids: [alice, bob] };
    const v0 = await wok(base, 'alice', 'POST', `${P}/holdings/summary`, { body });
    const v1 = await wok(base, 'alice', 'POST', '/v1/scan-proxy/holdings/summary', { body });
    const bobV1 = (v1.summaries as { party_id: string; total_unlocked_coin: string }[]).find((x) => x.party_id === bob);
    expect(Number(bobV1?.total_unlocked_coin)).toBeCloseTo(52, 6);
    expect((v0.summaries as unknown[]).length).toBe(2);
    expect((await wcall(base, 'alice', 'POST', `${P}/holdings/summary`, { body: { ...body, migration_id: 3 } })).status).toBe(404);
  });
});

describe('coverage', () => {
  it('every operation of scan-proxy.yaml and the four registry APIs got a successful, ajv-valid answer above', () => {
    const ops = ['scan-proxy', 'token-metadata-v1', 'transfer-instruction-v1', 'allocation-instruction-v1', 'allocation-v1'].flatMap((f) =>
      spliceSpecs().operationsOf(f),
    );
    expect(ops.length).toBe(15 + 3 + 4 + 1 + 3);
    const missing = ops.filter((k) => ![...(spliceSpecs().answered.get(k) ?? [])].some((s) => s >= 200 && s < 300));
    expect(missing).toEqual([]);
  });
});
