import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../src/simulator/index.js';
import {
  IOU,
  acs,
  acsCreated,
  allocate,
  call,
  cantonError,
  createIou,
  exercise,
  ledgerEnd,
  makeTempDir,
  startTestSim,
  submitTx,
  updates,
  wildcard,
} from './helpers.js';
import type { TestSim } from './helpers.js';
import { rmSync } from 'node:fs';
import { must } from '../../support/must.js';

describe('durability, reassignment, pruning and time', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
  });
  const start = async (opts: Parameters<typeof startTestSim>[0] = {}): Promise<TestSim> => {
    const s = await startTestSim(opts);
    cleanup.push(() => s.dispose());
    return s;
  };

  it('restarts at the same ledger end with the same contracts, ids, offsets and dedup state', async () => {
    const dir = makeTempDir();
    cleanup.push(() => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    });
    const s1 = await startSimulator({ dataDir: dir, port: 0 });
    const bank = await allocate(s1.url, 'Bank');
    const alice = await allocate(s1.url, 'Alice');
    const c = await submitTx(s1.url, [bank], [createIou(bank, alice, '10')]);
    await submitTx(s1.url, [alice], [exercise(IOU, c.created[0]?.contractId as string, 'Iou_Split', { splitAmount: '4' })]);
    const dedupBody = { commandId: 'restart-dedup', actAs: [bank], commands: [createIou(bank, bank, '1')] };
    expect((await call(s1.url, 'POST', '/v2/commands/submit-and-wait', { body: dedupBody })).status).toBe(200);
    const end1 = await ledgerEnd(s1.url);
    const acs1 = await acs(s1.url, wildcard(alice, bank));
    const upd1 = (await updates(s1.url, { beginExclusive: 0, filter: wildcard(alice, bank) })).json;
    await s1.close();

    const s2 = await startSimulator({ dataDir: dir, port: 0 });
    try {
      expect(s2.participantId).toBe(s1.participantId);
      expect(await ledgerEnd(s2.url)).toBe(end1);
      expect(await acs(s2.url, wildcard(alice, bank))).toEqual(acs1);
      expect((await updates(s2.url, { beginExclusive: 0, filter: wildcard(alice, bank) })).json).toEqual(upd1);
      const dup = await call(s2.url, 'POST', '/v2/commands/submit-and-wait', { body: dedupBody });
      expect(cantonError(dup).code).toBe('DUPLICATE_COMMAND');
      // new offsets continue after the old ledger end
      const next = await submitTx(s2.url, [bank], [createIou(bank, alice, '2')]);
      expect(next.offset).toBe(end1 + 1);
    } finally {
      await s2.close();
    }
  });

  it('reassigns a contract: unassign (counter+1, incomplete in ACS) then assign on the target', async () => {
    const sim = await start();
    const bank = await allocate(sim.url, 'Bank');
    const alice = await allocate(sim.url, 'Alice');
    const syncs = (
      (await call(sim.url, 'GET', '/v2/state/connected-synchronizers')).json as { connectedSynchronizers: { synchronizerId: string }[] }
    ).connectedSynchronizers.map((s) => s.synchronizerId) as [string, string];
    const c = await submitTx(sim.url, [bank], [createIou(bank, alice, '10')]);
    const cid = c.created[0]?.contractId as string;
    const un = await call(sim.url, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
      body: {
        reassignmentCommands: {
          commandId: 'un-1',
          submitter: bank,
          commands: [{ command: { UnassignCommand: { value: { contractId: cid, source: syncs[0], target: syncs[1] } } } }],
        },
      },
    });
    expect(un.status).toBe(200);
    const unEvent = (
      un.json as { reassignment: { events: { JsUnassignedEvent: { value: { reassignmentId: string; reassignmentCounter: number } } }[] } }
    ).reassignment.events[0]?.JsUnassignedEvent.value;
    expect(unEvent?.reassignmentCounter).toBe(1);
    const mid = await acs(sim.url, wildcard(alice));
    expect(Object.keys(must(mid[0], 'an active contract').contractEntry as object)).toEqual(['JsIncompleteUnassigned']);
    // an unassigned contract cannot be used
    const use = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: { commandId: 'use-1', actAs: [alice], commands: [exercise(IOU, cid, 'Iou_Describe')] },
    });
    expect(cantonError(use).code).toBe('CONTRACT_NOT_FOUND');
    const as = await call(sim.url, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
      body: {
        reassignmentCommands: {
          commandId: 'as-1',
          submitter: alice,
          commands: [
            { command: { AssignCommand: { value: { reassignmentId: unEvent?.reassignmentId, source: syncs[0], target: syncs[1] } } } },
          ],
        },
      },
    });
    expect(as.status).toBe(200);
    const after = await acs(sim.url, wildcard(alice));
    const active = (after[0]?.contractEntry as { JsActiveContract: { synchronizerId: string; reassignmentCounter: number } })
      .JsActiveContract;
    expect(active.synchronizerId).toBe(syncs[1]);
    expect(active.reassignmentCounter).toBe(1);
    // the contract is usable on the new synchronizer
    const t = await submitTx(sim.url, [alice], [exercise(IOU, cid, 'Iou_Describe')]);
    expect(t.offset).toBeGreaterThan(0);
    // the ACS at past offsets shows where the contract was then
    const unOffset = (un.json as { reassignment: { offset: number } }).reassignment.offset;
    const asOffset = (as.json as { reassignment: { offset: number } }).reassignment.offset;
    const entryAt = async (o: number) =>
      (await acs(sim.url, wildcard(alice), o))[0]?.contractEntry as Record<
        string,
        { synchronizerId?: string; reassignmentCounter?: number }
      >;
    expect((await entryAt(unOffset - 1)).JsActiveContract).toMatchObject({ synchronizerId: syncs[0], reassignmentCounter: 0 });
    expect(Object.keys(await entryAt(unOffset))).toEqual(['JsIncompleteUnassigned']);
    expect((await entryAt(asOffset)).JsActiveContract).toMatchObject({ synchronizerId: syncs[1], reassignmentCounter: 1 });
    const stream = await updates(sim.url, { beginExclusive: 0, filter: wildcard(alice) });
    const kinds = (stream.json as { update: object }[]).map((u) => Object.keys(u.update)[0]);
    expect(kinds.filter((k) => k === 'Reassignment')).toHaveLength(2);
  });

  it('prunes: latest-pruned-offsets moves, reads below fail, the ACS survives', async () => {
    const sim = await start();
    const bank = await allocate(sim.url, 'Bank');
    const c = await submitTx(sim.url, [bank], [createIou(bank, bank, '10')]);
    await submitTx(sim.url, [bank], [exercise(IOU, c.created[0]?.contractId as string, 'Iou_Split', { splitAmount: '1' })]);
    const end = await ledgerEnd(sim.url);
    const pr = await fetch(`${sim.url}/simulator/admin/prune`, { method: 'POST', body: JSON.stringify({ pruneUpTo: end - 1 }) });
    expect(pr.status).toBe(200);
    const po = (await call(sim.url, 'GET', '/v2/state/latest-pruned-offsets')).json as { participantPrunedUpToInclusive: number };
    expect(po.participantPrunedUpToInclusive).toBe(end - 1);
    const r = await updates(sim.url, { beginExclusive: 0, filter: wildcard(bank) });
    expect(r.status).toBe(400);
    expect(cantonError(r).code).toBe('PARTICIPANT_PRUNED_DATA_ACCESSED');
    const ok = await updates(sim.url, { beginExclusive: end - 1, filter: wildcard(bank) });
    expect(ok.status).toBe(200);
    expect(acsCreated(await acs(sim.url, wildcard(bank)))).toHaveLength(2);
    const old = await call(sim.url, 'POST', '/v2/updates/update-by-offset', {
      body: {
        offset: 1,
        updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(bank) } },
      },
    });
    expect(cantonError(old).code).toBe('UPDATE_NOT_FOUND');
  });

  it('static time only moves when advanced through the admin endpoint', async () => {
    const sim = await start({ staticTime: true });
    const v = (await call(sim.url, 'GET', '/v2/version')).json as { features: { experimental: { staticTime: { supported: boolean } } } };
    expect(v.features.experimental.staticTime.supported).toBe(true);
    const bank = await allocate(sim.url, 'Bank');
    const a = await submitTx(sim.url, [bank], [createIou(bank, bank, '1')]);
    const b = await submitTx(sim.url, [bank], [createIou(bank, bank, '2')]);
    const t = (x: typeof a) => (x.created[0] as unknown as { createdAt: string }).createdAt;
    expect(t(b)).toBe(t(a));
    const adv = await fetch(`${sim.url}/simulator/admin/time/advance`, { method: 'POST', body: JSON.stringify({ seconds: 3600 }) });
    expect(adv.status).toBe(200);
    const c = await submitTx(sim.url, [bank], [createIou(bank, bank, '3')]);
    expect(Date.parse(t(c)) - Date.parse(t(a))).toBe(3_600_000);
  });
});
