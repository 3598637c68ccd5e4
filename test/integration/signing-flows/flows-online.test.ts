/**
 * The online signing channels through the real composition (startConsoleApp: contract router, real keychain, embedded
 * simulator over HTTP): onboarding, compose → prepare → verify → confirm → execute (three variants), policy refusals,
 * every tamper kind of the simulator's fault injection refused (audited) with nothing executed, the unlock window, and
 * no private key byte in any IPC answer or console output. The offline round trips are in flows-offline.test.ts,
 * k-of-n parties and the encrypted key file in flows-keys.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Entry } from '@napi-rs/keyring';
import type { Response } from '../../../src/ipc/contract.js';
import { secretAccount } from '../../../src/services/signing/key-store.js';
import { TAMPER_KINDS as FAULT_KINDS } from '../../../src/simulator/fault-injection.js';
import { must } from '../../support/must.js';
import { stringContaining } from '../../support/matchers.js';
import { IOU, OPEN_POLICY, createIouCommand, transferIou, useSigningConsoles } from './consoles.js';

const t = useSigningConsoles('signing-flows-online', { air: false });
const { online } = t;

let bank: string;
let bob: string;
let key: Response<'signing.keys.create'>;
let party: string;

beforeAll(async () => {
  bank = await t.allocate('FlowsBank');
  bob = await t.allocate('FlowsBob');
});

describe('signing flows through the contract: online', () => {
  it('onboards an external party: generate-topology, local multi-hash check, summary, confirm, allocate', async () => {
    key = await online.call('signing.keys.create', { label: 'Treasury', backend: 'os-keychain' });
    const prep = await online.call('signing.onboard.prepare', { fingerprint: key.fingerprint, partyHint: 'flows-treasury' });
    if (prep.status !== 'verified') throw new Error(prep.message);
    expect(prep.summary.partyId).toBe(`flows-treasury::${key.fingerprint}`);
    expect(prep.summary.hostingParticipants).toHaveLength(1);
    expect(prep.summary.confirmationThreshold).toBe(1);
    // Nothing is signed before the confirmation.
    expect((await online.call('signing.audit.list', {})).records).toHaveLength(0);
    const done = await online.call('signing.onboard.confirm', { sessionId: prep.sessionId });
    if (done.status !== 'allocated') throw new Error(done.message);
    party = done.partyId;
    expect(done.key.parties).toEqual([party]);
    const parties = await t.sim<{ partyDetails: Array<{ party: string }> }>('/v2/parties');
    expect(parties.partyDetails.map((p) => p.party)).toContain(party);
    expect((await online.call('signing.parties', {})).parties).toEqual([
      { party, keys: [{ fingerprint: key.fingerprint, label: 'Treasury' }] },
    ]);
    // a session is confirmed once
    expect((await online.callError('signing.onboard.confirm', { sessionId: prep.sessionId })).code).toBe('NOT_FOUND');
  });

  it('composes, verifies and executes with each execute variant, showing the transaction', async () => {
    const create = await online.call('signing.prepare', {
      party,
      fingerprint: key.fingerprint,
      command: createIouCommand(party, bob, 'EUR', '12.5'),
    });
    if (create.status !== 'verified') throw new Error(create.message);
    expect(create.summary.created[0]).toMatchObject({ root: true, template: stringContaining('Demo.Iou:Iou') });
    expect(create.summary.amounts.map((a) => Number(a.value))).toContain(12.5);
    // described field by field from the package the participant served (its id verified): no blind signature
    expect(create.summary.mode).toBe('described');
    expect(create.summary.headline).toMatch(/^Create Demo.Iou:Iou: issuer flows-treasury::1220[0-9a-f]{4}…[0-9a-f]{4}, owner FlowsBob::/);
    const args = must(create.summary.description.nodes[0], 'a described node').argument;
    expect(args[0]).toMatchObject({ depth: 0, label: 'arguments', kind: 'record', type: 'Demo.Iou:Iou' });
    expect(args.slice(1).map((r) => [r.label, r.kind, r.type])).toEqual(
      expect.arrayContaining([
        ['issuer', 'party', 'Party'],
        ['owner', 'party', 'Party'],
        ['currency', 'scalar', 'Text'],
        ['amount', 'numeric', 'Numeric 10'],
      ]),
    );
    expect(args.find((r) => r.label === 'amount')).toMatchObject({ text: '12.5000000000', scale: 10 });
    expect(create.summary.description.packages).toEqual([expect.objectContaining({ name: 'simulator-demo' })]);
    const executed = await online.call('signing.confirm', { sessionId: create.sessionId, mode: 'executeAndWaitForTransaction' });
    if (executed.status !== 'executed') throw new Error(executed.message);
    expect(executed.updateId).toMatch(/\S/);
    expect(executed.offset).toBeGreaterThan(0);
    expect(executed.events.map((e) => e.kind)).toContain('created');

    const iou = await t.createIou(bank, party, '40');
    const transfer = await online.call('signing.prepare', {
      party,
      fingerprint: key.fingerprint,
      command: transferIou(iou, bob),
    });
    if (transfer.status !== 'verified') throw new Error(transfer.message);
    expect(transfer.summary.exercises[0]).toMatchObject({ choice: 'Iou_Transfer', root: true, consuming: true, contractId: iou });
    expect(transfer.summary.consumed.map((c) => c.contractId)).toEqual([iou]);
    expect(transfer.summary.inputs.map((c) => c.contractId)).toEqual([iou]);
    expect(transfer.summary.headline).toContain(`newOwner FlowsBob::`);
    const waited = await online.call('signing.confirm', { sessionId: transfer.sessionId, mode: 'executeAndWait' });
    if (waited.status !== 'executed') throw new Error(waited.message);
    expect(waited.events.some((e) => e.kind === 'exercised' && e.choice === 'Iou_Transfer')).toBe(true);

    const third = await online.call('signing.prepare', {
      party,
      fingerprint: key.fingerprint,
      command: createIouCommand(party, party, 'CHF', '1'),
    });
    if (third.status !== 'verified') throw new Error(third.message);
    const fire = await online.call('signing.confirm', { sessionId: third.sessionId, mode: 'execute' });
    expect(fire).toMatchObject({ status: 'executed', mode: 'execute', updateId: null });
  });

  it('refuses what the policy forbids, audited', async () => {
    await online.call('signing.policy.set', {
      fingerprint: key.fingerprint,
      policy: { ...OPEN_POLICY, maxAmountPerTransaction: '100' },
    });
    const over = await online.call('signing.prepare', {
      party,
      fingerprint: key.fingerprint,
      command: createIouCommand(party, bob, 'USD', '500'),
    });
    expect(over).toMatchObject({ status: 'refused', reason: 'POLICY_AMOUNT' });
    const audit = (await online.call('signing.audit.list', {})).records;
    expect(audit[0]).toMatchObject({ decision: 'refused', reason: 'POLICY_AMOUNT', party });
    await online.call('signing.policy.set', {
      fingerprint: key.fingerprint,
      policy: OPEN_POLICY,
    });
    // bad compose input is a field error, not a prepare
    const bad = await online.callError('signing.prepare', {
      party,
      fingerprint: key.fingerprint,
      command: { kind: 'create', templateId: IOU, argumentsJson: '{nope' },
    });
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'argumentsJson' }] });
  });

  it('refuses 100 % of the prepares the simulator tampers with (every kind, several rounds), audited, nothing executed', async () => {
    const iou = await t.createIou(bank, party, '25');
    const transfer = () =>
      online.call('signing.prepare', {
        party,
        fingerprint: key.fingerprint,
        command: transferIou(iou, bob),
      });
    // honest first, so `other-transaction` has a previous transaction to send
    expect((await transfer()).status).toBe('verified');
    const end = async () => (await t.sim<{ offset: number }>('/v2/state/ledger-end')).offset;
    const endBefore = await end();
    const auditBefore = (await online.call('signing.audit.list', {})).records.length;
    await t.sim('/simulator/admin/fault-injection', { prepare: FAULT_KINDS });
    const rounds = 3;
    const reasons = new Map<string, Set<string>>();
    try {
      for (let i = 0; i < rounds * FAULT_KINDS.length; i++) {
        const kind = must(FAULT_KINDS[i % FAULT_KINDS.length], 'a fault kind');
        const r = await transfer();
        expect(r.status, `${kind} (round ${Math.floor(i / FAULT_KINDS.length) + 1})`).toBe('refused');
        if (r.status !== 'refused') continue;
        expect(r.auditSeq, kind).not.toBeNull();
        reasons.set(kind, (reasons.get(kind) ?? new Set()).add(r.reason));
      }
    } finally {
      await t.sim('/simulator/admin/fault-injection', { prepare: 'off' });
    }
    // the simulator really tampered every answer (no kind was inapplicable to this transaction)
    const status = await t.sim<{ prepare: string; injections: Array<{ kind: string; applied: boolean }> }>(
      '/simulator/admin/fault-injection',
    );
    expect(status.prepare).toBe('off');
    const injected = status.injections.slice(-rounds * FAULT_KINDS.length);
    expect(injected.map((x) => x.kind)).toEqual(Array.from({ length: rounds }, () => FAULT_KINDS).flat());
    expect(injected.every((x) => x.applied)).toBe(true);

    const expected: Record<string, string[]> = Object.fromEntries(FAULT_KINDS.map((k) => [k, ['HASH_MISMATCH']]));
    expected['scheme-v3'] = ['UNSUPPORTED_HASHING_SCHEME'];
    expected['submitter-rehashed'] = ['PARTY_NOT_SUBMITTER'];
    expected['truncated'] = ['HASH_MISMATCH', 'UNDECODABLE_TRANSACTION'];
    for (const kind of FAULT_KINDS) for (const reason of reasons.get(kind) ?? []) expect(expected[kind], kind).toContain(reason);
    expect([...reasons.keys()].sort()).toEqual([...FAULT_KINDS].sort());

    // every refusal is in the audit log (newest first), and nothing reached the ledger
    const audit = (await online.call('signing.audit.list', {})).records;
    expect(audit.length - auditBefore).toBe(rounds * FAULT_KINDS.length);
    expect(audit.slice(0, rounds * FAULT_KINDS.length).every((r) => r.decision === 'refused' && r.party === party)).toBe(true);
    expect(await end()).toBe(endBefore);
    // with fault injection off again, the same command verifies
    expect((await transfer()).status).toBe('verified');
  });

  it('unlock window over IPC: bounded, listed, signs without the keychain while open, locked again on request', async () => {
    expect((await online.call('signing.keys.list', {})).keys.find((k) => k.fingerprint === key.fingerprint)?.unlockedUntil).toBeNull();
    for (const minutes of [0, 61, 1.5]) {
      const e = await online.callError('signing.keys.unlock', { fingerprint: key.fingerprint, minutes });
      expect(e, String(minutes)).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'minutes' }] });
    }
    const unlocked = await online.call('signing.keys.unlock', { fingerprint: key.fingerprint, minutes: 5 });
    expect(Date.parse(must(unlocked.unlockedUntil, 'an unlocked-until time')) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect((await online.call('signing.keys.list', {})).keys.find((k) => k.fingerprint === key.fingerprint)?.unlockedUntil).toBe(
      unlocked.unlockedUntil,
    );
    // while unlocked the keychain is not read: with its entry removed, a signature still goes through
    const entry = new Entry(online.service, secretAccount(key.fingerprint));
    const secret = must(entry.getPassword(), 'the key in the keychain');
    entry.deletePassword();
    try {
      const p = await online.call('signing.prepare', {
        party,
        fingerprint: key.fingerprint,
        command: createIouCommand(party, party, 'USD', '4'),
      });
      if (p.status !== 'verified') throw new Error(p.message);
      expect(
        await online.call('signing.confirm', { sessionId: p.sessionId, mode: 'executeAndWait', blindConfirmation: 'BLIND' }),
      ).toMatchObject({ status: 'executed' });
      expect((await online.call('signing.keys.lock', { fingerprint: key.fingerprint })).unlockedUntil).toBeNull();
      // locked: the key is read from the keychain again, and it is gone
      const q = await online.call('signing.prepare', {
        party,
        fingerprint: key.fingerprint,
        command: createIouCommand(party, party, 'USD', '5'),
      });
      if (q.status !== 'verified') throw new Error(q.message);
      const refused = await online.callError('signing.confirm', {
        sessionId: q.sessionId,
        mode: 'executeAndWait',
        blindConfirmation: 'BLIND',
      });
      expect(refused.message).toMatch(/missing from the os-keychain/);
      // the window's opening and closing are in the audit log, around what was signed meanwhile
      const recent = (await online.call('signing.audit.list', { limit: 4 })).records;
      expect(recent.map((r) => r.decision)).toEqual(['refused', 'locked', 'signed', 'unlocked']);
      expect(recent[3]).toMatchObject({ subject: 'other', fingerprint: key.fingerprint });
      expect(must(recent[3], 'the unlock record').summary).toMatch(/unlocked for 5 min/);
      // locking a key that is not unlocked changes nothing and records nothing
      await online.call('signing.keys.lock', { fingerprint: key.fingerprint });
      const latest = (await online.call('signing.audit.list', { limit: 1 })).records[0];
      expect(must(latest, 'the latest audit record').seq).toBe(must(recent[0], 'the refusal record').seq);
      expect(await online.call('signing.audit.verify', {})).toMatchObject({ ok: true });
    } finally {
      entry.setPassword(secret);
    }
  });

  it('never lets a private key byte cross the contract or reach the console output', async () => {
    await t.expectNoKeyLeak({ keys: 1, answers: 40 });
  });
});
