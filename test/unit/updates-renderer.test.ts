/** Pure renderer helpers of the update view: windowing, buffer, rate, filter draft. */
import { describe, expect, it } from 'vitest';
import { moveSelection, scrollToReveal, visibleRange } from '../../renderer/src/lib/updates/virtual.js';
import { UpdateBuffer } from '../../renderer/src/lib/updates/buffer.js';
import { RateCounter, sparklinePath } from '../../renderer/src/lib/updates/rate.js';
import {
  describeCounts,
  describeFilter,
  emptyDraft,
  invalidIdentifiers,
  proposeIdentifiers,
  toFilter,
} from '../../renderer/src/lib/updates/filter.js';
import { parseLookup, parseOffset, rangeInvalid } from '../../renderer/src/lib/updates/offsets.js';
import { UpdateFilterSchema, type UpdateSummary } from '../../src/ipc/contract.js';

const row = (offset: number): UpdateSummary => ({
  offset,
  kind: 'transaction',
  updateId: `u${offset}`,
  recordTime: null,
  effectiveAt: null,
  commandId: null,
  workflowId: null,
  synchronizerId: null,
  eventCount: 1,
  counts: { created: 1, archived: 0, exercised: 0, assigned: 0, unassigned: 0, topology: 0 },
  templates: ['M:T'],
  parties: ['Alice::1220'],
  partyCount: 1,
});

describe('visibleRange', () => {
  it('renders only the rows in view plus overscan, whatever the list size', () => {
    const r = visibleRange(34 * 50_000, 680, 34, 100_000, 6);
    expect(r.start).toBe(50_000 - 6);
    expect(r.end - r.start).toBeLessThan(40);
    expect(visibleRange(0, 680, 34, 3)).toEqual({ start: 0, end: 3 });
    expect(visibleRange(0, 680, 34, 0)).toEqual({ start: 0, end: 0 });
    // Scrolled past the end (list shrank): still a valid window.
    const past = visibleRange(34 * 1_000, 680, 34, 10);
    expect(past.end).toBe(10);
    expect(past.start).toBeLessThanOrEqual(past.end);
  });

  it('reveals a row with the least scrolling', () => {
    expect(scrollToReveal(0, 340, 680, 34)).toBe(0);
    expect(scrollToReveal(15, 0, 340, 34)).toBe(16 * 34 - 340);
    expect(scrollToReveal(3, 0, 340, 34)).toBeNull();
  });

  it('moves the selection with arrows, pages, Home and End, clamped', () => {
    expect(moveSelection('ArrowDown', -1, 10, 5)).toBe(0);
    expect(moveSelection('ArrowDown', 9, 10, 5)).toBe(9);
    expect(moveSelection('ArrowUp', 0, 10, 5)).toBe(0);
    expect(moveSelection('PageDown', 2, 10, 5)).toBe(7);
    expect(moveSelection('End', 2, 10, 5)).toBe(9);
    expect(moveSelection('Home', 7, 10, 5)).toBe(0);
    expect(moveSelection('x', 2, 10, 5)).toBeNull();
    expect(moveSelection('ArrowDown', 0, 0, 5)).toBeNull();
  });
});

describe('UpdateBuffer', () => {
  it('keeps newest first across live appends and older pages, without duplicates', () => {
    const b = new UpdateBuffer();
    expect(b.add([row(10), row(9), row(8)])).toEqual({ added: 3, prepended: 1 });
    expect(b.add([row(11), row(12)])).toEqual({ added: 2, prepended: 2 });
    b.add([row(7), row(6)]);
    expect(b.add([row(12), row(6)]).added).toBe(0);
    expect(Array.from({ length: b.size }, (_, i) => b.at(i)?.offset)).toEqual([12, 11, 10, 9, 8, 7, 6]);
    expect(b.indexOfOffset(9)).toBe(3);
    expect(b.indexOfOffset(100)).toBe(-1);
    expect(b.nearestIndex(100)).toBe(0);
    expect(b.nearestIndex(1)).toBe(-1);
  });

  it('fills gaps in order', () => {
    const b = new UpdateBuffer();
    b.add([row(20), row(10)]);
    b.add([row(15)]);
    expect([b.at(0)?.offset, b.at(1)?.offset, b.at(2)?.offset]).toEqual([20, 15, 10]);
  });

  it('handles 100,000 rows quickly', () => {
    const b = new UpdateBuffer();
    const t = performance.now();
    for (let start = 1; start <= 100_000; start += 1_000) b.add(Array.from({ length: 1_000 }, (_, i) => row(start + i)));
    expect(b.size).toBe(100_000);
    expect(b.at(0)?.offset).toBe(100_000);
    expect(b.indexOfOffset(1)).toBe(99_999);
    expect(performance.now() - t).toBeLessThan(1_000);
  });
});

describe('RateCounter and sparkline', () => {
  it('counts per second over a sliding window', () => {
    const c = new RateCounter(5, 10_000);
    c.record(3, 10_100);
    c.record(2, 10_900);
    c.record(4, 12_000);
    expect(c.series(12_500)).toEqual([0, 0, 5, 0, 4]);
    expect(c.series(30_000)).toEqual([0, 0, 0, 0, 0]);
  });

  it('draws a path scaled to the peak', () => {
    const p = sparklinePath([0, 5, 10], 100, 20, 0);
    expect(p.max).toBe(10);
    expect(p.line).toBe('M0.0,20.0L50.0,10.0L100.0,0.0');
    expect(p.area.endsWith('Z')).toBe(true);
    expect(sparklinePath([], 100, 20).line).toBe('');
  });
});

describe('filter draft', () => {
  it('turns the draft into a contract filter, normalising package-name ids', () => {
    const d = { ...emptyDraft(), parties: ['Alice::1'], templates: 'my-pkg:Main:Iou,  #other:A.B:C\n', shape: 'LEDGER_EFFECTS' as const };
    const f = UpdateFilterSchema.parse(toFilter(d));
    expect(f.templates).toEqual(['#my-pkg:Main:Iou', '#other:A.B:C']);
    expect(f.shape).toBe('LEDGER_EFFECTS');
    expect(describeFilter(f)).toBe('Alice · 2 templates/interfaces · ledger effects');
    expect(describeFilter(UpdateFilterSchema.parse({}))).toBe('any party · all templates · ACS delta');
  });

  it('keeps package-id references as they are and flags malformed ids', () => {
    const pkgId = 'a'.repeat(64);
    expect(UpdateFilterSchema.parse({ templates: [`${pkgId}:M:T`] }).templates).toEqual([`${pkgId}:M:T`]);
    expect(invalidIdentifiers('ok:M:T Main:Iou a:b:c:d')).toEqual(['Main:Iou', 'a:b:c:d']);
    expect(UpdateFilterSchema.safeParse({ templates: ['Main:Iou'] }).success).toBe(false);
  });

  it('describes event counts', () => {
    expect(describeCounts({ ...row(1), counts: { created: 2, archived: 1, exercised: 1, assigned: 0, unassigned: 0, topology: 0 } })).toBe(
      '1 exercised · 2 created · 1 archived',
    );
  });
});

describe('template filter proposals', () => {
  const known = [
    { packageName: 'simulator-demo', qualifiedName: 'Demo.Iou:Iou' },
    { packageName: 'simulator-demo', qualifiedName: 'Demo.Iou:IouProposal' },
    { packageName: 'splice-amulet', qualifiedName: 'Splice.Amulet:Amulet' },
  ];
  it('proposes the full id for Module:Entity or the entity alone', () => {
    expect(proposeIdentifiers('Demo.Iou:Iou', known)).toEqual(['#simulator-demo:Demo.Iou:Iou']);
    expect(proposeIdentifiers('amulet', known)).toEqual(['#splice-amulet:Splice.Amulet:Amulet']);
    expect(proposeIdentifiers('simulator-demo:Demo.Iou:IouProposal', known)).toEqual([]); // already an identifier
    expect(proposeIdentifiers('Nothing:Here', known)).toEqual([]);
  });
});

describe('typed offsets', () => {
  it('reads whole numbers of at most 15 digits, empty as none', () => {
    expect(parseOffset(' 42 ')).toBe(42);
    expect(parseOffset('')).toBeNull();
    expect(parseOffset('4.2')).toBe('invalid');
    expect(parseOffset('1234567890123456')).toBe('invalid');
  });
  it('refuses a range whose end is below its start', () => {
    expect(rangeInvalid(10, 5)).toBe(true);
    expect(rangeInvalid(5, 10)).toBe(false);
    expect(rangeInvalid(null, 3)).toBe(false);
    expect(rangeInvalid('invalid', null)).toBe(true);
  });
  it('looks up an offset from 1 on, anything else as an update id', () => {
    expect(parseLookup('7')).toEqual({ offset: 7 });
    expect(parseLookup(' 1220abc ')).toEqual({ updateId: '1220abc' });
    expect(parseLookup('  ')).toBeNull();
    expect(parseLookup('0')).toEqual(new Error('Offsets start at 1'));
  });
});
