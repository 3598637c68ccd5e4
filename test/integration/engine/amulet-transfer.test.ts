/**
 * Real Splice Amulet code through the Ledger API: the reference DAR `splice-amulet-0.1.22` is uploaded, the DSO
 * creates its `AmuletRules` (with a configuration the template's own `ensure` validates) and an open mining round,
 * Alice holds an Amulet, and `AmuletRules_Transfer` — the real choice, run by the Daml-LF engine from the DAR's
 * compiled code — moves part of it to Bob. The amounts are checked against Splice's fee rules computed here
 * independently (decimal arithmetic with BigInt, half-even rounding at scale 10 as Daml's Numeric does): since
 * CIP-78 the create, transfer and lock-holder fees must be zero (the rules' `ensure` rejects anything else), and the
 * holding fee is not charged at transfer time but accounted in the balance changes, normalised to round zero, with
 * the USD holding-fee rate converted to Amulet at the round's price (`scaleFees (1.0 / amuletPrice)`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocate, call, cantonError, nextCommandId, referenceDir, startTestSim, type TestSim } from '../simulator/helpers.js';
import { postBytes } from '../simulator/dars-helpers.js';
import { HOLDING_INTERFACE, interfaceViewsAt } from '../../support/acs-by-interface.js';

const PKG = '#splice-amulet';
const RULES = `${PKG}:Splice.AmuletRules:AmuletRules`;
const ROUND = `${PKG}:Splice.Round:OpenMiningRound`;
const AMULET = `${PKG}:Splice.Amulet:Amulet`;

// ---- Daml Numeric 10, independently: values are BigInt units of 1e-10 ----
const S = 10n ** 10n;
const dec = (s: string): bigint => {
  const [i = '0', f = ''] = s.replace('-', '').split('.');
  const v = BigInt(i) * S + BigInt((f + '0000000000').slice(0, 10));
  return s.startsWith('-') ? -v : v;
};
const show = (v: bigint): string => {
  const a = v < 0n ? -v : v;
  return `${v < 0n ? '-' : ''}${a / S}.${(a % S).toString().padStart(10, '0')}`;
};
/** n / d rounded half to even (the rounding of MUL_NUMERIC / DIV_NUMERIC). */
const roundDiv = (n: bigint, d: bigint): bigint => {
  const neg = n < 0n !== d < 0n;
  const [an, ad] = [n < 0n ? -n : n, d < 0n ? -d : d];
  let q = an / ad;
  const r2 = (an % ad) * 2n;
  if (r2 > ad || (r2 === ad && q % 2n === 1n)) q += 1n;
  return neg ? -q : q;
};
const mul = (a: bigint, b: bigint): bigint => roundDiv(a * b, S);
const div = (a: bigint, b: bigint): bigint => roundDiv(a * S, b);

type Ev = Record<string, Record<string, unknown>>;

describe('splice-amulet 0.1.22 on the Daml-LF engine: AmuletRules_Transfer', () => {
  let sim: TestSim;
  let dso: string, alice: string, bob: string;
  const disclosed: Record<string, unknown>[] = [];
  let rulesCid: string, roundCid: string;

  const HOLDING_FEE_USD = '0.0000190259';
  const AMULET_PRICE = '0.3';
  const ROUND_NUMBER = 5n;
  const issuance = {
    amuletToIssuePerYear: '40000000000.0',
    validatorRewardPercentage: '0.05',
    appRewardPercentage: '0.15',
    validatorRewardCap: '0.2',
    featuredAppRewardCap: '100.0',
    unfeaturedAppRewardCap: '0.6',
    optValidatorFaucetCap: '2.85',
    optDevelopmentFundPercentage: null,
  };
  const transferConfig = (createFee = '0.0') => ({
    createFee: { fee: createFee },
    holdingFee: { rate: HOLDING_FEE_USD },
    transferFee: { initialRate: '0.0', steps: [] },
    lockHolderFee: { fee: '0.0' },
    extraFeaturedAppRewardAmount: '1.0',
    maxNumInputs: 100,
    maxNumOutputs: 100,
    maxNumLockHolders: 50,
    tokenStandardMaxTTL: null,
  });
  const tick = { microseconds: '600000000' };
  const amuletConfig = (createFee?: string) => ({
    transferConfig: transferConfig(createFee),
    issuanceCurve: { initialValue: issuance, futureValues: [] },
    decentralizedSynchronizer: {
      requiredSynchronizers: { map: [['global-domain::1220aa', {}]] },
      activeSynchronizer: 'global-domain::1220aa',
      fees: {
        baseRateTrafficLimits: { burstAmount: 400000, burstWindow: { microseconds: '1200000000' } },
        extraTrafficPrice: '16.67',
        readVsWriteScalingFactor: 4,
        minTopupAmount: 200000,
      },
    },
    tickDuration: tick,
    packageConfig: {
      amulet: '0.1.22',
      amuletNameService: '0.1.22',
      dsoGovernance: '0.1.22',
      validatorLifecycle: '0.1.22',
      wallet: '0.1.22',
      walletPayments: '0.1.22',
    },
    transferPreapprovalFee: null,
    featuredAppActivityMarkerAmount: '1.0',
    optDevelopmentFundManager: null,
    externalPartyConfigStateTickDuration: null,
    rewardConfig: null,
    transferPreapprovalBaseDuration: null,
  });
  const rulesArgs = (createFee?: string) => ({
    dso,
    configSchedule: { initialValue: amuletConfig(createFee), futureValues: [] },
    isDevNet: true,
    contractStateSchemaVersion: null,
  });

  const submit = async (actAs: string[], commands: unknown[], extra: Record<string, unknown> = {}) =>
    call(sim.url, 'POST', '/v2/commands/submit-and-wait-for-transaction', {
      body: {
        commands: { commandId: nextCommandId('amu'), actAs, commands, ...extra },
        transactionFormat: {
          transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
          eventFormat: { filtersByParty: Object.fromEntries(actAs.map((p) => [p, {}])), verbose: true },
        },
      },
    });
  const events = (r: { json: unknown }): Ev[] => (r.json as { transaction: { events: Ev[] } }).transaction.events;
  const created = (r: { json: unknown }) => events(r).flatMap((e) => (e.CreatedEvent ? [e.CreatedEvent] : []));
  const discloseOf = async (cid: string, party: string) => {
    const ev = await call(sim.url, 'POST', '/v2/events/events-by-contract-id', {
      body: {
        contractId: cid,
        eventFormat: {
          filtersByParty: {
            [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] },
          },
        },
      },
    });
    const ce = (ev.json as { created: { createdEvent: { createdEventBlob: string; templateId: string } } }).created.createdEvent;
    return { contractId: cid, createdEventBlob: ce.createdEventBlob, templateId: ce.templateId, synchronizerId: '' };
  };
  const createAmulet = async (owner: string, amount: string, createdAt: bigint, rate: string) => {
    const r = await submit(
      [dso, owner],
      [
        {
          CreateCommand: {
            templateId: AMULET,
            createArguments: {
              dso,
              owner,
              amount: { initialAmount: amount, createdAt: { number: String(createdAt) }, ratePerRound: { rate } },
            },
          },
        },
      ],
    );
    expect(r.status, r.text).toBe(200);
    return created(r)[0]?.contractId as string;
  };
  const transfer = (inputs: string[], amount: string) => ({
    ExerciseCommand: {
      templateId: RULES,
      contractId: rulesCid,
      choice: 'AmuletRules_Transfer',
      choiceArgument: {
        transfer: {
          sender: alice,
          provider: alice,
          inputs: inputs.map((cid) => ({ tag: 'InputAmulet', value: cid })),
          outputs: [{ receiver: bob, receiverFeeRatio: '0.0', amount, lock: null, meta: null }],
          beneficiaries: null,
        },
        context: { openMiningRound: roundCid, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null },
        expectedDso: dso,
      },
    },
  });

  beforeAll(async () => {
    sim = await startTestSim();
    const up = await postBytes(
      sim.url,
      '/v2/packages',
      new Uint8Array(readFileSync(path.join(referenceDir, 'dars/splice-amulet-0.1.22.dar'))),
    );
    expect(up.status, up.text).toBe(200);
    [dso, alice, bob] = await Promise.all([allocate(sim.url, 'dso'), allocate(sim.url, 'alice'), allocate(sim.url, 'bob')]);
    const r = await submit([dso], [{ CreateCommand: { templateId: RULES, createArguments: rulesArgs() } }]);
    expect(r.status, r.text).toBe(200);
    rulesCid = created(r)[0]?.contractId as string;
    const now = Date.now();
    const round = await submit(
      [dso],
      [
        {
          CreateCommand: {
            templateId: ROUND,
            createArguments: {
              dso,
              round: { number: String(ROUND_NUMBER) },
              amuletPrice: AMULET_PRICE,
              opensAt: new Date(now - 60_000).toISOString(),
              targetClosesAt: new Date(now + 3_600_000).toISOString(),
              issuingFor: { microseconds: '0' },
              transferConfigUsd: transferConfig(),
              issuanceConfig: issuance,
              tickDuration: tick,
              trafficPrice: null,
              rewardConfig: null,
            },
          },
        },
      ],
    );
    expect(round.status, round.text).toBe(200);
    roundCid = created(round)[0]?.contractId as string;
    disclosed.push(await discloseOf(rulesCid, dso), await discloseOf(roundCid, dso));
  }, 120_000);
  afterAll(async () => sim.dispose());

  it("the rules' ensure enforces CIP-78: a non-zero create fee is rejected by the compiled precondition", async () => {
    const r = await submit([dso], [{ CreateCommand: { templateId: RULES, createArguments: rulesArgs('0.03') } }]);
    expect(r.status).toBe(400);
    // Daml 3 compiles `ensure` to a precondition that throws DA.Exception.PreconditionFailed, shown with the contract
    const e = cantonError(r);
    expect(e.code).toBe('DAML_FAILURE');
    expect(e.cause).toMatch(
      /User failure: UNHANDLED_EXCEPTION\/DA\.Exception\.PreconditionFailed:PreconditionFailed \(error category 9\): /,
    );
    expect(e.cause).toContain('Template precondition violated: AmuletRules {dso = ');
    expect(e.cause).toContain('createFee = FixedFee {fee = 0.03}');
  });

  it('transfers 250 of 1000 Amulet to Bob with the amounts of Splice fee rules', async () => {
    const inputRate = '0.0000634197';
    const inputCreatedAt = 2n;
    const input = await createAmulet(alice, '1000.0', inputCreatedAt, inputRate);
    const t = await submit([alice, bob], [transfer([input], '250.0')], { disclosedContracts: disclosed });
    expect(t.status, t.text).toBe(200);

    // Splice fee rules, independently: fees in Amulet = USD fees × (1.0 / amuletPrice), every step rounded at scale 10
    const scale = div(dec('1.0'), dec(AMULET_PRICE));
    const rate = mul(scale, dec(HOLDING_FEE_USD));
    const adjustment = mul(ROUND_NUMBER * S, rate); // intToDecimal round × holding-fee rate
    const archivedAsOfRound0 = dec('1000.0') + mul(dec(inputRate), inputCreatedAt * S);
    const change = dec('1000.0') - dec('250.0'); // outputs and output fees (zero) deducted, no holding fee at transfer
    const expected = {
      inputAmuletAmount: show(dec('1000.0')),
      outputFees: [show(0n)],
      holdingFees: show(0n),
      senderChangeAmount: show(change),
      amuletPrice: show(dec(AMULET_PRICE)),
      bob: { changeToInitialAmountAsOfRoundZero: show(dec('250.0') + adjustment), changeToHoldingFeesRate: show(rate) },
      alice: {
        changeToInitialAmountAsOfRoundZero: show(change + adjustment - archivedAsOfRound0),
        changeToHoldingFeesRate: show(rate - dec(inputRate)),
      },
    };
    expect(show(rate)).toBe('0.0000634197'); // 3.3333333333 × 0.0000190259 = 0.000063419666…, half-even at scale 10

    const root = events(t)[0]?.ExercisedEvent as Record<string, unknown>;
    expect(root.choice).toBe('AmuletRules_Transfer');
    expect(root.consuming).toBe(false);
    const result = root.exerciseResult as {
      round: { number: string };
      summary: Record<string, unknown> & { balanceChanges: [string, Record<string, string>][] };
      createdAmulets: { tag: string; value: string }[];
      senderChangeAmulet: string | null;
    };
    expect(result.round.number).toBe(String(ROUND_NUMBER));
    expect(result.summary).toMatchObject({
      inputAmuletAmount: expected.inputAmuletAmount,
      outputFees: expected.outputFees,
      holdingFees: expected.holdingFees,
      senderChangeAmount: expected.senderChangeAmount,
      amuletPrice: expected.amuletPrice,
    });
    const changes = Object.fromEntries(result.summary.balanceChanges);
    expect(changes[bob]).toEqual(expected.bob);
    expect(changes[alice]).toEqual(expected.alice);

    // the input is archived, Bob's output and Alice's change are new Amulets carrying the Amulet holding-fee rate
    const consumed = events(t).flatMap((e) => (e.ExercisedEvent?.consuming === true ? [e.ExercisedEvent.contractId] : []));
    expect(consumed).toContain(input);
    const amulets = created(t).filter((c) => String(c.templateId).endsWith(':Splice.Amulet:Amulet'));
    const amountOf = (owner: string) =>
      amulets.find((c) => (c.createArgument as { owner: string }).owner === owner)?.createArgument as { amount: unknown };
    const expiring = (amount: bigint) => ({
      initialAmount: show(amount),
      createdAt: { number: String(ROUND_NUMBER) },
      ratePerRound: { rate: show(rate) },
    });
    expect(amountOf(bob).amount).toEqual(expiring(dec('250.0')));
    expect(amountOf(alice).amount).toEqual(expiring(change));
    expect(result.createdAmulets).toEqual([
      { tag: 'TransferResultAmulet', value: amulets.find((c) => (c.createArgument as { owner: string }).owner === bob)?.contractId },
    ]);
    expect(result.senderChangeAmulet).toBe(amulets.find((c) => (c.createArgument as { owner: string }).owner === alice)?.contractId);

    // Bob's Amulet through the token standard's Holding interface, with the view Splice's instance computes
    const views = await interfaceViewsAt(
      (p, body) => call(sim.url, 'POST', p, { body }),
      bob,
      HOLDING_INTERFACE,
      (t.json as { transaction: { offset: number } }).transaction.offset,
    );
    expect(views).toHaveLength(1);
    expect(views[0]?.viewStatus.code).toBe(0);
    expect(views[0]?.viewValue).toMatchObject({
      owner: bob,
      amount: '250.0000000000',
      instrumentId: { admin: dso, id: 'Amulet' },
      lock: null,
    });
  }, 120_000);

  it('an overdrawn transfer fails with the real failure status (DAML_FAILURE, insufficient-funds)', async () => {
    const input = await createAmulet(alice, '10.0', ROUND_NUMBER, '0.0000634197');
    const t = await submit([alice, bob], [transfer([input], '25.0')], { disclosedContracts: disclosed });
    expect(t.status, t.text).toBe(400);
    const e = cantonError(t);
    expect(e.code).toBe('DAML_FAILURE');
    // splice-amulet 0.1.22 reports it with failWithStatus, its own error id and the missing amount
    expect(e.cause).toBe(
      'Interpretation error: Error: User failure: splice.lfdecentralizedtrust.org/insufficient-funds (error category 9): ' +
        'Insufficient funds: you are missing 15.0 to complete this transfer.',
    );
    expect(t.json).toMatchObject({ context: { error_id: 'splice.lfdecentralizedtrust.org/insufficient-funds' } });
  }, 60_000);

  it('without the receiver as controller the real transferControllers refuse (DAML_AUTHORIZATION_ERROR)', async () => {
    const input = await createAmulet(alice, '10.0', ROUND_NUMBER, '0.0000634197');
    const t = await submit([alice], [transfer([input], '1.0')], { disclosedContracts: disclosed });
    expect(t.status).toBe(400);
    expect(cantonError(t).code).toBe('DAML_AUTHORIZATION_ERROR');
  }, 60_000);
});
