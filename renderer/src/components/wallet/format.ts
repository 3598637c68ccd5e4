/** Display helpers of the wallet views (pure; no DOM). */
import type { OfferStatus } from '../../../../src/ipc/contract.js';
import { formatDecimal as decimalText, isDecimal, parseDecimal } from '../../../../src/common/decimal.js';
import { dateTimeText, formatDecimal } from '../../lib/format.js';

/**
 * "1,250.5" from a Daml decimal string, exactly (no floating point), rounded half up to at most `digits` decimals,
 * trailing zeros dropped — the console's one amount format (lib/format.ts formatDecimal). Numbers (chart values) are
 * formatted the same way through toLocaleString.
 */
export function formatAmount(value: string | number, digits = 4): string {
  if (typeof value === 'string') {
    const t = value.trim();
    if (!isDecimal(t)) return value;
    const scale = t.split('.')[1]?.length ?? 0;
    if (scale <= digits) return formatDecimal(t);
    const v = parseDecimal(t, scale, 'truncate') ?? 0n;
    const unit = 10n ** BigInt(scale - digits);
    const rounded = ((v < 0n ? -v : v) + unit / 2n) / unit;
    return formatDecimal(decimalText(v < 0n ? -rounded : rounded, digits));
  }
  if (!Number.isFinite(value)) return String(value);
  return value.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: digits }).replace(/^-/, '−');
}

/** Signed amount for history rows: "+500", "−42.5". */
export function signedAmount(value: string | null): string {
  if (value === null) return '—';
  const t = value.trim();
  if (!isDecimal(t)) return value;
  const abs = formatAmount(t.replace(/^-/, ''));
  if (abs === '0') return '0';
  return `${t.startsWith('-') ? '−' : '+'}${abs}`;
}

/** "3 d 4 h", "12 min", "just created" — the age of a holding. */
export function age(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '—';
  const s = Math.max(0, Math.floor((now - at) / 1000));
  if (s < 60) return 'under a minute';
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** Local date and time: the console's one date format (lib/format.ts dateTimeText), "2026-11-23 14:03:07". */
export function dateTime(iso: string): string {
  return dateTimeText(iso);
}

/** Label and badge class of a tracked request's status. */
export function statusBadge(s: OfferStatus): { label: string; cls: string } {
  switch (s.status) {
    case 'created':
      return { label: 'Waiting for the receiver', cls: 'badge-accent' };
    case 'accepted':
      return { label: 'Accepted — completing', cls: 'badge-warning' };
    case 'completed':
      return { label: 'Completed', cls: 'badge-ok' };
    case 'failed':
      return { label: `Failed: ${s.failureKind ?? 'unknown reason'}`, cls: 'badge-fail' };
    default:
      return { label: 'Status unavailable', cls: '' };
  }
}

/** Operation names of the validator's history, in words. */
export function operationLabel(op: string): string {
  const known: Record<string, string> = {
    tap: 'Tap (faucet)',
    transfer: 'Transfer',
    merge: 'Merge holdings',
    buy_member_traffic: 'Buy traffic',
    AmuletRules_CreateTransferOffer: 'Transfer offer created',
    TransferOffer_Withdraw: 'Offer withdrawn',
    TransferOffer_Reject: 'Offer rejected',
    TransferOffer_Expire: 'Offer expired',
    AcceptedTransferOffer_Expire: 'Accepted offer expired',
    TransferOffer_Accept: 'Offer accepted',
    TransferPreapproval_Send: 'Preapproved transfer',
    Create: 'Created',
  };
  return known[op] ?? op.replaceAll('_', ' ');
}

/** Points of the balance chart in a `width`×`height` box with padding; y from 0 (or the minimum) to the maximum. */
export function chartPoints(
  series: ReadonlyArray<{ at: string; total: number }>,
  width: number,
  height: number,
  pad: { left: number; right: number; top: number; bottom: number },
): { points: Array<{ x: number; y: number; at: string; total: number }>; min: number; max: number; t0: number; t1: number } {
  const ts = series.map((s) => Date.parse(s.at));
  const t0 = Math.min(...ts);
  const t1 = Math.max(...ts);
  const max = Math.max(...series.map((s) => s.total), 0);
  const min = Math.min(0, ...series.map((s) => s.total));
  const span = t1 - t0 || 1;
  const range = max - min || 1;
  const w = width - pad.left - pad.right;
  const h = height - pad.top - pad.bottom;
  const points = series.map((s, i) => ({
    x: pad.left + (series.length === 1 ? w : (((ts[i] ?? t0) - t0) / span) * w),
    y: pad.top + h - ((s.total - min) / range) * h,
    at: s.at,
    total: s.total,
  }));
  return { points, min, max, t0, t1 };
}
