/**
 * What changed between two versions of a key's policy, rule by rule, and in which direction: looser (signs more),
 * stricter (signs less) or changed (neither contains the other). Shown before a policy file or a backup replaces
 * a policy, and written into the audit entry of every change.
 */
import { compareDecimal } from './decimal.js';
import type { SigningPolicy } from './policy.js';

export type Direction = 'looser' | 'stricter' | 'changed';
export interface PolicyChange {
  rule: string;
  from: string;
  to: string;
  direction: Direction;
}

const LIST_RULES = [
  ['allowedTemplates', 'allowed templates'],
  ['allowedChoices', 'allowed choices'],
  ['allowedCounterparties', 'allowed counterparties'],
] as const;

function showList(l: string[] | null): string {
  return l === null ? 'any' : l.length === 0 ? 'none' : l.join(', ');
}

/** null = any (the loosest); a subset is stricter, a superset looser. */
function listDirection(a: string[] | null, b: string[] | null): Direction {
  if (a === null) return 'stricter';
  if (b === null) return 'looser';
  const bInA = b.every((x) => a.includes(x));
  const aInB = a.every((x) => b.includes(x));
  return bInA ? 'stricter' : aInB ? 'looser' : 'changed';
}

/** A limit: null = none (the loosest); a lower limit is stricter. */
function limitDirection(a: string | null, b: string | null): Direction {
  if (a === null) return 'stricter';
  if (b === null) return 'looser';
  return compareDecimal(b, a) < 0 ? 'stricter' : 'looser';
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function comparePolicies(from: SigningPolicy, to: SigningPolicy): PolicyChange[] {
  const out: PolicyChange[] = [];
  for (const [key, rule] of LIST_RULES) {
    const a = from[key];
    const b = to[key];
    if (!same(a === null ? null : [...a].sort(), b === null ? null : [...b].sort()))
      out.push({ rule, from: showList(a), to: showList(b), direction: listDirection(a, b) });
  }
  if (from.maxAmountPerTransaction !== to.maxAmountPerTransaction) {
    out.push({
      rule: 'amount limit',
      from: from.maxAmountPerTransaction ?? 'none',
      to: to.maxAmountPerTransaction ?? 'none',
      direction: limitDirection(from.maxAmountPerTransaction, to.maxAmountPerTransaction),
    });
  }
  if (from.requireOfflineConfirmation !== to.requireOfflineConfirmation) {
    out.push({
      rule: 'offline only',
      from: String(from.requireOfflineConfirmation),
      to: String(to.requireOfflineConfirmation),
      direction: to.requireOfflineConfirmation ? 'stricter' : 'looser',
    });
  }
  if (from.allowBlindSigning !== to.allowBlindSigning) {
    out.push({
      rule: 'blind signing',
      from: from.allowBlindSigning ? 'allowed' : 'refused',
      to: to.allowBlindSigning ? 'allowed' : 'refused',
      direction: to.allowBlindSigning ? 'looser' : 'stricter',
    });
  }
  if (!same(from.quorum, to.quorum)) {
    const show = (q: SigningPolicy['quorum']) => (q ? `${q.signatures} signatures above ${q.above}` : 'none');
    const a = from.quorum;
    const b = to.quorum;
    const direction: Direction =
      a === null
        ? 'stricter'
        : b === null
          ? 'looser'
          : b.signatures >= a.signatures && compareDecimal(b.above, a.above) <= 0
            ? 'stricter'
            : b.signatures <= a.signatures && compareDecimal(b.above, a.above) >= 0
              ? 'looser'
              : 'changed';
    out.push({ rule: 'quorum', from: show(a), to: show(b), direction });
  }
  return out;
}

/** One line for an audit entry: "amount limit 1000 → 500 (stricter); offline only false → true (stricter)". */
export function describeChanges(changes: PolicyChange[]): string {
  return changes.length === 0 ? 'no rule changed' : changes.map((c) => `${c.rule} ${c.from} → ${c.to} (${c.direction})`).join('; ');
}
