/**
 * Validator admin endpoints for external parties (`/v0/admin/external-party/*` of validator-internal.yaml). All need
 * the validator operator (`admin`). Request bodies are checked with zod; the prepare/submit pairs go through the JSON
 * API's interactive submission (see `external-party.ts`).
 */
import { z } from 'zod';
import type { RequestCtx } from '../router.js';
import { WalletError } from './app.js';
import type { ExternalPartyWallet } from './external-party.js';
import type { AddRoute } from './http.js';
import { ok, parsedBody } from './http.js';

const GenerateTopologySchema = z.object({ party_hint: z.string(), public_key: z.string() });
const SubmitTopologySchema = z.object({
  public_key: z.string(),
  signed_topology_txs: z.array(z.object({ topology_tx: z.string(), signed_hash: z.string() })),
});
const CreateProposalSchema = z.object({ user_party_id: z.string().min(1) });
const PrepareAcceptSchema = z.object({
  contract_id: z.string().min(1),
  user_party_id: z.string().min(1),
  verbose_hashing: z.boolean().optional(),
});
const SubmissionSchema = z.object({
  submission: z.object({ party_id: z.string().min(1), transaction: z.string().min(1), signed_tx_hash: z.string(), public_key: z.string() }),
});
const PrepareSendSchema = z.object({
  sender_party_id: z.string().min(1),
  receiver_party_id: z.string().min(1),
  amount: z.number(),
  expires_at: z.string(),
  nonce: z.number().int(),
  verbose_hashing: z.boolean().optional(),
  description: z.string().optional(),
});

const noVerboseHashing = (v: boolean | undefined): void => {
  if (v === true) throw new WalletError(501, 'verbose_hashing is not supported by the simulator');
};

export function registerExternalPartyRoutes(add: AddRoute, admin: (ctx: RequestCtx) => void, ext: ExternalPartyWallet): void {
  add('POST', '/v0/admin/external-party/topology/generate', async (ctx) => {
    admin(ctx);
    const b = await parsedBody(ctx, GenerateTopologySchema);
    return ok(await ext.generateTopology(b.party_hint, b.public_key));
  });
  add('POST', '/v0/admin/external-party/topology/submit', async (ctx) => {
    admin(ctx);
    const b = await parsedBody(ctx, SubmitTopologySchema);
    return ok({ party_id: await ext.submitTopology(b.public_key, b.signed_topology_txs) });
  });

  add('POST', '/v0/admin/external-party/setup-proposal', async (ctx) => {
    admin(ctx);
    const b = await parsedBody(ctx, CreateProposalSchema);
    return ok({ contract_id: ext.createSetupProposal(b.user_party_id) });
  });
  add('GET', '/v0/admin/external-party/setup-proposal', (ctx) => {
    admin(ctx);
    return ok({ contracts: ext.proposals().map((c) => ext.listContract(c)) });
  });
  add('POST', '/v0/admin/external-party/setup-proposal/prepare-accept', async (ctx) => {
    admin(ctx);
    const b = await parsedBody(ctx, PrepareAcceptSchema);
    noVerboseHashing(b.verbose_hashing);
    return ok(await ext.prepareAcceptProposal(b.contract_id, b.user_party_id));
  });
  add('POST', '/v0/admin/external-party/setup-proposal/submit-accept', async (ctx) => {
    admin(ctx);
    const b = await parsedBody(ctx, SubmissionSchema);
    return ok(await ext.submitAcceptProposal(b.submission));
  });

  add('POST', '/v0/admin/external-party/transfer-preapproval/prepare-send', async (ctx) => {
    admin(ctx);
    const b = await parsedBody(ctx, PrepareSendSchema);
    noVerboseHashing(b.verbose_hashing);
    return ok(await ext.prepareSend(b));
  });
  add('POST', '/v0/admin/external-party/transfer-preapproval/submit-send', async (ctx) => {
    admin(ctx);
    const b = await parsedBody(ctx, SubmissionSchema);
    return ok(await ext.submitSend(b.submission));
  });

  add('GET', '/v0/admin/external-party/balance', (ctx) => {
    admin(ctx);
    const party = ctx.query.get('party_id');
    if (!party) throw new WalletError(400, "Missing required query parameter 'party_id'");
    return ok(ext.balance(party));
  });
}
