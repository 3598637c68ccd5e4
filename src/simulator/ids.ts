/** Identifier helpers: Canton-like fingerprints, party ids, contract ids, update ids. */
import { hash, randomBytes } from 'node:crypto';

// one-shot `hash`: no Hash object per call (three to four ids per command)
export const sha256Hex = (data: string | Buffer): string => hash('sha256', data, 'hex');

/** A Canton fingerprint: multihash prefix 0x12 0x20 followed by a SHA-256 hex digest. */
export const fingerprint = (seed: string): string => `1220${sha256Hex(seed)}`;

export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');

/** Contract id in Canton's V1 shape: discriminator 00 ‖ 32-byte hash ‖ suffix. */
export const contractIdFor = (seed: string): string => `00${sha256Hex(`cid:${seed}`)}ca111220${sha256Hex(`sfx:${seed}`)}`;

export const updateIdFor = (seed: string): string => fingerprint(`update:${seed}`);

export const PARTY_HINT_RE = /^[a-zA-Z0-9:\-_ ]{1,185}$/;

/** A Canton unique identifier `name::namespace`. */
export function isPartyId(s: string): boolean {
  const i = s.indexOf('::');
  return i > 0 && i + 2 < s.length;
}
