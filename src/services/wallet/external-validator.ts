/**
 * The validator's admin endpoints for an external party's transactions: it prepares them (`prepare-accept` of a
 * preapproval setup proposal, `prepare-send`) and submits them with the party's signature (`submit-accept`,
 * `submit-send`). Verifying and signing what it prepared is the external wallet's part (external-wallet.ts).
 */
import {
  CreateExternalPartySetupProposalResponseSchema,
  ListExternalPartySetupProposalsResponseSchema,
  PrepareAcceptExternalPartySetupProposalResponseSchema,
  PrepareTransferPreapprovalSendResponseSchema,
  SubmitAcceptExternalPartySetupProposalResponseSchema,
  SubmitTransferPreapprovalSendResponseSchema,
} from './splice-schemas.js';
import type { ValidatorClient } from './validator-client.js';

export type ExternalTxKind = 'preapproval-setup' | 'send';

/** What the validator prepared: a base64 PreparedTransaction and its hex hash. */
export interface ValidatorPrepared {
  transaction: string;
  tx_hash: string;
}

export interface Submitted {
  status: 'submitted';
  kind: ExternalTxKind;
  updateId: string;
  contractId: string | null;
  auditSeq: number | null;
}

/** Preapproval setup: the operator proposes (`setup-proposal`, reused if one is pending), the external party accepts. */
export async function prepareSetupAccept(admin: ValidatorClient, party: string): Promise<ValidatorPrepared> {
  const pending = await admin.get('/v0/admin/external-party/setup-proposal', ListExternalPartySetupProposalsResponseSchema);
  const mine = pending.contracts.find((c) => (c.contract.payload as { user?: unknown }).user === party);
  const contractId =
    mine?.contract.contract_id ??
    (await admin.post('/v0/admin/external-party/setup-proposal', { user_party_id: party }, CreateExternalPartySetupProposalResponseSchema))
      .contract_id;
  return admin.post(
    '/v0/admin/external-party/setup-proposal/prepare-accept',
    { contract_id: contractId, user_party_id: party },
    PrepareAcceptExternalPartySetupProposalResponseSchema,
  );
}

export async function prepareSend(
  admin: ValidatorClient,
  req: { party: string; receiver: string; amount: string; description: string; expiresInMinutes: number },
  nonce: number,
): Promise<ValidatorPrepared> {
  return admin.post(
    '/v0/admin/external-party/transfer-preapproval/prepare-send',
    {
      sender_party_id: req.party,
      receiver_party_id: req.receiver,
      // The spec types the amount as a JSON number.
      amount: Number(req.amount),
      expires_at: new Date(Date.now() + req.expiresInMinutes * 60_000).toISOString(),
      nonce,
      ...(req.description ? { description: req.description } : {}),
    },
    PrepareTransferPreapprovalSendResponseSchema,
  );
}

/** Submits a transaction the validator prepared, with the party's signature of its hash. */
export async function submitSigned(
  admin: ValidatorClient,
  s: { kind: ExternalTxKind; party: string; transaction: string },
  signedTxHashHex: string,
  publicKeyHex: string,
  auditSeq: number | null,
): Promise<Submitted> {
  const submission = { party_id: s.party, transaction: s.transaction, signed_tx_hash: signedTxHashHex, public_key: publicKeyHex };
  if (s.kind === 'send') {
    const r = await admin.post(
      '/v0/admin/external-party/transfer-preapproval/submit-send',
      { submission },
      SubmitTransferPreapprovalSendResponseSchema,
    );
    return { status: 'submitted', kind: s.kind, updateId: r.update_id, contractId: null, auditSeq };
  }
  const r = await admin.post(
    '/v0/admin/external-party/setup-proposal/submit-accept',
    { submission },
    SubmitAcceptExternalPartySetupProposalResponseSchema,
  );
  return { status: 'submitted', kind: s.kind, updateId: r.update_id, contractId: r.transfer_preapproval_contract_id, auditSeq };
}
