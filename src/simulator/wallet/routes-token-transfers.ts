/**
 * Token-standard transfers of the wallet (wallet-internal `createTokenStandardTransfer`, `listTokenStandardTransfers`,
 * `acceptTokenStandardTransfer`, `rejectTokenStandardTransfer`, `withdrawTokenStandardTransfer`, and the `…V2` operations
 * on the /v2 paths, whose shapes are the same — served by the same V1 instruction, no V2 interfaces): the wallet
 * exercises the token-standard interface choices with the real arguments and the registry's choice context
 * (`token-registry.ts`), as Splice's wallet does — `TransferFactory_Transfer` on the DSO's TransferFactory, then
 * `TransferInstruction_Accept` / `_Reject` / `_Withdraw` (`templates-transfer-instruction.ts`). The wallet API always
 * makes an offer (two steps), as Splice's does. A duplicate `tracking_id` → 409; after `expires_at`
 * (= `executeBefore`) accept is refused and the sender's automation withdraws the instruction (`automation.ts`).
 */
import { z } from 'zod';
import { microsToIso } from '../clock.js';
import type { ContractRow } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import { WalletError } from './app.js';
import { fmt, num } from './coin.js';
import type { AddRoute, RouteCtx } from './http.js';
import { ok, parsedBody } from './http.js';
import { args, T } from './names.js';
import { TOKEN_STANDARD } from '../packages/token-standard-types.js';
import { TRANSFER_INSTRUCTION_QN } from './templates-transfer-instruction.js';
import { AMULET_INSTRUMENT_ID, META } from './token-context.js';
import { AmuletTokenRegistry } from './token-registry.js';
import type { RegistryChoiceContext } from './token-registry.js';
import { asText } from '../lf-text.js';

const CreateSchema = z.object({
  receiver_party_id: z.string().min(1),
  amount: z.string().regex(/^\d+(\.\d{1,10})?$/, 'a positive decimal with at most 10 fractional digits'),
  description: z.string(),
  expires_at: z.number().int(),
  tracking_id: z.string().min(1),
});

const result = (output: Record<string, unknown>, senderChange: string[]) => ({ output, sender_change_cids: senderChange, meta: {} });

/** `extraArgs` of a token-standard choice with the registry's context. */
export const extraArgsOf = (c: RegistryChoiceContext): LfRecord => ({
  context: c.choiceContextData,
  meta: { values: {} },
});

/** The transfer of an instruction contract. */
const transferOf = (c: ContractRow): LfRecord => args(c).transfer as LfRecord;

export function registerTokenTransferRoutes(add: AddRoute, user: (ctx: RequestCtx) => string, app: WalletApp): void {
  const registry = new AmuletTokenRegistry(app);
  const instructionFor = (party: string, cid: string): ContractRow => {
    const c = app.contracts(party, TRANSFER_INSTRUCTION_QN).find((x) => x.contractId === cid);
    if (!c) throw new WalletError(404, `No pending token-standard transfer ${cid} visible to ${party}`);
    return c;
  };

  const createTransfer = async (ctx: RouteCtx<'POST /v0/wallet/token-standard/transfers' | 'POST /v2/wallet/token-standard/transfers'>) => {
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
    const values: LfRecord = req.description === '' ? {} : { [META.reason]: req.description };
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
    const choiceArgs: LfRecord = { expectedAdmin: app.dso, transfer, extraArgs: { context: { values: {} }, meta: { values: {} } } };
    const factory = registry.transferFactory(choiceArgs, false);
    // the wallet API offers: a preapproval is not used (Splice's wallet does the same)
    const context = factory.choiceContext;
    delete context.choiceContextData.values['transfer-preapproval'];
    delete context.choiceContextData.values['featured-app-right'];
    const r = app.exerciseInterface([sender, app.dso], TOKEN_STANDARD.transferFactory, factory.factoryId, 'TransferFactory_Transfer', {
      ...choiceArgs,
      extraArgs: extraArgsOf(context),
    });
    const out = r.result as { output: { tag: string; value: { transferInstructionCid?: string } }; senderChangeCids: string[] };
    const change = out.senderChangeCids;
    const instructionCid = String(out.output.value.transferInstructionCid);
    app.setTrackingStatus('token-transfer', req.tracking_id, user(ctx), { transaction_id: r.res.updateId, contract_id: instructionCid });
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
    return ok(result({ transfer_instruction_cid: instructionCid }, change));
  };
  add('POST', '/v0/wallet/token-standard/transfers', createTransfer);

  add('GET', '/v0/wallet/token-standard/transfers', (ctx) => {
    const party = app.partyOf(user(ctx));
    app.runAutomation();
    const mine = app
      .contracts(party, TRANSFER_INSTRUCTION_QN)
      .filter((c) => transferOf(c).sender === party || transferOf(c).receiver === party);
    return ok({ transfers: mine.map((c) => app.contractJson(c)) });
  });

  const act =
    (choice: 'TransferInstruction_Accept' | 'TransferInstruction_Reject' | 'TransferInstruction_Withdraw') => (ctx: RequestCtx) => {
      const party = app.partyOf(user(ctx));
      app.runAutomation();
      const c = instructionFor(party, ctx.params.contract_id ?? '');
      const a = transferOf(c);
      const actor = choice === 'TransferInstruction_Withdraw' ? a.sender : a.receiver;
      if (actor !== party)
        throw new WalletError(
          403,
          `Only the ${choice === 'TransferInstruction_Withdraw' ? 'sender' : 'receiver'} ` +
            `can ${choice.split('_')[1]?.toLowerCase()} this transfer`,
        );
      const executeBefore = Date.parse(asText(a.executeBefore));
      if (choice === 'TransferInstruction_Accept' && BigInt(executeBefore) * 1000n <= app.nowMicros())
        throw new WalletError(400, 'The transfer expired (executeBefore has passed)');
      const context = registry.lockedContext('AmuletTransferInstruction', c.contractId, choice === 'TransferInstruction_Accept', false);
      const r = app.exerciseInterface([party], TOKEN_STANDARD.transferInstruction, c.contractId, choice, {
        extraArgs: extraArgsOf(context),
      });
      const out = r.result as { output: { value: { receiverHoldingCids?: string[] } }; senderChangeCids: string[] };
      const amount = fmt(num(a.amount));
      app.log(
        [asText(a.sender), asText(a.receiver)],
        choice === 'TransferInstruction_Accept'
          ? {
              transaction_type: 'transfer',
              choice,
              template: TRANSFER_INSTRUCTION_QN,
              amulet_operation: 'transfer',
              event_id: r.res.updateId,
              sender: { party: asText(a.sender), amount: `-${amount}` },
              receivers: [{ party: asText(a.receiver), amount }],
            }
          : {
              transaction_type: 'notification',
              choice,
              template: TRANSFER_INSTRUCTION_QN,
              event_id: r.res.updateId,
              details:
                `Token-standard transfer of ${amount} ${choice === 'TransferInstruction_Reject' ? 'rejected' : 'withdrawn'}; ` +
                'locked funds returned to the sender',
            },
        r.res,
      );
      return ok(
        choice === 'TransferInstruction_Accept'
          ? result({ receiver_holding_cids: out.output.value.receiverHoldingCids ?? [] }, out.senderChangeCids)
          : result({}, out.senderChangeCids),
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
