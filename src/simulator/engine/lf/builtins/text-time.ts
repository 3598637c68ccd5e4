/**
 * Text, Party, Date, Timestamp, ContractId and cryptography builtins (spec "String functions", "Timestamp functions",
 * "Date functions", "Party functions", "ContractId functions", "Cryptography functions", "Conversions functions").
 */
import { createPublicKey } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { EngineError } from '../errors.js';
import * as T from '../text.js';
import { listFromArray, listToArray, NONE, VSome, VTimestamp, type V, type VList } from '../value.js';
import { arith, pure, register } from './registry.js';

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const utf8 = new TextEncoder();
const lenientUtf8 = new TextDecoder('utf-8');

function hexArg(s: string, cause: string): Uint8Array {
  if (!T.isHexString(s)) throw new EngineError('Crypto', `MalformedByteEncoding: ${cause}`, { value: s });
  return T.hexToBytes(s);
}

/** The secp256k1 point of a DER (X.509 SubjectPublicKeyInfo) public key, hex encoded. */
function secp256k1Point(derHex: string): Uint8Array {
  const der = hexArg(derHex, 'can not parse DER encoded public key hex string');
  try {
    const key = createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'secp256k1') throw new Error('not a secp256k1 key');
    const jwk = key.export({ format: 'jwk' });
    const b = (s: string | undefined): Uint8Array => Buffer.from(s ?? '', 'base64url');
    return Uint8Array.from([4, ...b(jwk.x), ...b(jwk.y)]);
  } catch (e) {
    throw new EngineError('Crypto', `MalformedKey: ${(e as Error).message}`, { value: derHex });
  }
}

/** SHA256withECDSA (`prehash`) or NONEwithECDSA over a DER signature, as the engine's verifier does. */
function verifySecp256k1(args: V[], prehash: boolean): boolean {
  const sig = hexArg(args[0] as string, 'can not parse signature hex string');
  const msg = hexArg(args[1] as string, 'can not parse message hex string');
  const point = secp256k1Point(args[2] as string);
  try {
    return secp256k1.verify(sig, msg, point, { prehash, format: 'der', lowS: false });
  } catch (e) {
    throw new EngineError('Crypto', `MalformedSignature: ${(e as Error).message}`, { value: args[0] as string });
  }
}

register({
  APPEND_TEXT: pure(2, (a) => (a[0] as string) + (a[1] as string)),
  EXPLODE_TEXT: pure(1, (a) => listFromArray(T.explode(a[0] as string))),
  IMPLODE_TEXT: pure(1, (a) => (listToArray(a[0] as VList) as string[]).join('')),
  TEXT_TO_CODE_POINTS: pure(1, (a) => listFromArray(T.codePoints(a[0] as string).map((c) => BigInt(c)))),
  CODE_POINTS_TO_TEXT: pure(1, (a) => {
    const cps = listToArray(a[0] as VList) as bigint[];
    for (const cp of cps) if (!T.validCodePoint(cp)) throw new EngineError('Internal', `invalid code point 0x${cp.toString(16)}.`);
    return String.fromCodePoint(...cps.map(Number));
  }),
  SHA256_TEXT: pure(1, (a) => hex(sha256(utf8.encode(a[0] as string)))),
  SHA256_HEX: pure(1, (a) => hex(sha256(hexArg(a[0] as string, 'can not parse hex string')))),
  KECCAK256_TEXT: pure(1, (a) => hex(keccak_256(hexArg(a[0] as string, 'can not parse hex string')))),
  TEXT_TO_HEX: pure(1, (a) => T.utf8ToHex(a[0] as string)),
  HEX_TO_TEXT: pure(1, (a) => lenientUtf8.decode(hexArg(a[0] as string, 'can not parse hex string argument'))),
  SECP256K1_BOOL: pure(3, (a) => verifySecp256k1(a, true)),
  SECP256K1_WITH_ECDSA_BOOL: pure(3, (a) => verifySecp256k1(a, false)),
  SECP256K1_VALIDATE_KEY: pure(1, (a) => {
    secp256k1Point(a[0] as string);
    return true;
  }),

  INT64_TO_TEXT: pure(1, (a) => (a[0] as bigint).toString()),
  TEXT_TO_INT64: pure(1, (a) => {
    const s = a[0] as string;
    if (!/^[+-]?\d+$/.test(s)) return NONE;
    const v = BigInt(s);
    return v < -(2n ** 63n) || v >= 2n ** 63n ? NONE : new VSome(v);
  }),
  PARTY_TO_TEXT: pure(1, (a) => a[0] as string),
  TEXT_TO_PARTY: pure(1, (a) => (T.isPartyString(a[0] as string) ? new VSome(a[0] as string) : NONE)),
  DATE_TO_TEXT: pure(1, (a) => T.dateToText(a[0] as number)),
  TIMESTAMP_TO_TEXT: pure(1, (a) => T.timestampToText((a[0] as VTimestamp).micros)),
  // always None in ledger code (spec "ContractId functions")
  CONTRACT_ID_TO_TEXT: pure(1, () => NONE),

  DATE_TO_UNIX_DAYS: pure(1, (a) => BigInt(a[0] as number)),
  UNIX_DAYS_TO_DATE: arith('UNIX_DAYS_TO_DATE', 1, (a) => {
    const d = a[0] as bigint;
    return d >= BigInt(T.MIN_DATE) && d <= BigInt(T.MAX_DATE) ? Number(d) : undefined;
  }),
  TIMESTAMP_TO_UNIX_MICROSECONDS: pure(1, (a) => (a[0] as VTimestamp).micros),
  UNIX_MICROSECONDS_TO_TIMESTAMP: arith('UNIX_MICROSECONDS_TO_TIMESTAMP', 1, (a) => {
    const us = a[0] as bigint;
    return us >= T.MIN_TIMESTAMP && us <= T.MAX_TIMESTAMP ? new VTimestamp(us) : undefined;
  }),
});
