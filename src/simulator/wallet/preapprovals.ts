/**
 * Transfer preapprovals (one-step transfers): a receiver's `TransferPreapproval` (provider: the validator) lets any
 * sender pay it in one transaction, without an offer to accept. Sends are deduplicated per sender by their
 * `deduplication_id` for 24 hours.
 */
import { microsToIso } from '../clock.js';
import type { SimContext } from '../context.js';
import type { ContractRow } from '../model.js';
import { fmt, num } from './coin.js';
import { args, PREAPPROVAL_LIFETIME_MICROS, T, tid } from './names.js';
import { parseFloatStrict, WalletError } from './types.js';
import type { WalletCore } from './wallet-core.js';

export type PreapprovalSendRequest = { receiver_party_id: string; amount: string; deduplication_id: string; description?: string };

const DEDUPLICATION_MICROS = 24n * 3600n * 1_000_000n;

export class Preapprovals {
  constructor(
    private readonly sim: SimContext,
    private readonly core: WalletCore,
  ) {}

  preapprovalOf(receiver: string): ContractRow | undefined {
    return this.core.contracts(receiver, T.preapproval).find((c) => args(c).receiver === receiver);
  }

  /** Creates the user's TransferPreapproval (provider: the validator). `created: false` when one exists already. */
  createPreapproval(user: string): { cid: string; created: boolean } {
    const receiver = this.core.partyOf(user);
    const existing = this.preapprovalOf(receiver);
    if (existing) return { cid: existing.contractId, created: false };
    const { dso, validatorParty } = this.core;
    const now = this.sim.clock.nowMicros();
    const r = this.core.submit(
      [receiver, validatorParty, dso],
      [
        {
          CreateCommand: {
            templateId: tid(T.preapproval),
            createArguments: {
              dso,
              receiver,
              provider: validatorParty,
              validFrom: microsToIso(now),
              lastRenewedAt: microsToIso(now),
              expiresAt: microsToIso(now + PREAPPROVAL_LIFETIME_MICROS),
            },
          },
        },
      ],
    );
    const cid = r.tx.nodes.find((n) => n.kind === 'create')?.contractId ?? '';
    this.core.log(
      [receiver],
      {
        transaction_type: 'notification',
        choice: 'Create',
        template: T.preapproval,
        event_id: r.updateId,
        details: 'Transfer preapproval created',
      },
      r,
    );
    return { cid, created: true };
  }

  /** One-step transfer to a party with a TransferPreapproval; deduplicated by `deduplication_id` (24 h). */
  preapprovalSend(user: string, req: PreapprovalSendRequest): void {
    const sender = this.core.partyOf(user);
    this.core.runAutomation();
    const dedupKey = `${sender}:${req.deduplication_id}`;
    const dedup = this.core.trackingOf('preapproval-send', dedupKey);
    if (dedup && this.sim.clock.nowMicros() - BigInt(String(dedup.status.at)) < DEDUPLICATION_MICROS)
      throw new WalletError(409, `A transfer with deduplication id ${req.deduplication_id} was already sent`);
    const amount = parseFloatStrict(req.amount) !== undefined ? num(req.amount) : 0n;
    if (amount <= 0n) throw new WalletError(400, `Invalid amount '${req.amount}': a positive decimal is required`);
    const pre = this.preapprovalOf(req.receiver_party_id);
    if (!pre) throw new WalletError(404, `Party ${req.receiver_party_id} has no transfer preapproval`);
    const inputs = this.core.selectInputs(sender, amount);
    const r = this.core.exercise([sender, this.core.dso], T.preapproval, pre.contractId, 'TransferPreapproval_Send', {
      sender,
      inputs,
      amount: fmt(amount),
      description: req.description ?? null,
      openRound: this.core.openRound().cid,
      featuredAppRight: this.core.featuredAppRightOf(sender)?.contractId ?? null,
    });
    this.core.putTracking('preapproval-send', dedupKey, {
      user,
      kind: 'offer',
      status: { at: String(this.sim.clock.nowMicros()), transaction_id: r.res.updateId },
    });
    this.core.log(
      [sender, req.receiver_party_id],
      {
        transaction_type: 'transfer',
        choice: 'TransferPreapproval_Send',
        template: T.preapproval,
        amulet_operation: 'transfer',
        event_id: r.res.updateId,
        sender: { party: sender, amount: `-${fmt(amount)}` },
        receivers: [{ party: req.receiver_party_id, amount: fmt(amount) }],
        description: req.description ?? '',
      },
      r.res,
    );
  }
}
