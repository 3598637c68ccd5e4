import { describe, expect, it } from 'vitest';
import {
  clockTime,
  describePruned,
  formatOffset,
  formatPermission,
  isStale,
  profileLabel,
  relativeTime,
  shortenId,
} from '../../renderer/src/lib/format.js';
import { parseRoute, routeHash } from '../../renderer/src/lib/route.js';
import { resolveTheme, parseStoredTheme } from '../../renderer/src/lib/theme.js';

describe('renderer formatting', () => {
  it('shows offsets in full and treats 0 as "not pruned"', () => {
    expect(formatOffset(9_007_199_254_740_991)).toBe('9007199254740991');
    expect(formatOffset(-1)).toBe('—');
    expect(describePruned(0)).toEqual({ pruned: false, text: 'Not pruned' });
    expect(describePruned(42)).toEqual({ pruned: true, text: 'Up to offset 42' });
  });

  it('says how long ago a refresh happened', () => {
    const t = Date.parse('2026-01-01T12:00:00Z');
    expect(relativeTime('2026-01-01T12:00:00Z', t + 2_000)).toBe('just now');
    expect(relativeTime('2026-01-01T12:00:00Z', t + 12_000)).toBe('12 s ago');
    expect(relativeTime('2026-01-01T12:00:00Z', t + 3 * 60_000)).toBe('3 min ago');
    expect(relativeTime('2026-01-01T12:00:00Z', t + 5 * 3_600_000)).toBe('5 h ago');
    expect(relativeTime('2026-01-01T12:00:00Z', t + 72 * 3_600_000)).toBe('3 d ago');
    // A host clock slightly ahead of ours must not show a negative age.
    expect(relativeTime('2026-01-01T12:00:05Z', t)).toBe('just now');
    expect(relativeTime('garbage', t)).toBe('unknown');
  });

  it('formats wall-clock times with seconds', () => {
    expect(clockTime(new Date(2026, 0, 1, 9, 5, 7).toISOString())).toBe('09:05:07');
    expect(clockTime('nope')).toBe('—');
  });

  it('flags a snapshot as stale after three missed refreshes', () => {
    const t = Date.parse('2026-01-01T12:00:00Z');
    expect(isStale('2026-01-01T12:00:00Z', t + 5_000, 2_000)).toBe(false);
    expect(isStale('2026-01-01T12:00:00Z', t + 7_000, 2_000)).toBe(true);
  });

  it('shortens Canton identifiers but keeps prefix and both fingerprint ends', () => {
    const id = 'global-domain::1220ed02ed43aa5f2bd0d16d33b8d1e9f6b1f6391c8fcae';
    const short = shortenId(id, 8);
    expect(short.startsWith('global-domain::1220ed02')).toBe(true);
    expect(short.endsWith('391c8fcae'.slice(-8))).toBe(true);
    expect(short).toContain('…');
    expect(shortenId('sync::abcd')).toBe('sync::abcd');
  });

  it('turns participant permissions into words and leaves unknown values alone', () => {
    expect(formatPermission('PARTICIPANT_PERMISSION_SUBMISSION')).toBe('Submission');
    expect(formatPermission('PARTICIPANT_PERMISSION_CONFIRMATION')).toBe('Confirmation');
    expect(formatPermission('Observation')).toBe('Observation');
  });

  it('marks the demo profile as the embedded simulator exactly once', () => {
    expect(profileLabel({ name: 'Demo', kind: 'demo' })).toBe('Demo (embedded simulator)');
    expect(profileLabel({ name: 'Demo — embedded simulator', kind: 'demo' })).toBe('Demo — embedded simulator');
    expect(profileLabel({ name: 'Prod', kind: 'remote' })).toBe('Prod');
  });
});

describe('renderer routing and theme', () => {
  it('routes #/<id> to known views and anything else to the default', () => {
    const ids = ['dashboard', 'connections'];
    expect(parseRoute('#/connections', ids, 'dashboard')).toBe('connections');
    expect(parseRoute('#/nope', ids, 'dashboard')).toBe('dashboard');
    expect(parseRoute('#token=abc', ids, 'dashboard')).toBe('dashboard');
    expect(parseRoute('', ids, 'dashboard')).toBe('dashboard');
    expect(routeHash('connections')).toBe('#/connections');
  });

  it('follows the system theme until a choice is stored', () => {
    expect(resolveTheme(null, true)).toBe('dark');
    expect(resolveTheme(null, false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
    expect(resolveTheme('purple', true)).toBe('dark');
    expect(parseStoredTheme('purple')).toBeNull();
  });
});
