/** The wallet's amounts and dates follow the console's one amount format and one date format. */
import { describe, expect, it } from 'vitest';
import { dateTime, formatAmount, signedAmount } from '../../renderer/src/components/wallet/format.js';
import { dateTimeText } from '../../renderer/src/lib/format.js';

describe('wallet display', () => {
  it('formats Daml decimals exactly, rounded half up to 4 places, grouped, with a true minus', () => {
    expect(formatAmount('25.0000000000')).toBe('25');
    expect(formatAmount('1250.5')).toBe('1,250.5');
    expect(formatAmount('0.00005')).toBe('0.0001');
    expect(formatAmount('-0.00004')).toBe('0');
    expect(formatAmount('12345678901234567890.123456789')).toBe('12,345,678,901,234,567,890.1235');
    expect(formatAmount('-42.125', 2)).toBe('−42.13');
    expect(formatAmount('not a number')).toBe('not a number');
    expect(formatAmount(1234.5)).toBe('1,234.5');
  });
  it('signs history amounts the same way', () => {
    expect(signedAmount('-25.0000000000')).toBe('−25');
    expect(signedAmount('500')).toBe('+500');
    expect(signedAmount('0.0000000000')).toBe('0');
    expect(signedAmount(null)).toBe('—');
  });
  it('writes dates as the rest of the console', () => {
    const iso = '2026-11-25T11:20:09.123Z';
    expect(dateTime(iso)).toBe(dateTimeText(iso));
    expect(dateTime(iso)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});
