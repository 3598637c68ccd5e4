/**
 * Verification of an interactive-submission `prepare` response before anything is signed:
 * decode the protobuf with the official library, recompute the V2 hash and refuse on any mismatch, check that the
 * signing party is a submitter, and build the human summary (clear-signed when recognised, blind otherwise).
 */
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import type { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { z } from 'zod';
import { equalBytes, fromBase64, toHex } from './bytes.js';
import { describeClearSign, recognise, type ClearSign } from './clear-sign/index.js';
import { SigningRefusal } from './errors.js';
import { summarise, type TransactionFacts } from './transaction-summary.js';
import { VerificationMemo } from './verification-memo.js';

/** The JSON API `JsPrepareSubmissionResponse` fields we need (others, e.g. hashingDetails, are ignored). */
export const PrepareResponseSchema = z.object({
  preparedTransaction: z.string().min(1),
  preparedTransactionHash: z.string().min(1),
  hashingSchemeVersion: z.string(),
});
export type PrepareResponse = z.infer<typeof PrepareResponseSchema>;

export const SUPPORTED_HASHING_SCHEME = 'HASHING_SCHEME_VERSION_V2';

export interface TransactionSummary extends TransactionFacts {
  /** The hash that will be signed (recomputed, equal to the participant's). */
  hashBase64: string;
  hashHex: string;
  hashingSchemeVersion: typeof SUPPORTED_HASHING_SCHEME;
  signingParty: string;
  mode: 'clear' | 'blind';
  clearSign: ClearSign | null;
  /** One line for lists, audit entries and confirmations. */
  headline: string;
}

export interface VerifiedTransaction {
  summary: TransactionSummary;
  hash: Uint8Array;
}

const memo = new VerificationMemo<VerifiedTransaction>();

/** Verifies (or reuses the verification of the byte-identical input, see verification-memo.ts); callers get their own copy. */
export async function verifyPreparedTransaction(input: PrepareResponse, signingParty: string): Promise<VerifiedTransaction> {
  const parsed = PrepareResponseSchema.safeParse(input);
  const key = parsed.success
    ? VerificationMemo.key([
        signingParty,
        parsed.data.hashingSchemeVersion,
        parsed.data.preparedTransactionHash,
        parsed.data.preparedTransaction,
      ])
    : null;
  const known = key ? memo.get(key) : undefined;
  if (known) return structuredClone(known);
  const verified = await verifyUncached(input, signingParty);
  if (key) memo.set(key, structuredClone(verified));
  return verified;
}

async function verifyUncached(input: PrepareResponse, signingParty: string): Promise<VerifiedTransaction> {
  const parsed = PrepareResponseSchema.safeParse(input);
  if (!parsed.success) {
    throw new SigningRefusal('BAD_REQUEST', 'UNDECODABLE_TRANSACTION', `Not a prepare response: ${parsed.error.issues[0]?.message}`);
  }
  const prep = parsed.data;
  if (prep.hashingSchemeVersion !== SUPPORTED_HASHING_SCHEME) {
    throw new SigningRefusal(
      'BAD_REQUEST',
      'UNSUPPORTED_HASHING_SCHEME',
      `Hashing scheme ${prep.hashingSchemeVersion} cannot be verified here (only ${SUPPORTED_HASHING_SCHEME}); refusing to sign`,
    );
  }
  let tx: PreparedTransaction;
  try {
    fromBase64(prep.preparedTransaction, 'prepared transaction');
    tx = decodePreparedTransaction(prep.preparedTransaction);
  } catch (err) {
    throw new SigningRefusal(
      'BAD_REQUEST',
      'UNDECODABLE_TRANSACTION',
      `The prepared transaction cannot be decoded: ${(err as Error).message}`,
    );
  }
  if (!tx.transaction || !tx.metadata || tx.transaction.roots.length === 0) {
    throw new SigningRefusal(
      'BAD_REQUEST',
      'UNDECODABLE_TRANSACTION',
      'The prepared transaction has no transaction, metadata or root action',
    );
  }
  let recomputed: Uint8Array;
  try {
    recomputed = fromBase64(await hashPreparedTransaction(tx, 'base64'), 'recomputed hash');
  } catch (err) {
    throw new SigningRefusal(
      'BAD_REQUEST',
      'UNDECODABLE_TRANSACTION',
      `The prepared transaction cannot be hashed: ${(err as Error).message}`,
    );
  }
  let claimed: Uint8Array;
  try {
    claimed = fromBase64(prep.preparedTransactionHash, 'prepared transaction hash');
  } catch {
    throw new SigningRefusal('BAD_REQUEST', 'HASH_MISMATCH', 'The participant’s transaction hash is not valid base64');
  }
  if (!equalBytes(recomputed, claimed)) {
    throw new SigningRefusal(
      'FORBIDDEN',
      'HASH_MISMATCH',
      `The hash the participant asked to sign (${toHex(claimed)}) is not the hash of the transaction it sent (${toHex(recomputed)}); refusing to sign`,
    );
  }
  const facts = summarise(tx, signingParty);
  if (!facts.actAs.includes(signingParty)) {
    throw new SigningRefusal(
      'FORBIDDEN',
      'PARTY_NOT_SUBMITTER',
      `${signingParty} is not a submitter of this transaction (it acts as ${facts.actAs.join(', ') || 'nobody'}); refusing to sign`,
    );
  }
  const recognition = recognise(tx, signingParty);
  const warnings = [...facts.warnings, ...recognition.warnings];
  if (!recognition.clearSign) {
    warnings.unshift(
      'Blind signing: this transaction is not one the console can describe field by field. Check the hash and the details before signing.',
    );
  }
  const hashBase64 = Buffer.from(recomputed).toString('base64');
  const headline = recognition.clearSign
    ? describeClearSign(recognition.clearSign)
    : `Blind signature over ${hashBase64}: ${facts.exercises
        .filter((e) => e.root)
        .map((e) => `${e.choice} on ${e.templateQualified}`)
        .concat(facts.created.filter((c) => c.root).map((c) => `create ${c.templateQualified}`))
        .join('; ')}`;
  return {
    hash: recomputed,
    summary: {
      ...facts,
      warnings,
      hashBase64,
      hashHex: toHex(recomputed),
      hashingSchemeVersion: SUPPORTED_HASHING_SCHEME,
      signingParty,
      mode: recognition.clearSign ? 'clear' : 'blind',
      clearSign: recognition.clearSign,
      headline,
    },
  };
}
