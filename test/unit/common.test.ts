/**
 * src/common: the primitives the console, the simulator and the renderer share (decimals, the versioned-message
 * envelope, unverified JWT claims, short identifiers). Checked against things we did not write where they exist:
 * Canton's proto definitions (protobufjs encodes the envelope) and jose-signed tokens.
 */
import { SignJWT } from 'jose';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { compareDecimal, formatDecimal, isDecimal, parseDecimal } from '../../src/common/decimal.js';
import { shortenId, shortNamespace, shortParty } from '../../src/common/ids.js';
import { jwtExpiry, jwtSubject, unverifiedClaims } from '../../src/common/jwt.js';
import { unwrapVersioned, wrapVersioned } from '../../src/common/versioned.js';

describe('decimals', () => {
  it('parses exactly at a scale and formats every fractional digit', () => {
    expect(parseDecimal('42.5', 10)).toBe(425_000_000_000n);
    expect(parseDecimal('-0.0000000001', 10)).toBe(-1n);
    expect(formatDecimal(425_000_000_000n, 10)).toBe('42.5000000000');
    expect(formatDecimal(-1n, 10)).toBe('-0.0000000001');
    expect(formatDecimal(7n, 0)).toBe('7');
  });
  it('refuses what Daml Numeric refuses in exact mode, and truncates only when asked', () => {
    expect(parseDecimal('1.00000000001', 10)).toBeNull(); // would lose a digit
    expect(parseDecimal('1.00000000000', 10)).toBe(10_000_000_000n); // trailing zeros lose nothing
    expect(parseDecimal('1'.repeat(29), 10)).toBeNull(); // beyond 38 digits of precision
    expect(parseDecimal(' 1.5', 10)).toBeNull();
    expect(parseDecimal('1e5', 10)).toBeNull();
    expect(parseDecimal(' 1.00000000009 ', 10, 'truncate')).toBe(10_000_000_000n);
  });
  it('compares at any scale without floating point', () => {
    expect(compareDecimal('0.1', '0.10')).toBe(0);
    expect(compareDecimal('-1.25', '-1.2')).toBe(-1);
    expect(compareDecimal('10000000000000000000000.000000000001', '10000000000000000000000')).toBe(1);
    expect(() => compareDecimal('1', 'x')).toThrow('Not a decimal: x');
    expect(isDecimal('12.')).toBe(false);
  });
});

describe('UntypedVersionedMessage envelope', () => {
  const root = protobuf.Root.fromJSON({
    nested: { UntypedVersionedMessage: { fields: { data: { type: 'bytes', id: 1 }, version: { type: 'int32', id: 2 } } } },
  });
  const Message = root.lookupType('UntypedVersionedMessage');
  const data = Uint8Array.from({ length: 300 }, (_, i) => i % 256);

  it('writes what protobuf writes and reads what protobuf writes', () => {
    const theirs = Message.encode({ data, version: 30 }).finish();
    expect(Buffer.from(wrapVersioned(data, 30))).toEqual(Buffer.from(theirs));
    const r = unwrapVersioned(theirs);
    expect(r.ok && Buffer.from(r.data).equals(Buffer.from(data)) && r.version).toBe(30);
    // version 0 is proto3's default: not written, read back as 0
    expect(Buffer.from(wrapVersioned(data, 0))).toEqual(Buffer.from(Message.encode({ data, version: 0 }).finish()));
  });
  it('says why bytes are not an envelope', () => {
    expect(unwrapVersioned(Uint8Array.from([0x10, 0x1e]))).toEqual({ ok: false, error: 'no data' });
    expect(unwrapVersioned(Uint8Array.from([0x0a, 0x05, 0x01]))).toEqual({ ok: false, error: 'data longer than the message' });
    expect(unwrapVersioned(Uint8Array.from([0x18, 0x01]))).toEqual({ ok: false, error: 'unexpected field 3 (wire type 0)' });
    expect(unwrapVersioned(Uint8Array.from([0x0a, 0xff]))).toEqual({ ok: false, error: 'truncated varint' });
  });
});

describe('unverified JWT claims', () => {
  it('reads the subject and expiry of a jose-signed token', async () => {
    const token = await new SignJWT({ scope: 'daml_ledger_api' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setExpirationTime(1_900_000_000)
      .sign(new TextEncoder().encode('k'.repeat(32)));
    expect(jwtSubject(token)).toBe('alice');
    expect(jwtExpiry(token)).toBe(1_900_000_000_000);
    expect(unverifiedClaims(token)?.scope).toBe('daml_ledger_api');
  });
  it('is null for what is not a JWT with an object payload', () => {
    const b64 = (v: string) => Buffer.from(v).toString('base64url');
    expect(unverifiedClaims('opaque-token')).toBeNull();
    expect(unverifiedClaims(`${b64('{}')}.${b64('[1]')}.sig`)).toBeNull();
    expect(unverifiedClaims(`${b64('{}')}.%%%.sig`)).toBeNull();
    expect(jwtSubject(`${b64('{}')}.${b64('{"sub":""}')}.`)).toBeNull();
    expect(jwtExpiry(`${b64('{}')}.${b64('{"exp":-5}')}.`)).toBeNull();
  });
});

describe('short identifiers', () => {
  const ns = `1220${'ab'.repeat(31)}cdef`;
  it('keeps the hint and both ends of the namespace', () => {
    expect(shortParty(`alice::${ns}`)).toBe('alice::1220abab…cdef');
    expect(shortParty(`alice::${ns}`, 12, 6)).toBe('alice::1220abababab…abcdef');
    expect(shortParty('Bob::1220ab')).toBe('Bob::1220ab');
    expect(shortParty('x'.repeat(30))).toBe(`${'x'.repeat(12)}…${'x'.repeat(6)}`);
    expect(shortNamespace(ns)).toBe('1220abab…cdef');
  });
  it('shortens other identifiers keeping `keep` characters at each end', () => {
    expect(shortenId(`global-domain::${ns}`, 4)).toBe('global-domain::1220…cdef');
    expect(shortenId('sync::abcd')).toBe('sync::abcd');
    expect(shortenId('00'.repeat(40), 2)).toBe('0000…0000');
  });
});
