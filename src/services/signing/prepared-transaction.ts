/**
 * Verification of an interactive-submission `prepare` response before anything is signed:
 * decode the protobuf with the official library, recompute the V2 hash and refuse on any mismatch, check that the
 * signing party is a submitter, and build the human summary (clear-signed when recognised, blind otherwise).
 */
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { useSameThreadSha256 } from '../../platform/same-thread-sha256.js';
import type { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { z } from 'zod';
import { PackageIndex } from '../../daml-lf/index.js';
import { equalBytes, fromBase64, toHex } from './bytes.js';
import { describeClearSign, recognise, type ClearSign } from './clear-sign/index.js';
import { describeTransaction, type TransactionDescription } from './describe/describe-transaction.js';
import { genericHeadline } from './describe/headline.js';
import { SigningRefusal } from './errors.js';
import { summarise, type TransactionFacts } from './transaction-summary.js';
import { VerificationMemo } from './verification-memo.js';
import type { PackageFetcher, VerifiedPackages } from './verified-packages.js';

// the official hashing's SHA-256 digests run on this thread (see there)
useSameThreadSha256();

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
  /**
   * clear: a recogniser states its intent (and every value is typed); described: every value is typed by verified
   * packages; blind: some value could not be typed (its package is unavailable or it does not fit its type).
   */
  mode: 'clear' | 'described' | 'blind';
  clearSign: ClearSign | null;
  /** One line for lists, audit entries and confirmations. */
  headline: string;
  /** Every node and input contract, field by field. */
  description: TransactionDescription;
  /** The verified packages whose types the description used. */
  packages: Array<{ packageId: string; name: string; version: string }>;
}

/** Where the types of a transaction's packages come from: the verified store, and the participant when online. */
export interface TypeSource {
  packages: VerifiedPackages;
  fetch?: PackageFetcher | undefined;
}

export interface VerifiedTransaction {
  summary: TransactionSummary;
  hash: Uint8Array;
}

const memo = new VerificationMemo<VerifiedTransaction>();

/** Verifies (or reuses the verification of the byte-identical input, see verification-memo.ts); callers get their own copy. */
export async function verifyPreparedTransaction(
  input: PrepareResponse,
  signingParty: string,
  types?: TypeSource,
): Promise<VerifiedTransaction> {
  const parsed = PrepareResponseSchema.safeParse(input);
  const key = parsed.success
    ? VerificationMemo.key([
        // a description depends on the packages at hand: each store remembers its own verifications
        types?.packages.instanceId ?? 'no-types',
        signingParty,
        parsed.data.hashingSchemeVersion,
        parsed.data.preparedTransactionHash,
        parsed.data.preparedTransaction,
      ])
    : null;
  const known = key ? memo.get(key) : undefined;
  if (known) return structuredClone(known);
  const verified = await verifyUncached(input, signingParty, types);
  // a description that lacked packages may be complete once they can be fetched: only complete ones are remembered
  if (key && verified.summary.description.missingPackages.length === 0) memo.set(key, structuredClone(verified));
  return verified;
}

async function verifyUncached(input: PrepareResponse, signingParty: string, types?: TypeSource): Promise<VerifiedTransaction> {
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
      `The hash the participant asked to sign (${toHex(claimed)}) is not the hash of the transaction it sent ` +
        `(${toHex(recomputed)}); refusing to sign`,
    );
  }
  const { typed, description, failures } = await describeWithTypes(tx, types);
  const facts = summarise(typed, signingParty);
  if (!facts.actAs.includes(signingParty)) {
    throw new SigningRefusal(
      'FORBIDDEN',
      'PARTY_NOT_SUBMITTER',
      `${signingParty} is not a submitter of this transaction (it acts as ${facts.actAs.join(', ') || 'nobody'}); refusing to sign`,
    );
  }
  const warnings = [...facts.warnings];
  // recognisers read fields by name: only names the verified packages gave count, never the participant's own labels
  const recognition = description.complete ? recognise(typed, signingParty) : { clearSign: null, warnings: [] };
  warnings.push(...recognition.warnings);
  const mode = recognition.clearSign ? 'clear' : description.complete ? 'described' : 'blind';
  if (mode === 'blind') {
    const why: string[] = [];
    if (description.missingPackages.length > 0) {
      const reasons = new Map(failures.map((f) => [f.packageId, f.reason]));
      why.push(
        `the types of ${description.missingPackages.length === 1 ? 'package' : 'packages'} ${description.missingPackages
          .map((p) => `${p}${reasons.has(p) ? ` (${reasons.get(p)})` : ''}`)
          .join(', ')} could not be obtained and verified`,
      );
    }
    if (description.problems.length > 0) why.push(`values do not fit their package types: ${description.problems.slice(0, 5).join('; ')}`);
    warnings.unshift(
      `Blind signing: ${why.join('; ') || 'the transaction cannot be described'}. ` +
        'Values without verified types are shown as the participant labelled them. Check the hash and the details before signing.',
    );
  }
  const hashBase64 = Buffer.from(recomputed).toString('base64');
  const headline = recognition.clearSign
    ? describeClearSign(recognition.clearSign)
    : mode === 'described'
      ? genericHeadline(description.nodes)
      : `Blind signature over ${hashBase64}: ${genericHeadline(description.nodes)}`;
  return {
    hash: recomputed,
    summary: {
      ...facts,
      warnings,
      hashBase64,
      hashHex: toHex(recomputed),
      hashingSchemeVersion: SUPPORTED_HASHING_SCHEME,
      signingParty,
      mode,
      clearSign: recognition.clearSign,
      headline,
      description,
      packages: description.usedPackages.map((id) => {
        const s = types?.packages.summary(id);
        return { packageId: id, name: s?.name ?? '', version: s?.version ?? '' };
      }),
    },
  };
}

/** Rounds of fetching: each round adds the packages the previous description found it needed. */
const MAX_TYPE_ROUNDS = 8;

/**
 * Describes a copy of `tx` with the types of the packages it needs, loading them round by round (a package's types
 * may refer to further packages). The copy's record labels are the packages' field names.
 */
async function describeWithTypes(
  tx: PreparedTransaction,
  types: TypeSource | undefined,
): Promise<{ typed: PreparedTransaction; description: TransactionDescription; failures: Array<{ packageId: string; reason: string }> }> {
  const index = new PackageIndex();
  const failures: Array<{ packageId: string; reason: string }> = [];
  const failed = new Set<string>();
  for (let round = 0; ; round++) {
    const typed = structuredClone(tx);
    const description = describeTransaction(typed, index);
    const wanted = description.missingPackages.filter((p) => !failed.has(p));
    if (!types || wanted.length === 0 || round >= MAX_TYPE_ROUNDS) return { typed, description, failures };
    const loaded = await types.packages.load(wanted, types.fetch);
    for (const p of loaded.packages) index.add(p);
    for (const f of loaded.failures) {
      failed.add(f.packageId);
      failures.push(f);
    }
  }
}
