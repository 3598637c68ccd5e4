/** Byte helpers shared by the signing services: strict base64/hex codecs and constant-time comparison. */
import { timingSafeEqual } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { ConsoleError } from '../../ipc/errors.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** Decodes standard base64; rejects anything else (URL alphabet, whitespace, bad padding) with BAD_REQUEST. */
export function fromBase64(b64: string, what = 'value'): Uint8Array {
  if (!BASE64.test(b64)) throw new ConsoleError('BAD_REQUEST', `The ${what} is not valid base64`);
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function fromHex(hex: string, what = 'value'): Uint8Array {
  if (!HEX.test(hex)) throw new ConsoleError('BAD_REQUEST', `The ${what} is not valid hex`);
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Constant-time equality (length is not secret). */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function sha256Hex(data: Uint8Array | string): string {
  return toHex(sha256(typeof data === 'string' ? new TextEncoder().encode(data) : data));
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Overwrites secret material once it is no longer needed. */
export function wipe(...buffers: Uint8Array[]): void {
  for (const b of buffers) b.fill(0);
}
