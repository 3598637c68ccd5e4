/**
 * Token-standard transfers of the wallet (wallet-internal `createTokenStandardTransfer`, `listTokenStandardTransfers`,
 * `acceptTokenStandardTransfer`, `rejectTokenStandardTransfer`, `withdrawTokenStandardTransfer`, and the `…V2` operations
 * on the /v2 paths, whose shapes are the same — served by the same V1 instruction, no V2 interfaces): two-step
 * transfers through the DSO's TransferFactory (`templates-transfer-instruction.ts`), funds locked while pending, no
 * transfer fee. A duplicate `tracking_id` → 409; after `expires_at` (= `executeBefore`) accept is refused and the
 * sender's automation withdraws the instruction (`automation.ts`).
 */
import { z } from 'zod';
import { microsToIso } from '../clock.js';
import type { ContractRow } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import { WalletError } from './app.js';
import { fmt, num } from './coin.js';
import type { AddRoute } from './http.js';
import { ok, parsedBody } from './http.js';
import { args, T } from './names.js';
import { TRANSFER_INSTRUCTION_QN } from './templates-transfer-instruction.js';
import { AMULET_INSTRUMENT_ID } from './token-views.js';

const CreateSchema = z.object({
  receiver_party_id: z.string().min(1),
  amount: z.string().regex(/^\d+(\.\d{1,10})?$/, 'a positive decimal with at most 10 fractional digits'),
  description: z.string(),
  expires_at: z.number().int(),
  tracking_id: z.string().min(1),
});

/** The metadata key Splice uses for a transfer's human-readable reason. */
const REASON_KEY = 'splice.lfdecentralizedtrust.org/reason';

const result = (output: Record<string, unknown>, senderChange: string[]) => ({ output, sender_change_cids: senderChange, meta: {} });

export function registerTokenTransferRoutes(add: AddRoute, user: (ctx: RequestCtx) => string, app: WalletApp): void {
  const instructionFor = (party: string, cid: string): ContractRow => {
    const c = app.contracts(party, TRANSFER_INSTRUCTION_QN).find((x) => x.contractId === cid);
    if (!c) throw new WalletError(404, `No pending token-standard transfer ${cid} visible to ${party}`);
    return c;
  };

  const createTransfer = async (ctx: RequestCtx) => {
    const sender = app.partyOf(user(ctx));
    const req = await parsedBody(ctx, CreateSchema);
    app.runAutomation();
    if (app.trackingStatus('token-transfer', req.tracking_id))
      throw new WalletError(409, `A transfer with tracking id ${req.tracking_id} already exists`);
    if (!app.knownParty(req.receiver_party_id)) throw new WalletError(400, `Unknown receiver party ${req.receiver_party_id}`);
    if (req.receiver_party_id === sender) throw new WalletError(400, 'The receiver must differ from the sender');
    const amount = num(req.amount);
    if (amount <= 0n) throw new WalletError(400, 'amount must be positive');
    const now = app.nowMicros();
    if (BigInt(req.expires_at) <= now) throw new WalletError(400, 'expires_at must be in the future');
    const inputs = app.selectInputs(sender, amount);
    const values: LfRecord = req.description === '' ? {} : { [REASON_KEY]: req.description };
    const transfer: LfRecord = {
      sender,
      receiver: req.receiver_party_id,
      amount: fmt(amount),
      instrumentId: { admin: app.dso, id: AMULET_INSTRUMENT_ID },
      requestedAt: microsToIso(now),
      executeBefore: microsToIso(BigInt(req.expires_at)),
      inputHoldingCids: inputs,
      meta: { values },
    };
    const r = app.exercise([sender, app.dso], T.externalRules, app.externalRulesContract().contractId, 'TransferFactory_Transfer', {
      expectedAdmin: app.dso,
      sender,
      transfer,
      openRound: app.openRound().cid,
    });
    const change = r.res.tx.nodes
      .filter((n) => n.kind === 'create' && n.qualifiedName === T.amulet && (n.createArgument as Record<string, unknown>).owner === sender)
      .map((n) => n.contractId);
    app.setTrackingStatus('token-transfer', req.tracking_id, user(ctx), { transaction_id: r.res.updateId, contract_id: String(r.result) });
    app.log(
      [sender, req.receiver_party_id],
      {
        transaction_type: 'transfer',
        choice: 'TransferFactory_Transfer',
        template: T.externalRules,
        amulet_operation: 'transfer_instruction_create',
        event_id: r.res.updateId,
        sender: { party: sender, amount: `-${fmt(amount)}` },
        receivers: [],
        description: req.description,
      },
      r.res,
    );
    return ok(result({ transfer_instruction_cid: String(r.result) }, change));
  };
  add('POST', '/v0/wallet/token-standard/transfers', createTransfer);

  add('GET', '/v0/wallet/token-standard/transfers', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    const mine = app.contracts(party, TRANSFER_INSTRUCTION_QN).filter((c) => args(c).sender === party || args(c).receiver === party);
    return ok({ transfers: mine.map((c) => app.contractJson(c)) });
  });

  const act =
    (choice: 'TransferInstruction_Accept' | 'TransferInstruction_Reject' | 'TransferInstruction_Withdraw') => (ctx: RequestCtx) => {
      const party = app.partyOf(user(ctx));
      app.runAutomation();
      const c = instructionFor(party, ctx.params.contract_id ?? '');
      const a = args(c);
      const actor = choice === 'TransferInstruction_Withdraw' ? a.sender : a.receiver;
      if (actor !== party)
        throw new WalletError(
          403,
          `Only the ${choice === 'TransferInstruction_Withdraw' ? 'sender' : 'receiver'} can ${choice.split('_')[1]?.toLowerCase()} this transfer`,
        );
      const executeBefore = Date.parse(String((a.transfer as Record<string, unknown>).executeBefore));
      if (choice === 'TransferInstruction_Accept' && BigInt(executeBefore) * 1000n <= app.nowMicros())
        throw new WalletError(400, 'The transfer expired (executeBefore has passed)');
      const r = app.exercise([party], TRANSFER_INSTRUCTION_QN, c.contractId, choice, {
        openRound: app.openRound().cid,
        ...(choice === 'TransferInstruction_Accept'
          ? { featuredAppRight: app.featuredAppRightOf(String(a.sender))?.contractId ?? null }
          : {}),
      });
      const amount = fmt(num((a.transfer as LfRecord).amount));
      app.log(
        [String(a.sender), String(a.receiver)],
        choice === 'TransferInstruction_Accept'
          ? {
              transaction_type: 'transfer',
              choice,
              template: TRANSFER_INSTRUCTION_QN,
              amulet_operation: 'transfer',
              event_id: r.res.updateId,
              sender: { party: String(a.sender), amount: `-${amount}` },
              receivers: [{ party: String(a.receiver), amount }],
            }
          : {
              transaction_type: 'notification',
              choice,
              template: TRANSFER_INSTRUCTION_QN,
              event_id: r.res.updateId,
              details: `Token-standard transfer of ${amount} ${choice === 'TransferInstruction_Reject' ? 'rejected' : 'withdrawn'}; locked funds returned to the sender`,
            },
        r.res,
      );
      return ok(
        choice === 'TransferInstruction_Accept'
          ? result({ receiver_holding_cids: [String(r.result)] }, [])
          : result({}, [String(r.result)]),
      );
    };
  add('POST', '/v0/wallet/token-standard/transfers/{contract_id}/accept', act('TransferInstruction_Accept'));
  add('POST', '/v0/wallet/token-standard/transfers/{contract_id}/reject', act('TransferInstruction_Reject'));
  add('POST', '/v0/wallet/token-standard/transfers/{contract_id}/withdraw', act('TransferInstruction_Withdraw'));
  // the V2 paths have the same request and response shapes; the simulator serves them with the same (V1) instruction
  add('POST', '/v2/wallet/token-standard/transfers', createTransfer);
  add('POST', '/v2/wallet/token-standard/transfers/{contract_id}/accept', act('TransferInstruction_Accept'));
  add('POST', '/v2/wallet/token-standard/transfers/{contract_id}/reject', act('TransferInstruction_Reject'));
  add('POST', '/v2/wallet/token-standard/transfers/{contract_id}/withdraw', act('TransferInstruction_Withdraw'));
}
