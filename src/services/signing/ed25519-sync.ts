/**
 * Synchronous Ed25519 for the signing path: SHA-512 through node:crypto (native) instead of crypto.subtle, so a
 * signature and the public-key check of a read seed need no thread-pool round trip — on a loaded machine every such
 * wake-up can cost milliseconds. Same @noble/ed25519 arithmetic (RFC 8032), only the hash is supplied.
 */
import { createHash } from 'node:crypto';
import * as ed from '@noble/ed25519';

ed.hashes.sha512 = (message: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(createHash('sha512').update(message).digest());

export const signEd25519 = (message: Uint8Array, seed: Uint8Array): Uint8Array => ed.sign(message, seed);
export const publicKeyEd25519 = (seed: Uint8Array): Uint8Array => ed.getPublicKey(seed);
