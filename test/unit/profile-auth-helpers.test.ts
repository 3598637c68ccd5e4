/** Small pure parts of profile authentication: JWT expiry, the static token provider, the test-result summary lines. */
import { describe, expect, it } from 'vitest';
import { jwtExpiry } from '../../src/common/jwt.js';
import { StaticTokenProvider } from '../../src/services/auth/static-token.js';
import { expiryText, rightsSummary } from '../../renderer/src/lib/connections/test-summary.js';
import { stringContaining } from '../support/matchers.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const jwt = (claims: unknown) => `${b64({ alg: 'HS256' })}.${b64(claims)}.sig`;

describe('jwtExpiry', () => {
  it('reads exp (seconds) as epoch ms, and null for opaque tokens or tokens without exp', () => {
    expect(jwtExpiry(jwt({ sub: 'a', exp: 1_900_000_000 }))).toBe(1_900_000_000_000);
    expect(jwtExpiry(jwt({ sub: 'a' }))).toBeNull();
    expect(jwtExpiry('opaque-token')).toBeNull();
    expect(jwtExpiry('a.!!!.c')).toBeNull();
  });
});

describe('StaticTokenProvider', () => {
  it('reads the token per call, offers a retry only when the stored token changed, and says when it is missing', async () => {
    let stored: string | null = jwt({ sub: 'x', exp: 1_900_000_000 });
    const p = new StaticTokenProvider(() => Promise.resolve(stored), 'Prod');
    const first = await p.token();
    expect(first).toEqual({ value: stored, expiresAt: 1_900_000_000_000 });
    expect(await p.refresh(first.value)).toBeNull();
    stored = 'replaced-token';
    expect(await p.refresh(first.value)).toEqual({ value: 'replaced-token', expiresAt: null });
    stored = null;
    await expect(p.token()).rejects.toMatchObject({ code: 'AUTH_FAILED', message: stringContaining('“Prod”') });
  });
});

describe('connection test summary', () => {
  it('summarises rights', () => {
    expect(rightsSummary([])).toBe('No rights');
    expect(
      rightsSummary([
        { kind: 'ParticipantAdmin' },
        { kind: 'CanActAs', party: 'a::1' },
        { kind: 'CanActAs', party: 'b::1' },
        { kind: 'CanReadAs', party: 'c::1' },
      ]),
    ).toBe('Participant admin · act as 2 parties · read as 1 party');
    expect(rightsSummary([{ kind: 'CanReadAs', party: 'c::1' }])).toBe('Read as 1 party');
  });

  it('describes the expiry relative to now', () => {
    const now = Date.parse('2026-01-01T10:00:00Z');
    expect(expiryText(null, now)).toBe('no expiry known');
    expect(expiryText('2026-01-01T10:59:00Z', now)).toMatch(/^expires .+ \(in 59 min\)$/);
    expect(expiryText('2026-01-01T15:00:00Z', now)).toMatch(/\(in 5 h\)$/);
    expect(expiryText('2026-01-01T09:00:00Z', now)).toMatch(/^expired at /);
  });
});
