/**
 * Text, Party, Date, Timestamp, ContractId and cryptography builtins with the results the Daml-LF 2 specification
 * defines (daml-lf-2.rst, "String functions", "Timestamp functions", "Date functions", "Party functions",
 * "ContractId functions", "Cryptography functions", "Conversions functions"). Expected digests are the standard test
 * vectors; signatures are made with node:crypto and @noble/curves (not our code).
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import type { Expr } from '../../../src/daml-lf/ast/ast.js';
import { K, listToArray, type V, type VList } from '../../../src/simulator/engine/lf/value.js';
import { call, date, evalExpr, i64, list, text, ts } from './lf-helpers.js';

const ev = (fn: string, ...args: Expr[]): V => evalExpr(call(fn, ...args));
const arr = (v: V): V[] => listToArray(v as VList);

describe('Text builtins', () => {
  it('APPEND_TEXT / IMPLODE_TEXT', () => {
    expect(ev('APPEND_TEXT', text('ab'), text('cd'))).toBe('abcd');
    expect(ev('IMPLODE_TEXT', list(text('a'), text('😀'), text('b')))).toBe('a😀b');
  });
  it('EXPLODE_TEXT splits into code points (a surrogate pair is one element)', () => {
    expect(arr(ev('EXPLODE_TEXT', text('a😀é')))).toEqual(['a', '😀', 'é']);
  });
  it('TEXT_TO_CODE_POINTS / CODE_POINTS_TO_TEXT; a surrogate or out-of-range code point is an error', () => {
    expect(arr(ev('TEXT_TO_CODE_POINTS', text('a😀')))).toEqual([97n, 128512n]);
    expect(ev('CODE_POINTS_TO_TEXT', list(i64(97), i64(128512)))).toBe('a😀');
    expect(() => ev('CODE_POINTS_TO_TEXT', list(i64(0xd800)))).toThrow('invalid code point 0xd800.');
    expect(() => ev('CODE_POINTS_TO_TEXT', list(i64(0x110000)))).toThrow(/invalid code point/);
  });
  it('SHA256_TEXT hashes the UTF-8 bytes (lower-case hex); SHA256_HEX hashes hex-decoded bytes', () => {
    expect(ev('SHA256_TEXT', text(''))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(ev('SHA256_TEXT', text('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(ev('SHA256_HEX', text('616263'))).toBe(createHash('sha256').update('abc').digest('hex'));
  });
  it('KECCAK256_TEXT of hex-encoded bytes; TEXT_TO_HEX / HEX_TO_TEXT; malformed hex is an error', () => {
    expect(ev('KECCAK256_TEXT', text(''))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(ev('TEXT_TO_HEX', text('hello'))).toBe('68656c6c6f');
    expect(ev('HEX_TO_TEXT', text('68656c6c6f'))).toBe('hello');
    expect(() => ev('HEX_TO_TEXT', text('6g'))).toThrow(/MalformedByteEncoding/);
    expect(() => ev('KECCAK256_TEXT', text('abc'))).toThrow(/MalformedByteEncoding/);
  });
});

describe('Party and ContractId builtins', () => {
  it('TEXT_TO_PARTY accepts PartyId strings [a-zA-Z0-9:\\-_ ]{1,255}; PARTY_TO_TEXT is its inverse', () => {
    expect(ev('TEXT_TO_PARTY', text('Alice::1220ab'))).toMatchObject({ k: K.Some, value: 'Alice::1220ab' });
    expect(ev('PARTY_TO_TEXT', call('COERCE_CONTRACT_ID', text('Bob::12')))).toBe('Bob::12');
    for (const bad of ['', 'a/b', 'x'.repeat(256), 'é']) expect(ev('TEXT_TO_PARTY', text(bad))).toMatchObject({ k: K.None });
  });
  it('CONTRACT_ID_TO_TEXT always returns None in ledger code', () => {
    expect(ev('CONTRACT_ID_TO_TEXT', text('00ab'))).toMatchObject({ k: K.None });
  });
});

describe('Date and Timestamp builtins', () => {
  it('DATE_TO_TEXT (YYYY-MM-DD), DATE_TO_UNIX_DAYS, UNIX_DAYS_TO_DATE within 0001-01-01…9999-12-31', () => {
    expect(ev('DATE_TO_TEXT', date(0))).toBe('1970-01-01');
    expect(ev('DATE_TO_TEXT', date(-719162))).toBe('0001-01-01');
    expect(ev('DATE_TO_TEXT', date(2932896))).toBe('9999-12-31');
    expect(ev('DATE_TO_UNIX_DAYS', date(19000))).toBe(19000n);
    expect(ev('DATE_TO_TEXT', call('UNIX_DAYS_TO_DATE', i64(11016)))).toBe('2000-02-29');
    expect(() => ev('UNIX_DAYS_TO_DATE', i64(2932897))).toThrow(/ArithmeticError while evaluating \(UNIX_DAYS_TO_DATE 2932897\)/);
    expect(() => ev('UNIX_DAYS_TO_DATE', i64(-719163))).toThrow(/UNIX_DAYS_TO_DATE/);
  });
  it('TIMESTAMP_TO_TEXT prints ISO-8601 like Java ISO_INSTANT (fraction only when non-zero, 3 or 6 digits)', () => {
    expect(ev('TIMESTAMP_TO_TEXT', ts(0n))).toBe('1970-01-01T00:00:00Z');
    expect(ev('TIMESTAMP_TO_TEXT', ts(1_500_000n))).toBe('1970-01-01T00:00:01.500Z');
    expect(ev('TIMESTAMP_TO_TEXT', ts(1n))).toBe('1970-01-01T00:00:00.000001Z');
    expect(ev('TIMESTAMP_TO_TEXT', ts(-1n))).toBe('1969-12-31T23:59:59.999999Z');
    expect(ev('TIMESTAMP_TO_TEXT', ts(253402300799999999n))).toBe('9999-12-31T23:59:59.999999Z');
  });
  it('TIMESTAMP_TO_UNIX_MICROSECONDS / UNIX_MICROSECONDS_TO_TIMESTAMP, ArithmeticError outside the range', () => {
    expect(ev('TIMESTAMP_TO_UNIX_MICROSECONDS', ts(42n))).toBe(42n);
    expect(ev('TIMESTAMP_TO_TEXT', call('UNIX_MICROSECONDS_TO_TIMESTAMP', i64(-62135596800000000n)))).toBe('0001-01-01T00:00:00Z');
    expect(() => ev('UNIX_MICROSECONDS_TO_TIMESTAMP', i64(253402300800000000n))).toThrow(
      /UNIX_MICROSECONDS_TO_TIMESTAMP 253402300800000000/,
    );
  });
});

describe('Cryptography: SECP256K1_BOOL (SHA256withECDSA) and SECP256K1_WITH_ECDSA_BOOL (pre-hashed)', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const der = publicKey.export({ format: 'der', type: 'spki' }).toString('hex');
  const message = Buffer.from('daml').toString('hex');
  const signature = sign('sha256', Buffer.from('daml'), privateKey).toString('hex');
  it('verifies a node:crypto signature, rejects a tampered message', () => {
    expect(ev('SECP256K1_BOOL', text(signature), text(message), text(der))).toBe(true);
    expect(ev('SECP256K1_BOOL', text(signature), text(Buffer.from('damn').toString('hex')), text(der))).toBe(false);
  });
  it('pre-hashed variant verifies a signature over the digest itself', () => {
    const priv = secp256k1.utils.randomSecretKey();
    const digest = createHash('sha256').update('payload').digest();
    const sig = Buffer.from(secp256k1.sign(digest, priv, { prehash: false, format: 'der' })).toString('hex');
    const spki = Buffer.concat([
      Buffer.from('3056301006072a8648ce3d020106052b8104000a034200', 'hex'),
      Buffer.from(secp256k1.getPublicKey(priv, false)),
    ]);
    expect(ev('SECP256K1_WITH_ECDSA_BOOL', text(sig), text(digest.toString('hex')), text(spki.toString('hex')))).toBe(true);
    expect(ev('SECP256K1_VALIDATE_KEY', text(spki.toString('hex')))).toBe(true);
  });
  it('a malformed key is an error', () => {
    expect(() => ev('SECP256K1_BOOL', text(signature), text(message), text('3000'))).toThrow(/MalformedKey/);
  });
});
