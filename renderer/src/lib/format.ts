/** Pure display helpers for the renderer (no DOM access, unit-tested in test/unit/renderer-format.test.ts). */

/** Identifiers are shortened the same way on both sides of the contract (src/common/ids.ts). */
export { shortenId } from '../../../src/common/ids.js';

/** Offsets are positive int64 values; shown in full (operators copy them), 0 means "ledger begin". */
export function formatOffset(offset: number): string {
  if (!Number.isFinite(offset) || offset < 0) return '—';
  return Math.trunc(offset).toString();
}

/** A pruning watermark: 0 means nothing has been pruned yet. */
export function describePruned(offset: number): { pruned: boolean; text: string } {
  if (!Number.isFinite(offset) || offset <= 0) return { pruned: false, text: 'Not pruned' };
  return { pruned: true, text: `Up to offset ${formatOffset(offset)}` };
}

/** "just now", "12 s ago", "3 min ago", "2 h ago", "4 d ago". `now` is injected so it can be ticked and tested. */
export function relativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return 'unknown';
  const seconds = Math.floor((now - at) / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** Local wall-clock time with seconds, e.g. "14:03:07"; the full timestamp goes in a tooltip. */
export function clockTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '—';
  const pad = (n: number) => n.toString().padStart(2, '0');
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

/** Whether the page is stale: no successful refresh within `factor` polling intervals. */
export function isStale(fetchedAtIso: string, now: number, intervalMs: number, factor = 3): boolean {
  const at = Date.parse(fetchedAtIso);
  if (Number.isNaN(at)) return true;
  return now - at > intervalMs * factor;
}

/** `PARTICIPANT_PERMISSION_SUBMISSION` → "Submission"; other values are shown as given. */
export function formatPermission(permission: string): string {
  const match = /^PARTICIPANT_PERMISSION_([A-Z_]+)$/.exec(permission);
  if (!match?.[1]) return permission;
  const words = match[1].toLowerCase().split('_');
  return words.map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}

/** Picker label: the demo profile is marked as the embedded simulator unless its name already says so. */
export function profileLabel(profile: { name: string; kind: 'demo' | 'remote' }): string {
  if (profile.kind !== 'demo' || /embedded simulator/i.test(profile.name)) return profile.name;
  return `${profile.name} (embedded simulator)`;
}

/**
 * A Daml decimal (Numeric/Decimal text) as the console shows amounts everywhere: exact (no floating point), trailing
 * zeros dropped, thousands grouped, a true minus sign — "1,250.5", "25", "−0.0001". Text that is not a decimal is
 * returned unchanged.
 */
export function formatDecimal(value: string): string {
  const m = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!m) return value;
  const int = (m[2] ?? '0').replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const zero = /^0*$/.test(int) && frac === '';
  return `${m[1] === '-' && !zero ? '−' : ''}${grouped}${frac ? `.${frac}` : ''}`;
}

/** Local date and time with seconds, the one date format of the console: "2026-11-23 14:03:07". */
export function dateTimeText(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso === '' ? '—' : iso;
  const p = (n: number) => n.toString().padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
