/**
 * Minting delegations of the wallet user as delegate (wallet-internal `listMintingDelegationProposals`,
 * `acceptMintingDelegationProposal`, `rejectMintingDelegationProposal`, `listMintingDelegations`,
 * `rejectMintingDelegation`), over `templates-minting.ts`. Lists page with `after` (an index returned as
 * `next_page_token`) and `limit` (default 1000).
 */
import type { ContractRow } from '../model.js';
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import type { AddRoute } from './http.js';
import { empty, ok } from './http.js';
import { args } from './names.js';
import { MINTING_QN } from './templates-minting.js';
import { WalletError } from './types.js';
import { asText } from '../lf-text.js';

function page(ctx: RequestCtx, rows: ContractRow[]): { rows: ContractRow[]; next?: number } {
  const num = (name: string, dflt: number): number => {
    const v = ctx.query.get(name);
    if (v === null) return dflt;
    if (!/^\d+$/.test(v)) throw new WalletError(400, `Query parameter '${name}' must be a non-negative integer`);
    return Number(v);
  };
  const after = num('after', 0);
  const limit = num('limit', 1000);
  if (limit < 1) throw new WalletError(400, "Query parameter 'limit' must be at least 1");
  const slice = rows.slice(after, after + limit);
  return after + limit < rows.length ? { rows: slice, next: after + limit } : { rows: slice };
}

export function registerMintingRoutes(add: AddRoute, user: (ctx: RequestCtx) => string, app: WalletApp): void {
  const asDelegate = (party: string, qn: string) => app.contracts(party, qn).filter((c) => args(c).delegate === party);
  const withStatus = (c: ContractRow) => ({
    contract: app.contractJson(c),
    beneficiary_hosted: app.knownParty(asText(args(c).beneficiary)),
  });
  const find = (party: string, qn: string, cid: string): ContractRow => {
    const c = asDelegate(party, qn).find((x) => x.contractId === cid);
    if (!c) throw new WalletError(404, `No ${qn.split(':')[1]} ${cid} with ${party} as delegate`);
    return c;
  };

  add('GET', '/v0/wallet/minting-delegation-proposals', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    const p = page(ctx, asDelegate(party, MINTING_QN.proposal));
    return ok({ proposals: p.rows.map(withStatus), ...(p.next !== undefined ? { next_page_token: p.next } : {}) });
  });
  add('POST', '/v0/wallet/minting-delegation-proposals/{contract_id}/accept', (ctx) => {
    const party = app.partyOf(user(ctx));
    const proposal = find(party, MINTING_QN.proposal, ctx.params.contract_id ?? '');
    const existing = asDelegate(party, MINTING_QN.delegation).find((d) => args(d).beneficiary === args(proposal).beneficiary);
    const r = app.exercise([party], MINTING_QN.proposal, proposal.contractId, 'MintingDelegationProposal_Accept', {
      existingDelegationCid: existing?.contractId ?? null,
    });
    app.log(
      [party],
      {
        transaction_type: 'notification',
        choice: 'MintingDelegationProposal_Accept',
        template: MINTING_QN.proposal,
        event_id: r.res.updateId,
        details: `Minting delegation for ${asText(args(proposal).beneficiary)} accepted`,
      },
      r.res,
    );
    return ok({ contract_id: asText(r.result) });
  });
  add('POST', '/v0/wallet/minting-delegation-proposals/{contract_id}/reject', (ctx) => {
    const party = app.partyOf(user(ctx));
    const proposal = find(party, MINTING_QN.proposal, ctx.params.contract_id ?? '');
    app.exercise([party], MINTING_QN.proposal, proposal.contractId, 'MintingDelegationProposal_Reject', {});
    return empty();
  });
  add('GET', '/v0/wallet/minting-delegations', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    const p = page(ctx, asDelegate(party, MINTING_QN.delegation));
    return ok({ delegations: p.rows.map(withStatus), ...(p.next !== undefined ? { next_page_token: p.next } : {}) });
  });
  add('POST', '/v0/wallet/minting-delegations/{contract_id}/reject', (ctx) => {
    const party = app.partyOf(user(ctx));
    const d = find(party, MINTING_QN.delegation, ctx.params.contract_id ?? '');
    app.exercise([party], MINTING_QN.delegation, d.contractId, 'MintingDelegation_Reject', {});
    return empty();
  });
}
