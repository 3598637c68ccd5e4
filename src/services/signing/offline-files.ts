/**
 * Offline (air-gapped) signing file formats, versioned and zod-validated:
 *  - signing request: prepare response + party + signer keys (k-of-n) + participant + validity window, with a
 *    digest (SHA-256 of the canonical JSON of everything else) so edits are detected; version 2 adds the Daml-LF
 *    archives (gzip, base64) whose types describe the transaction, so the air-gapped signer can describe it field by
 *    field — it verifies each archive's package id itself (SHA-256 of the payload) and keeps them; version 3 adds the
 *    version (and digest) of each signer key's policy that the requesting console checked, so the air-gapped signer
 *    refuses a request checked against a policy newer than its own. Only version 3 is read: an older request does
 *    not say which policy it was checked against;
 *  - signature response: the request's id and digest, the party, and JSON API `Signature`s.
 * Import refuses schema errors, unknown versions, expired requests, wrong party/key, digest mismatches and bad signatures.
 */
import { randomUUID } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { fromBase64, sha256Hex, toBase64 } from './bytes.js';
import { canonicalJson } from './canonical-json.js';
import { SigningRefusal } from './errors.js';
import { cantonFingerprint, FINGERPRINT_PATTERN } from './fingerprint.js';
import { PrepareResponseSchema, verifyPreparedTransaction, type PrepareResponse, type TypeSource } from './prepared-transaction.js';
import { SIGNATURE_FORMAT, SIGNING_ALGORITHM, type JsonPartySignatures, type JsonSignature } from './signing-service.js';

export const SIGNING_REQUEST_FORMAT = 'canton-console/signing-request' as const;
export const SIGNATURE_RESPONSE_FORMAT = 'canton-console/signature-response';
/** Tolerated clock difference between the online and the offline machine. */
export const CLOCK_SKEW_MS = 5 * 60_000;

export const SignerSchema = z.object({
  fingerprint: z.string().regex(FINGERPRINT_PATTERN),
  publicKeyBase64: z.string().min(1),
});
const RequestBodyV1Schema = z.object({
  format: z.literal(SIGNING_REQUEST_FORMAT),
  version: z.literal(1),
  requestId: z.string().min(1).max(100),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  participantId: z.string().min(1),
  party: z.string().min(1),
  signers: z.array(SignerSchema).min(1).max(32),
  threshold: z.number().int().min(1),
  prepared: PrepareResponseSchema,
  note: z.string().max(500).optional(),
});
export const SigningRequestV1Schema = RequestBodyV1Schema.extend({ digest: z.string().regex(/^[0-9a-f]{64}$/) });
/** A Daml-LF archive (.dalf) carried by a request: gzip, then base64. */
export const CarriedPackageSchema = z.object({
  packageId: z.string().regex(/^[0-9a-f]{64}$/, 'A package id is 64 hex digits'),
  archiveGzipBase64: z.string().min(1),
});
export type CarriedPackage = z.infer<typeof CarriedPackageSchema>;
export const SigningRequestV2Schema = RequestBodyV1Schema.extend({
  version: z.literal(2),
  packages: z.array(CarriedPackageSchema).max(200),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});
/** The version of a signer key's policy the requesting console checked (version 0 = the default policy). */
export const PolicyClaimSchema = z.object({
  fingerprint: z.string().regex(FINGERPRINT_PATTERN),
  version: z.number().int().nonnegative(),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});
export type PolicyClaim = z.infer<typeof PolicyClaimSchema>;
export const SigningRequestV3Schema = RequestBodyV1Schema.extend({
  version: z.literal(3),
  packages: z.array(CarriedPackageSchema).max(200),
  policies: z.array(PolicyClaimSchema).max(32),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});
export const SigningRequestSchema = z.discriminatedUnion('version', [
  SigningRequestV1Schema,
  SigningRequestV2Schema,
  SigningRequestV3Schema,
]);
/** The request format this console writes and reads. */
export const SIGNING_REQUEST_VERSION = 3;
export type SigningRequest = z.infer<typeof SigningRequestSchema>;
/** A carried archive inflates to at most this (the largest Splice package is under 2 MB). */
const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;
export type Signer = z.infer<typeof SignerSchema>;

export const JsonSignatureSchema = z.object({
  format: z.string(),
  signature: z.string().min(1),
  signedBy: z.string().regex(FINGERPRINT_PATTERN),
  signingAlgorithmSpec: z.string(),
});
export const SignatureResponseV1Schema = z.object({
  format: z.literal(SIGNATURE_RESPONSE_FORMAT),
  version: z.literal(1),
  requestId: z.string().min(1),
  requestDigest: z.string().regex(/^[0-9a-f]{64}$/),
  party: z.string().min(1),
  signedAt: z.iso.datetime(),
  signatures: z.array(JsonSignatureSchema).min(1),
});
export type SignatureResponse = z.infer<typeof SignatureResponseV1Schema>;

export function requestDigest(body: Omit<SigningRequest, 'digest'> | SigningRequest): string {
  const { digest: _ignored, ...rest } = body as SigningRequest;
  return sha256Hex(canonicalJson(rest));
}

export interface CreateSigningRequestInput {
  prepared: PrepareResponse;
  party: string;
  signers: Signer[];
  /** How many of the signers must sign (default 1). */
  threshold?: number;
  participantId: string;
  /** Validity (default 1 hour). */
  ttlMs?: number;
  note?: string;
  now?: Date;
  /** The verified packages (and the participant to fetch missing ones from): the request carries those that describe the transaction. */
  types?: TypeSource;
  /** The policy version of each signer key this console checked the transaction against (default: none stated). */
  policies?: PolicyClaim[];
}

/** Online side: verifies the prepared transaction, then writes the request (returns the object and its file text). */
export async function createSigningRequest(input: CreateSigningRequestInput): Promise<{ request: SigningRequest; text: string }> {
  const { summary } = await verifyPreparedTransaction(input.prepared, input.party, input.types);
  const packages: CarriedPackage[] = [];
  for (const p of summary.packages) {
    const bytes = input.types?.packages.archive(p.packageId);
    if (bytes) packages.push({ packageId: p.packageId, archiveGzipBase64: toBase64(gzipSync(bytes, { level: 6 })) });
  }
  for (const s of input.signers) await checkSigner(s);
  const threshold = input.threshold ?? 1;
  const unique = new Set(input.signers.map((s) => s.fingerprint));
  if (unique.size !== input.signers.length) throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', 'A signer is listed twice');
  if (threshold < 1 || threshold > input.signers.length) {
    throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', `Threshold ${threshold} is not between 1 and ${input.signers.length}`);
  }
  const now = input.now ?? new Date();
  const body = {
    format: SIGNING_REQUEST_FORMAT as typeof SIGNING_REQUEST_FORMAT,
    version: 3 as const,
    requestId: randomUUID(),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + (input.ttlMs ?? 3_600_000)).toISOString(),
    participantId: input.participantId,
    party: input.party,
    signers: input.signers,
    threshold,
    prepared: {
      preparedTransaction: input.prepared.preparedTransaction,
      preparedTransactionHash: input.prepared.preparedTransactionHash,
      hashingSchemeVersion: input.prepared.hashingSchemeVersion,
    },
    ...(input.note ? { note: input.note } : {}),
    packages,
    policies: (input.policies ?? []).filter((p) => input.signers.some((s) => s.fingerprint === p.fingerprint)),
  };
  const request = SigningRequestSchema.parse({ ...body, digest: requestDigest(body) });
  return { request, text: JSON.stringify(request, null, 2) + '\n' };
}

/** Either side: parses and checks a request file (schema, version, digest, signers, validity window). */
export async function parseSigningRequest(text: string, now: Date = new Date()): Promise<SigningRequest> {
  const json = parseJson(text, 'signing request');
  const header = z.object({ format: z.literal(SIGNING_REQUEST_FORMAT), version: z.number() }).safeParse(json);
  if (header.success && header.data.version < SIGNING_REQUEST_VERSION) {
    throw new SigningRefusal(
      'BAD_REQUEST',
      'UNKNOWN_FILE_VERSION',
      `Signing request version ${header.data.version} was written by an older console and does not record which version of the ` +
        'keys’ policies it was checked against; export it again on the online console',
    );
  }
  checkHeader(json, SIGNING_REQUEST_FORMAT, 'signing request', [SIGNING_REQUEST_VERSION]);
  const req = parseFileBody(json, SigningRequestSchema, 'signing request');
  if (requestDigest(req) !== req.digest) {
    throw new SigningRefusal('BAD_REQUEST', 'DIGEST_MISMATCH', 'The signing request was altered after it was created (digest mismatch)');
  }
  if (req.threshold > req.signers.length) {
    throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', `Threshold ${req.threshold} exceeds the ${req.signers.length} signer(s)`);
  }
  for (const s of req.signers) await checkSigner(s);
  checkWindow(req, now);
  return req;
}

/** Writes the response file for signatures made on the offline machine. */
export function createSignatureResponse(
  request: SigningRequest,
  signatures: JsonSignature[],
  now: Date = new Date(),
): { response: SignatureResponse; text: string } {
  const response = SignatureResponseV1Schema.parse({
    format: SIGNATURE_RESPONSE_FORMAT,
    version: 1,
    requestId: request.requestId,
    requestDigest: request.digest,
    party: request.party,
    signedAt: now.toISOString(),
    signatures,
  });
  return { response, text: JSON.stringify(response, null, 2) + '\n' };
}

/**
 * Online side: checks a response file against the request it answers — digest, party, signer keys and every
 * Ed25519 signature over the request's transaction hash. Returns the verified signatures.
 */
export async function importSignatureResponse(request: SigningRequest, text: string, now: Date = new Date()): Promise<JsonSignature[]> {
  const json = parseJson(text, 'signature response');
  checkHeader(json, SIGNATURE_RESPONSE_FORMAT, 'signature response');
  const resp = parseFileBody(json, SignatureResponseV1Schema, 'signature response');
  if (resp.requestId !== request.requestId || resp.requestDigest !== requestDigest(request)) {
    throw new SigningRefusal(
      'FORBIDDEN',
      'DIGEST_MISMATCH',
      resp.requestId !== request.requestId
        ? `This response answers request ${resp.requestId}, not ${request.requestId}`
        : 'The response was made for a different version of this request (digest mismatch)',
    );
  }
  if (resp.party !== request.party) {
    throw new SigningRefusal('FORBIDDEN', 'WRONG_PARTY', `The response is for ${resp.party}, the request for ${request.party}`);
  }
  checkWindow(request, now);
  const hash = fromBase64(request.prepared.preparedTransactionHash, 'transaction hash');
  const out: JsonSignature[] = [];
  for (const sig of resp.signatures) {
    const signer = request.signers.find((s) => s.fingerprint === sig.signedBy);
    if (!signer) throw new SigningRefusal('FORBIDDEN', 'WRONG_KEY', `Key ${sig.signedBy} is not one of the request’s signers`);
    if (sig.format !== SIGNATURE_FORMAT || sig.signingAlgorithmSpec !== SIGNING_ALGORITHM) {
      throw new SigningRefusal('BAD_REQUEST', 'BAD_SIGNATURE', `Unsupported signature format ${sig.format} / ${sig.signingAlgorithmSpec}`);
    }
    let ok: boolean;
    try {
      ok = await ed.verifyAsync(fromBase64(sig.signature, 'signature'), hash, fromBase64(signer.publicKeyBase64, 'public key'));
    } catch {
      ok = false;
    }
    if (!ok)
      throw new SigningRefusal(
        'FORBIDDEN',
        'BAD_SIGNATURE',
        `The signature by ${sig.signedBy} does not verify against the transaction hash`,
      );
    out.push(sig);
  }
  return out;
}

export interface ThresholdStatus {
  threshold: number;
  collected: string[];
  missing: string[];
  met: boolean;
}

/** k-of-n: collects verified signatures from several response files until the request's threshold is met. */
export class SignatureCollector {
  private readonly signatures = new Map<string, JsonSignature>();

  constructor(readonly request: SigningRequest) {}

  /** Imports one response file; signatures by keys already collected are counted once. */
  async add(
    responseText: string,
    now: Date = new Date(),
  ): Promise<{ added: string[]; alreadyCollected: string[]; status: ThresholdStatus }> {
    const verified = await importSignatureResponse(this.request, responseText, now);
    const added: string[] = [];
    const alreadyCollected: string[] = [];
    for (const s of verified) {
      if (this.signatures.has(s.signedBy)) alreadyCollected.push(s.signedBy);
      else {
        this.signatures.set(s.signedBy, s);
        added.push(s.signedBy);
      }
    }
    return { added, alreadyCollected, status: this.status() };
  }

  status(): ThresholdStatus {
    const collected = [...this.signatures.keys()];
    return {
      threshold: this.request.threshold,
      collected,
      missing: this.request.signers.map((s) => s.fingerprint).filter((f) => !this.signatures.has(f)),
      met: collected.length >= this.request.threshold,
    };
  }

  /** The `partySignatures` for execute; refuses until the threshold is met. */
  partySignatures(): JsonPartySignatures {
    const st = this.status();
    if (!st.met) {
      throw new SigningRefusal(
        'CONFLICT',
        'SIGNATURES_MISSING',
        `${st.collected.length} of the ${st.threshold} required signatures ${st.collected.length === 1 ? 'is' : 'are'} collected: ` +
          "import the missing signers' responses first",
      );
    }
    return { signatures: [{ party: this.request.party, signatures: [...this.signatures.values()] }] };
  }
}

export async function checkSigner(s: Signer): Promise<void> {
  let pk: Uint8Array;
  try {
    pk = fromBase64(s.publicKeyBase64, 'public key');
  } catch {
    throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', `Signer ${s.fingerprint} has an invalid public key`);
  }
  if (pk.length !== 32 || (await cantonFingerprint(pk)) !== s.fingerprint) {
    throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', `Signer ${s.fingerprint}: the public key does not have that fingerprint`);
  }
}

export function checkWindow(req: Pick<SigningRequest, 'createdAt' | 'expiresAt'>, now: Date): void {
  if (now.getTime() > Date.parse(req.expiresAt)) {
    throw new SigningRefusal('FORBIDDEN', 'REQUEST_EXPIRED', `The signing request expired at ${req.expiresAt}`);
  }
  if (Date.parse(req.createdAt) > now.getTime() + CLOCK_SKEW_MS) {
    throw new SigningRefusal(
      'FORBIDDEN',
      'REQUEST_NOT_YET_VALID',
      `The signing request is dated in the future (${req.createdAt}); check this machine’s clock`,
    );
  }
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', `The ${what} file is not valid JSON`);
  }
}

export function checkHeader(json: unknown, format: string, what: string, versions: readonly number[] = [1]): void {
  const h = z.object({ format: z.string(), version: z.number() }).safeParse(json);
  if (!h.success || h.data.format !== format) throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', `Not a ${what} file`);
  if (!versions.includes(h.data.version)) {
    throw new SigningRefusal(
      'BAD_REQUEST',
      'UNKNOWN_FILE_VERSION',
      `${what.charAt(0).toUpperCase()}${what.slice(1)} version ${h.data.version} is not supported (supports ${versions.join(', ')})`,
    );
  }
}

/** A file's body checked against its schema; the first problem found is the refusal's message. */
export function parseFileBody<T>(json: unknown, schema: z.ZodType<T>, what: string): T {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', `Invalid ${what}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
}

/** The archives a request carries, inflated (their package ids are not verified here: `VerifiedPackages.add` does). */
export function carriedArchives(request: SigningRequest): Array<{ packageId: string; bytes: Uint8Array }> {
  if (request.version === 1) return [];
  return request.packages.map((p) => {
    try {
      const gz = fromBase64(p.archiveGzipBase64, `package ${p.packageId}`);
      // bounded while inflating, so a crafted file cannot exhaust memory
      const bytes = new Uint8Array(gunzipSync(gz, { maxOutputLength: MAX_ARCHIVE_BYTES }));
      return { packageId: p.packageId, bytes };
    } catch (err) {
      throw new SigningRefusal(
        'BAD_REQUEST',
        'NOT_A_VALID_FILE',
        `The request's package ${p.packageId} is not a gzip-compressed archive: ${(err as Error).message}`,
      );
    }
  });
}
