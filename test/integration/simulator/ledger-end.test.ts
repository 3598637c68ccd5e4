/**
 * The ledger end kept by LedgerStore on a real SQLite file: offsets allocated inside a transaction are stored once,
 * when the outermost transaction ends; a rolled-back savepoint gives its offsets back (the next allocation reuses
 * them, no gap); a rolled-back transaction leaves the stored end as it was. The stored end is read over a second
 * connection, as another process (or the next start) would read it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openCommitTestLedger } from './helpers.js';

const disposers: Array<() => void> = [];
afterAll(() => {
  for (const d of disposers) d();
});

function open() {
  const t = openCommitTestLedger('sim-ledger-end-');
  disposers.push(t.dispose);
  return t;
}

describe('the ledger end', () => {
  it('is stored when the outermost transaction ends, with every offset allocated in it', () => {
    const { sim, committedEnd } = open();
    const store = sim.store;
    const end0 = store.ledgerEnd();
    const seen: number[] = [];
    store.tx(() => {
      seen.push(store.nextOffset(), store.nextOffset());
      store.tx(() => seen.push(store.nextOffset()));
      // not yet committed: another connection still sees the end from before
      expect(committedEnd()).toBe(end0);
    });
    expect(seen).toEqual([end0 + 1, end0 + 2, end0 + 3]);
    expect(committedEnd()).toBe(end0 + 3);
    expect(store.ledgerEnd()).toBe(end0 + 3);
  });

  it('gives the offsets of a rolled-back savepoint back, in a group and in nested transactions', () => {
    const { sim, committedEnd } = open();
    const store = sim.store;
    const end0 = store.ledgerEnd();
    const failing = () => {
      store.nextOffset();
      throw new Error('fails after allocating');
    };
    // the group's plain run fails, the rerun puts each function in a savepoint
    const outcomes = store.txGroup([() => store.nextOffset(), failing, () => store.nextOffset()]);
    expect(outcomes.map((o) => (o.ok ? o.value : 'failed'))).toEqual([end0 + 1, 'failed', end0 + 2]);
    expect(committedEnd()).toBe(end0 + 2);

    const inner: number[] = [];
    store.tx(() => {
      inner.push(store.nextOffset());
      expect(() => store.tx(failing)).toThrow('fails after allocating');
      inner.push(store.nextOffset());
    });
    expect(inner).toEqual([end0 + 3, end0 + 4]);
    expect(committedEnd()).toBe(end0 + 4);
    expect(store.ledgerEnd()).toBe(end0 + 4);
  });

  it('stays as stored when a transaction that allocated offsets is rolled back', () => {
    const { sim, committedEnd } = open();
    const store = sim.store;
    const end0 = store.ledgerEnd();
    expect(() =>
      store.tx(() => {
        store.nextOffset();
        store.tx(() => store.nextOffset());
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(store.ledgerEnd()).toBe(end0);
    expect(committedEnd()).toBe(end0);
    expect(store.tx(() => store.nextOffset())).toBe(end0 + 1);
    expect(committedEnd()).toBe(end0 + 1);
  });
});
