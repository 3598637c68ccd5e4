/**
 * Group commit with the WAL synced off the simulator's thread (src/simulator/durability.ts), on a real SQLite file:
 * the test holds each fdatasync back and checks, while it is held, that the group is committed but nobody is answered,
 * no 'commit' event is emitted and readers see the durable ledger end; that what arrives meanwhile forms the next
 * group, synced by a second sync (two in flight at most, each on its own descriptor) whose end answers every group
 * committed before it started; that a waiting reader runs before the next group; that a failed sync answers with an
 * error instead of an
 * acknowledgement; and, over HTTP and WebSocket, that reads and streams show nothing of a group before it is durable.
 */
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { CantonError } from '../../../src/simulator/errors.js';
import type { JsCommandsInput } from '../../../src/simulator/schemas.js';
import { heldSync, openCommitTestLedger, createIou, startTestSim } from './helpers.js';
import { until } from '../../support/hostile-dar.js';

const disposers: Array<() => void> = [];
afterAll(() => {
  for (const d of disposers) d();
});

function open() {
  const sync = heldSync();
  const { sim, writer, alice, commits, committedEnd, dispose } = openCommitTestLedger('sim-group-sync-', { syncWal: sync.sync });
  disposers.push(dispose);
  let n = 0;
  const cmd = (): JsCommandsInput => ({ commandId: `sync-${++n}`, actAs: [alice], commands: [createIou(alice, alice, '1')] });
  const answered = { count: 0 };
  const submit = (count: number) =>
    Array.from({ length: count }, () =>
      writer.submit(cmd(), 'user').then((r) => {
        answered.count++;
        return r;
      }),
    );
  return { sim, sync, commits, committedEnd, submit, answered };
}

const turns = async (k: number) => {
  for (let i = 0; i < k; i++) await new Promise((r) => setImmediate(r));
};

describe('group commit, WAL synced off the thread', () => {
  it('answers a group only once a sync started after it is done; two syncs in flight at most', async () => {
    const { sim, sync, commits, committedEnd, submit, answered } = open();
    const end0 = sim.store.ledgerEnd();
    const first = submit(4);
    await until(() => sync.held() === 1);
    // committed (another connection sees it) but not durable: nobody answered, no event, readers see the old end
    expect(committedEnd()).toBe(end0 + 4);
    expect(sim.durability.end()).toBe(end0);
    expect(sim.durability.isSettled()).toBe(false);
    await turns(3);
    expect(answered.count).toBe(0);
    expect(commits).toEqual([]);

    // committed while the sync runs: a second sync starts at once, for both groups
    const second = submit(2);
    await until(() => committedEnd() === end0 + 6);
    await until(() => sync.held() === 2);
    // each on its own descriptor (Linux reports a writeback error once per open file)
    expect(new Set(sync.heldFds()).size).toBe(2);
    // two syncs in flight at most: a third group waits for one of them to end
    const third = submit(1);
    await until(() => committedEnd() === end0 + 7);
    await turns(3);
    expect(sync.held()).toBe(2);
    expect(answered.count).toBe(0);
    // the second sync ends first: it started after both groups' COMMITs, so it makes both durable
    sync.releaseNewest();
    expect((await Promise.all([...first, ...second])).map((r) => r.offset)).toEqual([
      end0 + 1,
      end0 + 2,
      end0 + 3,
      end0 + 4,
      end0 + 5,
      end0 + 6,
    ]);
    expect(commits).toEqual([end0 + 4, end0 + 6]);
    // the third group's sync started when that one ended; the first sync, still held, no longer covers anyone
    await until(() => sync.held() === 2);
    expect(sim.durability.end()).toBe(end0 + 6);
    sync.releaseNewest();
    expect((await Promise.all(third)).map((r) => r.offset)).toEqual([end0 + 7]);
    expect(commits).toEqual([end0 + 4, end0 + 6, end0 + 7]);
    expect(sim.durability.end()).toBe(end0 + 7);
    // settled only once the first sync is done too
    expect(sim.durability.isSettled()).toBe(false);
    sync.release();
    await until(() => sim.durability.isSettled());
    expect(sync.calls()).toBe(3);
  });

  it('lets a waiting reader run before the next group commits', async () => {
    const { sim, sync, submit } = open();
    const end0 = sim.store.ledgerEnd();
    const first = submit(2);
    await until(() => sync.held() === 1);
    let seen: { durable: number; committed: number } | undefined;
    const read = sim.durability.settled().then(() => {
      seen = { durable: sim.durability.end(), committed: sim.store.ledgerEnd() };
    });
    const second = submit(2);
    await turns(3);
    expect(seen).toBeUndefined();
    sync.release();
    await read;
    // the reader ran when the first group was durable and before the second was committed
    expect(seen).toEqual({ durable: end0 + 2, committed: end0 + 2 });
    await Promise.all(first);
    await until(() => sync.held() === 1);
    sync.release();
    await Promise.all(second);
  });

  it('commits a group of one with SQLite syncing it, without the thread pool', async () => {
    const { sim, sync, commits, submit } = open();
    const end0 = sim.store.ledgerEnd();
    const [r] = await Promise.all(submit(1));
    expect(r?.offset).toBe(end0 + 1);
    expect(commits).toEqual([end0 + 1]);
    expect(sync.calls()).toBe(0);
    expect(sim.durability.end()).toBe(end0 + 1);
  });

  it('answers with an error, not an acknowledgement, when the sync fails, and goes on', async () => {
    const { sim, sync, submit } = open();
    const end0 = sim.store.ledgerEnd();
    const failed = submit(3).map((p) =>
      p.then(
        () => 'acknowledged',
        (e: unknown) => e,
      ),
    );
    await until(() => sync.held() === 1);
    sync.fail();
    for (const e of await Promise.all(failed)) {
      expect(e).toBeInstanceOf(CantonError);
      const err = e as CantonError;
      expect(err.kind.code).toBe('INTERNAL_ERROR');
      expect(err.definiteAnswer).toBe(false);
      expect(err.message).toContain('fdatasync of the WAL failed: EIO');
    }
    // the group's rows stay in the ledger (later commits build on them): readers see them, offsets stay gap-free
    expect(sim.durability.end()).toBe(end0 + 3);
    const later = submit(2);
    await until(() => sync.held() === 1);
    sync.release();
    expect((await Promise.all(later)).map((r) => r.offset)).toEqual([end0 + 4, end0 + 5]);
  });

  it('closes only after the sync under way is done', async () => {
    const { sim, sync, submit } = open();
    const pending = submit(2);
    await until(() => sync.held() === 1);
    let closed = false;
    const closing = sim.durability.close().then(() => (closed = true));
    await turns(3);
    expect(closed).toBe(false);
    sync.release();
    await closing;
    expect((await Promise.all(pending)).length).toBe(2);
  });
});

const offsetOf = (m: unknown): number => (m as { update: { Transaction: { value: { offset: number } } } }).update.Transaction.value.offset;

describe('group commit over HTTP and WebSocket: nothing of a group is seen before it is durable', () => {
  it('holds reads and stream messages until the group is durable', async () => {
    const sync = heldSync();
    const sim = await startTestSim({ syncWal: sync.sync });
    try {
      const post = async (p: string, body: unknown) => {
        const res = await fetch(`${sim.url}${p}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: res.status, json: (await res.json()) as Record<string, unknown> };
      };
      const alice = ((await post('/v2/parties', { partyIdHint: 'Alice' })).json.partyDetails as { party: string }).party;
      const ledgerEnd = async () => ((await (await fetch(`${sim.url}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
      const end0 = await ledgerEnd();

      // a stream of Alice's updates from the current end: what it gets before the group is durable is a failure
      const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/v2/updates`, ['daml.ws.auth']);
      const messages: unknown[] = [];
      ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8'))));
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      ws.send(
        JSON.stringify({
          beginExclusive: end0,
          updateFormat: {
            includeTransactions: {
              eventFormat: { filtersByParty: { [alice]: {} }, verbose: false },
              transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
            },
          },
        }),
      );

      // A group of one is synced by SQLite inside COMMIT, so batches are sent until a group of several is held.
      const answered: number[] = [];
      const submits: Array<Promise<unknown>> = [];
      let n = 0;
      while (sync.held() === 0) {
        const batch = Array.from({ length: 4 }, () =>
          post('/v2/commands/submit-and-wait', { commandId: `http-${++n}`, actAs: [alice], commands: [createIou(alice, alice, '1')] }).then(
            (a) => {
              expect(a.status).toBe(200);
              answered.push(a.json.completionOffset as number);
            },
          ),
        );
        submits.push(...batch);
        let done = false;
        void Promise.all(batch).then(() => (done = true));
        await until(() => done || sync.held() === 1);
      }
      // a group is committed and held: what readers may see ends at the last answered command
      const durable = Math.max(end0, ...answered);
      const answeredBefore = answered.length;
      let endSeen: number | undefined;
      const endRead = ledgerEnd().then((e) => (endSeen = e));
      await turns(20);
      expect(endSeen).toBeUndefined();
      expect(answered.length).toBe(answeredBefore);
      for (const m of messages) expect(offsetOf(m)).toBeLessThanOrEqual(durable);
      sync.passThrough();
      await Promise.all(submits);
      await endRead;
      expect(endSeen).toBeGreaterThan(durable);
      const last = Math.max(...answered);
      expect(last).toBe(end0 + n);
      await until(() => messages.length === n);
      expect(messages.map(offsetOf)).toEqual(Array.from({ length: n }, (_, i) => end0 + 1 + i));
      ws.close();
    } finally {
      sync.passThrough();
      await sim.dispose();
    }
  });
});
