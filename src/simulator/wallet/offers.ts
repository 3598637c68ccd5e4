/**
 * Two-step transfer offers of the validator wallet: create (funds locked, no fee, at most 100 inputs), list, accept
 * (→ AcceptedTransferOffer, completed by the sender's automation), reject / withdraw / expire (funds returned), and
 * the status by tracking id: created → accepted → completed, or failed (rejected / withdrawn / expired).
 */
import { microsToIso } from '../clock.js';
import type { SimContext } from '../context.js';
import type { SubmitResult } from '../ledger.js';
import type { ContractRow } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import type { NewOfferRequest, OfferOps, WalletCore } from './wallet-core.js';
import { fmt, num } from './coin.js';
import { args, T } from './names.js';
import type { OfferStatus, SpliceContract } from './types.js';
import { parseFloatStrict, trafficCostBytes, WalletError } from './types.js';
import { asText } from '../lf-text.js';

export class TransferOffers implements OfferOps {
  constructor(
    private readonly sim: SimContext,
    private readonly app: WalletCore,
  ) {}

  createOffer(user: string, req: NewOfferRequest): string {
    const sender = this.app.partyOf(user);
    this.app.runAutomation();
    if (this.app.trackingOf('offer', req.tracking_id))
      throw new WalletError(409, `A transfer offer with tracking id ${req.tracking_id} already exists`);
    if (!this.sim.store.hasParty(req.receiver_party_id)) throw new WalletError(400, `Unknown receiver party ${req.receiver_party_id}`);
    if (req.receiver_party_id === sender) throw new WalletError(400, 'Sender and receiver must differ');
    const amount = parseFloatStrict(req.amount) !== undefined ? num(req.amount) : 0n;
    if (amount <= 0n) throw new WalletError(400, `Invalid amount '${req.amount}': a positive decimal is required`);
    const expires = BigInt(req.expires_at);
    if (expires <= this.sim.clock.nowMicros()) throw new WalletError(400, 'expires_at must be in the future');
    const inputs = this.app.selectInputs(sender, amount);
    const r = this.app.exercise([sender, this.app.dso], T.rules, this.app.rules(), 'AmuletRules_CreateTransferOffer', {
      sender,
      receiver: req.receiver_party_id,
      inputs,
      amount: fmt(amount),
      description: req.description,
      expiresAt: microsToIso(expires),
      trackingId: req.tracking_id,
      openRound: this.app.openRound().cid,
    });
    const offerCid = asText(r.result);
    this.app.putTracking('offer', req.tracking_id, {
      user,
      kind: 'offer',
      status: { status: 'created', contract_id: offerCid, transaction_id: r.res.updateId },
    });
    this.app.log(
      [sender, req.receiver_party_id],
      {
        transaction_type: 'notification',
        choice: 'AmuletRules_CreateTransferOffer',
        template: T.rules,
        event_id: r.res.updateId,
        details:
          `Transfer offer of ${fmt(amount)} to ${req.receiver_party_id} created ` +
          `(${inputs.length} inputs, ${trafficCostBytes(inputs.length)} bytes of traffic)`,
      },
      r.res,
    );
    return offerCid;
  }

  listOffers(user: string): SpliceContract[] {
    const party = this.app.partyOf(user);
    this.app.runAutomation();
    return this.app.contracts(party, T.offer).map((c) => this.app.contractJson(c));
  }

  listAccepted(user: string): SpliceContract[] {
    const party = this.app.partyOf(user);
    this.app.runAutomation();
    return this.app.contracts(party, T.accepted).map((c) => this.app.contractJson(c));
  }

  private offerFor(party: string, contractId: string, qn: string = T.offer): ContractRow {
    const c = this.app.contracts(party, qn).find((x) => x.contractId === contractId);
    if (!c) throw new WalletError(404, `No active transfer offer ${contractId} visible to ${party}`);
    return c;
  }

  accept(user: string, contractId: string): string {
    const party = this.app.partyOf(user);
    this.app.runAutomation();
    const o = this.offerFor(party, contractId);
    if (args(o).receiver !== party) throw new WalletError(403, 'Only the receiver can accept a transfer offer');
    const r = this.app.exercise([party], T.offer, contractId, 'TransferOffer_Accept', {});
    const acceptedCid = asText(r.result);
    this.setOfferStatus(o, { status: 'accepted', contract_id: acceptedCid, transaction_id: r.res.updateId });
    if (this.app.config.autoCompleteAcceptedOffers) this.completeAccepted(acceptedCid);
    return acceptedCid;
  }

  /** Sender automation: delivers an accepted offer's locked amount to the receiver. */
  completeAccepted(acceptedCid: string): void {
    const c = this.sim.store.contract(acceptedCid);
    if (!c || c.archivedOffset !== null) throw new WalletError(404, `No active accepted transfer offer ${acceptedCid}`);
    const a = c.node.createArgument as LfRecord;
    const r = this.app.exercise([asText(a.sender)], T.accepted, acceptedCid, 'AcceptedTransferOffer_Complete', {
      openRound: this.app.openRound().cid,
      featuredAppRight: this.app.featuredAppRightOf(asText(a.sender))?.contractId ?? null,
    });
    const amuletCid = asText(r.result);
    this.setOfferStatus(c, { status: 'completed', contract_id: amuletCid, transaction_id: r.res.updateId });
    const received = (() => {
      const x = this.sim.store.contract(amuletCid);
      return x ? args(x).initialAmount : undefined;
    })();
    this.app.log(
      [asText(a.sender), asText(a.receiver)],
      {
        transaction_type: 'transfer',
        choice: 'AcceptedTransferOffer_Complete',
        template: T.accepted,
        amulet_operation: 'transfer',
        event_id: r.res.updateId,
        sender: { party: asText(a.sender), amount: `-${fmt(num(a.amount))}` },
        receivers: [{ party: asText(a.receiver), amount: fmt(num(received ?? a.amount)) }],
        description: asText(a.description ?? ''),
      },
      r.res,
    );
  }

  reject(user: string, contractId: string): void {
    const party = this.app.partyOf(user);
    this.app.runAutomation();
    const o = this.offerFor(party, contractId);
    if (args(o).receiver !== party) throw new WalletError(403, 'Only the receiver can reject a transfer offer');
    const r = this.app.exercise([party], T.offer, contractId, 'TransferOffer_Reject', { openRound: this.app.openRound().cid });
    this.closed(o, r.res, { status: 'failed', failure_kind: 'rejected' });
  }

  withdraw(user: string, contractId: string, reason = 'withdrawn by the sender'): void {
    const party = this.app.partyOf(user);
    this.app.runAutomation();
    const o = this.offerFor(party, contractId);
    if (args(o).sender !== party) throw new WalletError(403, 'Only the sender can withdraw a transfer offer');
    const r = this.app.exercise([party], T.offer, contractId, 'TransferOffer_Withdraw', { openRound: this.app.openRound().cid, reason });
    this.closed(o, r.res, { status: 'failed', failure_kind: 'withdrawn', withdrawn_reason: reason });
  }

  closed(o: ContractRow, res: SubmitResult, status: OfferStatus): void {
    const a = o.node.createArgument as LfRecord;
    this.setOfferStatus(o, status);
    this.app.log(
      [asText(a.sender), asText(a.receiver)],
      {
        transaction_type: 'notification',
        choice: (res.tx.nodes[0] as { choice?: string }).choice ?? '',
        template: o.node.qualifiedName,
        event_id: res.updateId,
        details:
          `Transfer offer of ${fmt(num(a.amount))} from ${asText(a.sender)} to ${asText(a.receiver)} ` +
          `${status.status === 'failed' ? status.failure_kind : status.status}; locked funds returned to the sender`,
      },
      res,
    );
  }

  offerStatus(user: string, trackingId: string): OfferStatus {
    this.app.partyOf(user);
    this.app.runAutomation();
    const t = this.app.trackingOf('offer', trackingId);
    if (!t) throw new WalletError(404, `No transfer offer with tracking id ${trackingId}`);
    // written by setOfferStatus
    return t.status as OfferStatus;
  }

  private setOfferStatus(o: ContractRow, status: OfferStatus): void {
    const tracking = asText(args(o).trackingId ?? '');
    const t = this.app.trackingOf('offer', tracking);
    if (t) this.app.putTracking('offer', tracking, { ...t, status });
  }
}
