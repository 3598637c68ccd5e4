/** Contract value display and completion list helpers (renderer, pure). */
import { describe, expect, it } from 'vitest';
import { argumentPreview, describeEntry, formatNumeric, isPartyList, valueKind } from '../../renderer/src/lib/contracts/display.js';
import { cantonCodeOf, completionRow } from '../../src/services/ledger/completions-stream.js';
import { completionStatus, explainCantonCode, mergeCompletions } from '../../renderer/src/lib/commands/completions.js';
import type { CompletionRow, TimelineEntry } from '../../src/ipc/contract.js';

const P = 'Alice::1220' + 'a'.repeat(64);
const CID = '00' + 'ab'.repeat(33);

describe('contract values', () => {
  it('recognises parties, contract ids and decimals by shape', () => {
    expect(valueKind(P)).toBe('party');
    expect(valueKind(CID)).toBe('contractId');
    expect(valueKind('250.5000000000')).toBe('numeric');
    expect(valueKind('USD')).toBe('text');
    expect(valueKind({ tag: 'Some', value: 1 })).toBe('variant');
    expect(valueKind({ a: 1 })).toBe('record');
    expect(valueKind(null)).toBe('none');
    expect(isPartyList([P, P])).toBe(true);
    expect(isPartyList([P, 'x'])).toBe(false);
  });
  it('formats decimals without trailing zeros', () => {
    expect(formatNumeric('250.5000000000')).toBe('250.5');
    expect(formatNumeric('3.0000000000')).toBe('3');
    expect(formatNumeric('100')).toBe('100');
    expect(formatNumeric('-1250.5000000000')).toBe('−1,250.5');
  });
  it('previews text and numbers before parties', () => {
    expect(argumentPreview({ issuer: P, owner: P, currency: 'USD', amount: '10.0000000000', observers: [] })).toBe(
      'currency: USD · amount: 10 · issuer: Alice',
    );
  });
  it('describes timeline entries', () => {
    const base = {
      offset: 1,
      updateId: null,
      recordTime: null,
      synchronizerId: null,
      choice: null,
      consuming: null,
      actingParties: [],
      argument: null,
      result: null,
      createdContracts: [],
      commandId: null,
      targetSynchronizerId: null,
      reassignmentCounter: null,
    } satisfies Omit<TimelineEntry, 'kind'>;
    expect(describeEntry({ ...base, kind: 'exercised', choice: 'Iou_Split', consuming: true })).toBe('Iou_Split exercised (consuming)');
    expect(describeEntry({ ...base, kind: 'archived', choice: 'Iou_Split' })).toBe('Archived by Iou_Split');
    expect(describeEntry({ ...base, kind: 'unassigned', reassignmentCounter: 1 })).toBe('Unassigned → counter 1');
  });
});

describe('completions', () => {
  const row = (offset: number, commandId: string, statusCode = 0, cantonCode: string | null = null): CompletionRow => ({
    commandId,
    submissionId: null,
    updateId: null,
    userId: 'u',
    actAs: [P],
    offset,
    recordTime: null,
    synchronizerId: null,
    statusCode,
    cantonCode,
    message: '',
  });
  it('parses the Canton code from a status message', () => {
    expect(cantonCodeOf('DUPLICATE_COMMAND(10,abc): A command with the given command id has already been processed')).toBe(
      'DUPLICATE_COMMAND',
    );
    expect(cantonCodeOf('something else')).toBeNull();
    const r = completionRow({
      commandId: 'c',
      userId: 'u',
      actAs: [P],
      offset: 5,
      synchronizerTime: { synchronizerId: 's', recordTime: 't' },
      status: { code: 6, message: 'DUPLICATE_COMMAND(10,x): dup' },
    });
    expect(r).toMatchObject({ cantonCode: 'DUPLICATE_COMMAND', statusCode: 6, offset: 5, recordTime: 't' });
  });
  it('merges newest first without duplicates and says what a duplicate means', () => {
    const merged = mergeCompletions([row(2, 'b')], [row(3, 'c'), row(2, 'b'), row(4, 'd')]);
    expect(merged.map((r) => r.offset)).toEqual([4, 3, 2]);
    expect(completionStatus(row(1, 'x', 6, 'DUPLICATE_COMMAND'))).toEqual({ ok: false, label: 'DUPLICATE_COMMAND' });
    expect(completionStatus(row(1, 'x'))).toEqual({ ok: true, label: 'OK' });
    expect(explainCantonCode('DUPLICATE_COMMAND')).toMatch(/already used/);
  });
});
