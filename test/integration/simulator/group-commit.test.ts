/**
 * Group commit (src/simulator/group-commit.ts) on a real SQLite file: commands that arrive together share
 * transactions (of up to eight); each is acknowledged only once that transaction is committed (a second connection sees it); a
 * command that fails inside the group is rolled back alone; offsets stay gap-free and strictly increasing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { SubmitResult } from '../../../src/simulator/ledger.js';
import { CantonError } from '../../../src/simulator/errors.js';
import type { JsCommandsInput } from '../../../src/simulator/schemas.js';
import { openCommitTestLedger, createIou, exercise, IOU } from './helpers.js';
import { must } from '../../support/must.js';

const disposers: Array<() => void> = [];
afterAll(() => {
  for (const d of disposers) d();
});

function open(groupCommit: boolean) {
  const { sim, writer, alice, commits, committedEnd, dispose } = openCommitTestLedger('sim-group-commit-', { settings: { groupCommit } });
  disposers.push(dispose);
  const bob = writer.allocateParty({ partyIdHint: 'Bob' }).party;
  commits.length = 0; // the tests count the commits of their commands only
  let n = 0;
  const cmd = (actAs: string, commands: JsCommandsInput['commands'], commandId = `gc-${++n}`): JsCommandsInput => ({
    commandId,
    actAs: [actAs],
    commands,
  });
  return { sim, writer, alice, bob, commits, committedEnd, cmd };
}

const settle = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

describe('group commit', () => {
  it('commits commands that arrive together in shared transactions, each acknowledged only once it is committed', async () => {
    const { sim, writer, alice, commits, committedEnd, cmd } = open(true);
    const end0 = sim.store.ledgerEnd();
    const pending = Array.from({ length: 16 }, () => writer.submit(cmd(alice, [createIou(alice, alice, '1')]), 'user'));
    // queued, not yet written: nothing committed, nobody answered
    expect(committedEnd()).toBe(end0);
    let answered = 0;
    for (const p of pending) void p.then(() => answered++);
    await Promise.resolve();
    expect(answered).toBe(0);
    const results = await Promise.all(pending);
    expect(committedEnd()).toBe(end0 + 16);
    expect(results.map((r) => r.offset)).toEqual(Array.from({ length: 16 }, (_, i) => end0 + 1 + i));
    expect(commits).toEqual([end0 + 8, end0 + 16]); // two groups of eight (MAX_GROUP), one commit each
  });

  it('fails a command that fails inside a group alone, without a gap in the offsets', async () => {
    const { sim, writer, alice, bob, commits, committedEnd, cmd } = open(true);
    const created = (await writer.submit(cmd(alice, [createIou(alice, alice, '10')]), 'user')).tx.nodes[0];
    const iou = must(created, 'the created Iou node').contractId;
    const end0 = sim.store.ledgerEnd();
    commits.length = 0;
    const outcomes = await Promise.all(
      [
        writer.submit(cmd(alice, [createIou(alice, alice, '1')], 'same-id'), 'user'),
        // the same command id again, in the same group: a duplicate of the one just before it
        writer.submit(cmd(alice, [createIou(alice, alice, '1')], 'same-id'), 'user'),
        writer.submit(cmd(alice, [exercise(IOU, iou, 'Iou_Transfer', { newOwner: bob })]), 'user'),
        // consumes the same contract after the transfer above, in the same group: it is no longer active
        writer.submit(cmd(alice, [exercise(IOU, iou, 'Iou_Transfer', { newOwner: bob })]), 'user'),
        writer.submit(cmd(alice, [createIou(alice, alice, '2')]), 'user'),
        // accepted, its rejection recorded as a failed completion at its own offset (async submit)
        writer.submit(cmd(alice, [exercise(IOU, iou, 'Iou_Split', { splitAmount: '1' })]), 'user', { rejectAsCompletion: true }),
        writer.submit(cmd(alice, [createIou(alice, alice, '3')]), 'user'),
      ].map(settle),
    );
    const code = (o: (typeof outcomes)[number]) =>
      !o.ok && o.error instanceof CantonError ? o.error.kind.code : o.ok ? 'ok' : String(o.error);
    expect(outcomes.map(code)).toEqual(['ok', 'DUPLICATE_COMMAND', 'ok', 'CONTRACT_NOT_FOUND', 'ok', 'ok', 'ok']);
    const offsets = outcomes.flatMap((o) => (o.ok ? [(o.value as SubmitResult).offset] : []));
    expect(offsets).toEqual([end0 + 1, end0 + 2, end0 + 3, end0 + 4, end0 + 5]);
    const sixth = must(outcomes[5], 'the sixth outcome');
    expect('rejected' in (sixth.ok ? (sixth.value as object) : {})).toBe(true);
    expect(committedEnd()).toBe(end0 + 5);
    expect(sim.store.ledgerEnd()).toBe(end0 + 5);
    expect(commits).toEqual([end0 + 5]);
    // the transfer happened once
    expect(sim.store.contract(iou)?.archivedOffset).toBe(end0 + 2);
  });

  it('rejects a command that fails validation before it joins a group, and commits the rest', async () => {
    const { sim, writer, alice, cmd } = open(true);
    const end0 = sim.store.ledgerEnd();
    const [bad, good] = await Promise.all([
      settle(writer.submit(cmd('Nobody::1220ab', [createIou(alice, alice, '1')]), 'user')),
      settle(writer.submit(cmd(alice, [createIou(alice, alice, '1')]), 'user')),
    ]);
    expect(bad.ok ? 'ok' : (bad.error as CantonError).kind.code).toBe('PARTY_NOT_KNOWN_ON_LEDGER');
    expect(good.ok && good.value.offset).toBe(end0 + 1);
    expect(sim.store.ledgerEnd()).toBe(end0 + 1);
  });

  it('commits each command on its own with groupCommit off', async () => {
    const { sim, writer, alice, commits, cmd } = open(false);
    const end0 = sim.store.ledgerEnd();
    commits.length = 0;
    const results = await Promise.all(Array.from({ length: 4 }, () => writer.submit(cmd(alice, [createIou(alice, alice, '1')]), 'user')));
    expect(results.map((r) => r.offset)).toEqual([end0 + 1, end0 + 2, end0 + 3, end0 + 4]);
    expect(commits).toEqual([end0 + 1, end0 + 2, end0 + 3, end0 + 4]);
  });
});
