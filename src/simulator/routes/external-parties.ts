/** External parties: generate onboarding topology, allocate after verifying the party's signature. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { SimContext } from '../context.js';
import type { Ed25519Key, JsSignature } from '../crypto/keys.js';
import { parsePublicKey, signatureValid } from '../crypto/keys.js';
import { decodeOnboarding, multiHashOf, onboardingTransactions, transactionHash } from '../crypto/topology.js';
import { CantonError } from '../errors.js';
import { PARTY_HINT_RE } from '../ids.js';
import type { LedgerWriter } from '../ledger.js';
import type { Router } from '../router.js';
import { ok } from '../router.js';
import { AllocateExternalPartySchema, GenerateExternalPartyTopologySchema } from '../schemas-interactive.js';
import { body } from './common.js';
import { grantActAs } from './users.js';

type S = v3_5.components['schemas'];

const participantUidOf = (participantId: string): string => participantId.replace(/^PAR::/, '');

function decodeBase64(text: string, field: string): Uint8Array {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.length === 0)
    throw new CantonError('INVALID_ARGUMENT', `${field} is not base64`, { context: { field } });
  return Buffer.from(text, 'base64');
}

export function registerExternalPartyRoutes(router: Router, sim: SimContext, writer: LedgerWriter): void {
  const checkSync = (id: string): void => {
    if (!sim.synchronizers.some((s) => s.id === id))
      throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${id}`, { context: { synchronizerId: id } });
  };

  router.add('POST', '/v2/parties/external/generate-topology', async (ctx) => {
    const req = await body(ctx, GenerateExternalPartyTopologySchema);
    checkSync(req.synchronizer);
    if (!PARTY_HINT_RE.test(req.partyHint) || req.partyHint.includes('::'))
      throw new CantonError('INVALID_ARGUMENT', `Invalid party hint '${req.partyHint}'`, { context: { field: 'partyHint' } });
    if ((req.otherConfirmingParticipantUids ?? []).length > 0 || (req.observingParticipantUids ?? []).length > 0)
      throw new CantonError('INVALID_ARGUMENT', 'The simulator hosts external parties on its single participant only', {
        context: { field: 'otherConfirmingParticipantUids' },
      });
    const key = await parsePublicKey(req.publicKey);
    const partyId = `${req.partyHint}::${key.fingerprint}`;
    const txs = await onboardingTransactions({
      partyId,
      key,
      participantUid: participantUidOf(sim.participantId),
      observationOnly: req.localParticipantObservationOnly ?? false,
    });
    const res: S['GenerateExternalPartyTopologyResponse'] = {
      partyId,
      publicKeyFingerprint: key.fingerprint,
      topologyTransactions: txs.map((t) => Buffer.from(t).toString('base64')),
      multiHash: Buffer.from(await multiHashOf(txs)).toString('base64'),
    };
    return ok(res);
  });

  router.add('POST', '/v2/parties/external/allocate', async (ctx) => {
    const req = await body(ctx, AllocateExternalPartySchema);
    checkSync(req.synchronizer);
    if (req.userId) grantActAs(sim, req.userId, undefined);
    const txs = req.onboardingTransactions.map((t, i) => decodeBase64(t.transaction, `onboardingTransactions[${i}].transaction`));
    const onboarding = await decodeOnboarding(txs);
    const uid = participantUidOf(sim.participantId);
    const host = onboarding.hosts.find((h) => h.participantUid === uid);
    if (!host)
      throw new CantonError('INVALID_ARGUMENT', `PartyToParticipant does not host the party on this participant (${uid})`, {
        context: { field: 'onboardingTransactions' },
      });
    // The namespace (root) key must authorize all onboarding transactions: either one signature over
    // the multi-hash, or a signature over each transaction's hash.
    const signedBy = (sigs: JsSignature[] | undefined, key: Ed25519Key, message: Uint8Array): boolean =>
      (sigs ?? []).some((s) => signatureValid(s, key, message));
    const multiHash = await multiHashOf(txs);
    let authorized = signedBy(req.multiHashSignatures, onboarding.namespaceKey, multiHash);
    if (!authorized) {
      const perTx = await Promise.all(
        req.onboardingTransactions.map(async (t, i) =>
          signedBy(t.signatures, onboarding.namespaceKey, await transactionHash(txs[i] as Uint8Array)),
        ),
      );
      authorized = perTx.length > 0 && perTx.every(Boolean);
    }
    if (!authorized)
      throw new CantonError(
        'INVALID_ARGUMENT',
        `Invalid or missing signature of the namespace key ${onboarding.namespaceKey.fingerprint} over the onboarding transactions`,
        {
          context: { field: 'multiHashSignatures', signedBy: onboarding.namespaceKey.fingerprint },
        },
      );
    const row = writer.allocateExternalParty({
      party: onboarding.partyId,
      synchronizerId: req.synchronizer,
      permission: host.observationOnly ? 'PARTICIPANT_PERMISSION_OBSERVATION' : 'PARTICIPANT_PERMISSION_CONFIRMATION',
      threshold: onboarding.threshold,
      keys: onboarding.signingKeys.map((k) => ({ fingerprint: k.fingerprint, raw: k.raw.toString('base64') })),
      ...(req.identityProviderId ? { identityProviderId: req.identityProviderId } : {}),
    });
    if (req.userId) grantActAs(sim, req.userId, row.party);
    const res: S['AllocateExternalPartyResponse'] = { partyId: row.party };
    return ok(res);
  });
}
