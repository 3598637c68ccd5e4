/** Plain-language lines for a "Test connection" result (pure; unit-tested). */
import type { ConnectionTest, Right } from '../../../../src/ipc/contract.js';

/** "Participant admin · act as 2 parties · read as 1 party", or "No rights" for a user with none. */
export function rightsSummary(rights: Right[]): string {
  const parts: string[] = [];
  const global: Array<[Right['kind'], string]> = [
    ['ParticipantAdmin', 'Participant admin'],
    ['IdentityProviderAdmin', 'Identity provider admin'],
    ['CanReadAsAnyParty', 'Read as any party'],
    ['CanExecuteAsAnyParty', 'Execute as any party'],
  ];
  for (const [kind, label] of global) if (rights.some((r) => r.kind === kind)) parts.push(label);
  const perParty: Array<[Right['kind'], string]> = [
    ['CanActAs', 'act as'],
    ['CanReadAs', 'read as'],
    ['CanExecuteAs', 'execute as'],
  ];
  for (const [kind, verb] of perParty) {
    const n = rights.filter((r) => r.kind === kind).length;
    if (n > 0) parts.push(`${verb} ${n} ${n === 1 ? 'party' : 'parties'}`);
  }
  if (parts.length === 0) return 'No rights';
  const text = parts.join(' · ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** When the token expires, relative to `now`: "expires 14:05:10 (in 59 min)"; "no expiry known" when null. */
export function expiryText(expiresAt: string | null, now: number = Date.now()): string {
  if (!expiresAt) return 'no expiry known';
  const at = Date.parse(expiresAt);
  const mins = Math.round((at - now) / 60_000);
  const time = new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  if (at <= now) return `expired at ${time}`;
  const rel = mins < 1 ? 'in under a minute' : mins < 120 ? `in ${mins} min` : `in ${Math.round(mins / 60)} h`;
  return `expires ${time} (${rel})`;
}

export function tokenLine(test: ConnectionTest): string {
  const t = test.token;
  if (t.status !== 'ok') return t.status === 'skipped' ? 'Not attempted' : 'Could not obtain a token';
  if (t.source === 'none') return 'No token needed (no authentication)';
  const store = t.secretStore === 'encrypted-file' ? 'the encrypted secret file' : 'the OS keychain';
  const from = t.source === 'static' ? `Static token from ${store}` : `Obtained from the token endpoint (client secret from ${store})`;
  return `${from} · ${expiryText(t.expiresAt)}`;
}
