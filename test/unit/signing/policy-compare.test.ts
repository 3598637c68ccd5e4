/** Comparing two versions of a key's policy: which rules got looser (sign more) or stricter (sign less). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type SigningPolicy } from '../../../src/services/signing/policy.js';
import { comparePolicies, describeChanges } from '../../../src/services/signing/policy-compare.js';
import { must } from '../../support/must.js';

const p = (o: Partial<SigningPolicy>): SigningPolicy => ({ ...DEFAULT_POLICY, ...o });

describe('comparePolicies', () => {
  it('finds nothing between equal policies (list order does not matter)', () => {
    expect(comparePolicies(p({ allowedChoices: ['A', 'B'] }), p({ allowedChoices: ['B', 'A'] }))).toEqual([]);
  });
  it('calls a narrower list, a lower limit, offline-only, no blind signing and a quorum stricter', () => {
    const from = p({});
    const to = p({
      allowedChoices: ['Transfer'],
      maxAmountPerTransaction: '1000',
      requireOfflineConfirmation: true,
      allowBlindSigning: false,
      quorum: { above: '10000', signatures: 2 },
    });
    expect(comparePolicies(from, to).map((c) => [c.rule, c.direction])).toEqual([
      ['allowed choices', 'stricter'],
      ['amount limit', 'stricter'],
      ['offline only', 'stricter'],
      ['blind signing', 'stricter'],
      ['quorum', 'stricter'],
    ]);
    expect(comparePolicies(to, from).every((c) => c.direction === 'looser')).toBe(true);
  });
  it('compares limits exactly, lists by inclusion and quorums by both numbers', () => {
    expect(
      must(comparePolicies(p({ maxAmountPerTransaction: '1000' }), p({ maxAmountPerTransaction: '999.99' }))[0], 'a difference').direction,
    ).toBe('stricter');
    expect(
      must(comparePolicies(p({ allowedCounterparties: ['a'] }), p({ allowedCounterparties: ['a', 'b'] }))[0], 'a difference').direction,
    ).toBe('looser');
    expect(
      must(comparePolicies(p({ allowedCounterparties: ['a'] }), p({ allowedCounterparties: ['b'] }))[0], 'a difference').direction,
    ).toBe('changed');
    const q = (above: string, signatures: number) => p({ quorum: { above, signatures } });
    expect(must(comparePolicies(q('10000', 2), q('5000', 3))[0], "comparePolicies(q('10000', 2), q('5000', 3))[0]").direction).toBe(
      'stricter',
    );
    expect(must(comparePolicies(q('10000', 2), q('20000', 2))[0], "comparePolicies(q('10000', 2), q('20000', 2))[0]").direction).toBe(
      'looser',
    );
    expect(must(comparePolicies(q('10000', 2), q('5000', 1))[0], "comparePolicies(q('10000', 2), q('5000', 1))[0]").direction).toBe(
      'changed',
    );
  });
  it('describes the changes in one line for the audit log', () => {
    expect(describeChanges(comparePolicies(p({ maxAmountPerTransaction: '1000' }), p({ maxAmountPerTransaction: '500' })))).toBe(
      'amount limit 1000 → 500 (stricter)',
    );
    expect(describeChanges([])).toBe('no rule changed');
  });
});
