/**
 * Offline (air-gapped) onboarding files, with the same rules as offline transaction signing (offline-files.ts):
 * versioned formats, zod validation, a digest over the canonical JSON of the request, a validity window, and a
 * response that names the request (id + digest) it answers.
 *  - onboarding request: the participant's generate-topology answer (topology transactions + multi-hash) for the
 *    party, the signing key (fingerprint + public key) and the participant;
 *  - onboarding response: the request's id and digest, the party and the key's signature over the multi-hash.
 * The multi-hash is recomputed from the transactions on both sides (verifyTopology) before anything is signed or used.
 */
import { randomUUID } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { z } from 'zod';
import { fromBase64, sha256Hex } from './bytes.js';
import { canonicalJson } from './canonical-json.js';
import { SigningRefusal } from './errors.js';
import {
  checkHeader,
  checkSigner,
  checkWindow,
  JsonSignatureSchema,
  parseFileBody,
  parseJson,
  SignerSchema,
  type Signer,
} from './offline-files.js';
import { SIGNATURE_FORMAT, SIGNING_ALGORITHM, type JsonSignature } from './signing-service.js';
import { GenerateTopologyResponseSchema, verifyTopology, type GenerateTopologyResponse } from './topology.js';

export const ONBOARDING_REQUEST_FORMAT = 'canton-console/onboarding-request' as const;
export const ONBOARDING_RESPONSE_FORMAT = 'canton-console/onboarding-response' as const;

const OnboardingRequestBodyV1Schema = z.object({
  format: z.literal(ONBOARDING_REQUEST_FORMAT),
  version: z.literal(1),
  requestId: z.string().min(1).max(100),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  participantId: z.string().min(1),
  synchronizerId: z.string().min(1),
  signer: SignerSchema,
  topology: GenerateTopologyResponseSchema,
  note: z.string().max(500).optional(),
});
export const OnboardingRequestV1Schema = OnboardingRequestBodyV1Schema.extend({ digest: z.string().regex(/^[0-9a-f]{64}$/) });
export type OnboardingRequest = z.infer<typeof OnboardingRequestV1Schema>;

export const OnboardingResponseV1Schema = z.object({
  format: z.literal(ONBOARDING_RESPONSE_FORMAT),
  version: z.literal(1),
  requestId: z.string().min(1),
  requestDigest: z.string().regex(/^[0-9a-f]{64}$/),
  partyId: z.string().min(1),
  signedAt: z.iso.datetime(),
  multiHashSignatures: z.array(JsonSignatureSchema).min(1).max(1),
});
export type OnboardingResponse = z.infer<typeof OnboardingResponseV1Schema>;

export function onboardingRequestDigest(body: Omit<OnboardingRequest, 'digest'> | OnboardingRequest): string {
  const { digest: _ignored, ...rest } = body as OnboardingRequest;
  return sha256Hex(canonicalJson(rest));
}

/** Online side: verifies the topology for the key, then writes the request (object and file text). */
export async function createOnboardingRequest(input: {
  topology: GenerateTopologyResponse;
  signer: Signer;
  participantId: string;
  synchronizerId: string;
  ttlMs?: number;
  note?: string;
  now?: Date;
}): Promise<{ request: OnboardingRequest; text: string }> {
  await checkSigner(input.signer);
  await verifyTopology(input.topology, input.signer.fingerprint);
  const now = input.now ?? new Date();
  const body = {
    format: ONBOARDING_REQUEST_FORMAT,
    version: 1 as const,
    requestId: randomUUID(),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + (input.ttlMs ?? 3_600_000)).toISOString(),
    participantId: input.participantId,
    synchronizerId: input.synchronizerId,
    signer: input.signer,
    topology: {
      partyId: input.topology.partyId,
      publicKeyFingerprint: input.topology.publicKeyFingerprint,
      topologyTransactions: input.topology.topologyTransactions,
      multiHash: input.topology.multiHash,
    },
    ...(input.note ? { note: input.note } : {}),
  };
  const request = OnboardingRequestV1Schema.parse({ ...body, digest: onboardingRequestDigest(body) });
  return { request, text: JSON.stringify(request, null, 2) + '\n' };
}

/** Either side: parses and checks a request file (schema, version, digest, signer, validity window). */
export async function parseOnboardingRequest(text: string, now: Date = new Date()): Promise<OnboardingRequest> {
  const json = parseJson(text, 'onboarding request');
  checkHeader(json, ONBOARDING_REQUEST_FORMAT, 'onboarding request');
  const req = parseFileBody(json, OnboardingRequestV1Schema, 'onboarding request');
  if (onboardingRequestDigest(req) !== req.digest) {
    throw new SigningRefusal('BAD_REQUEST', 'DIGEST_MISMATCH', 'The onboarding request was altered after it was created (digest mismatch)');
  }
  await checkSigner(req.signer);
  checkWindow(req, now);
  return req;
}

export function createOnboardingResponse(
  request: OnboardingRequest,
  signature: JsonSignature,
  now: Date = new Date(),
): { response: OnboardingResponse; text: string } {
  const response = OnboardingResponseV1Schema.parse({
    format: ONBOARDING_RESPONSE_FORMAT,
    version: 1,
    requestId: request.requestId,
    requestDigest: request.digest,
    partyId: request.topology.partyId,
    signedAt: now.toISOString(),
    multiHashSignatures: [signature],
  });
  return { response, text: JSON.stringify(response, null, 2) + '\n' };
}

/** Online side: checks a response against its request — id, digest, party, key and the signature over the multi-hash. */
export async function importOnboardingResponse(request: OnboardingRequest, text: string, now: Date = new Date()): Promise<JsonSignature[]> {
  const json = parseJson(text, 'onboarding response');
  checkHeader(json, ONBOARDING_RESPONSE_FORMAT, 'onboarding response');
  const resp = parseFileBody(json, OnboardingResponseV1Schema, 'onboarding response');
  if (resp.requestId !== request.requestId) {
    throw new SigningRefusal('FORBIDDEN', 'DIGEST_MISMATCH', `This response answers request ${resp.requestId}, not ${request.requestId}`);
  }
  if (resp.requestDigest !== onboardingRequestDigest(request)) {
    throw new SigningRefusal(
      'FORBIDDEN',
      'DIGEST_MISMATCH',
      'The response was made for a different version of this request (digest mismatch)',
    );
  }
  if (resp.partyId !== request.topology.partyId) {
    throw new SigningRefusal(
      'FORBIDDEN',
      'WRONG_PARTY',
      `The response is for ${resp.partyId}, the request for ${request.topology.partyId}`,
    );
  }
  checkWindow(request, now);
  // the multi-hash that was signed is the one recomputed from the transactions, not the one written in the file
  const { multiHash } = await verifyTopology(request.topology, request.signer.fingerprint);
  const [sig] = resp.multiHashSignatures;
  if (!sig) throw new SigningRefusal('BAD_REQUEST', 'NOT_A_VALID_FILE', 'The response carries no signature');
  if (sig.signedBy !== request.signer.fingerprint)
    throw new SigningRefusal('FORBIDDEN', 'WRONG_KEY', `Key ${sig.signedBy} is not the request’s key ${request.signer.fingerprint}`);
  if (sig.format !== SIGNATURE_FORMAT || sig.signingAlgorithmSpec !== SIGNING_ALGORITHM) {
    throw new SigningRefusal('BAD_REQUEST', 'BAD_SIGNATURE', `Unsupported signature format ${sig.format} / ${sig.signingAlgorithmSpec}`);
  }
  let ok: boolean;
  try {
    ok = await ed.verifyAsync(fromBase64(sig.signature, 'signature'), multiHash, fromBase64(request.signer.publicKeyBase64, 'public key'));
  } catch {
    ok = false;
  }
  if (!ok)
    throw new SigningRefusal(
      'FORBIDDEN',
      'BAD_SIGNATURE',
      `The signature by ${sig.signedBy} does not verify against the onboarding multi-hash`,
    );
  return [sig];
}
