/**
 * The token standard's `TransferInstruction_Accept` / `_Reject` / `_Withdraw` on a pending transfer instruction,
 * directly or through a Splice wallet proxy. The transfer (sender, receiver, amount) is read from the instruction
 * contract's own arguments, which the transaction carries as an input contract (covered by the V2 hash); when they are
 * not there, nothing is clear-signed.
 */
import type { Exercise } from '@canton-network/core-ledger-proto';
import { field } from '../daml-value.js';
import { actsAlone, defineRecogniser, notClear, ok, type MatchContext, type MatchResult, row, amountText } from './registry.js';
import { INSTRUCTION_INTERFACE, readTransfer, TOKEN_TRANSFER_MODULE, transferRows, viaProxy, type TransferFields } from './token-fields.js';
import { proxiedExercise } from './wallet-proxy.js';

export type TransferInstructionAction = 'accept' | 'reject' | 'withdraw';

/** Accept / reject (receiver) or withdraw (sender) a pending token-standard transfer instruction. */
export interface TransferInstructionClearSign extends TransferFields {
  kind: 'transfer-instruction';
  action: TransferInstructionAction;
  instructionCid: string;
  proxyProvider: string | null;
}

const CHOICES: Record<string, TransferInstructionAction> = {
  TransferInstruction_Accept: 'accept',
  TransferInstruction_Reject: 'reject',
  TransferInstruction_Withdraw: 'withdraw',
};
const isInstructionChoice = (e: Exercise) =>
  e.choiceId in CHOICES && e.interfaceId?.moduleName === TOKEN_TRANSFER_MODULE && e.interfaceId.entityName === INSTRUCTION_INTERFACE;

function instruction(e: Exercise, proxyProvider: string | null, ctx: MatchContext): MatchResult<TransferInstructionClearSign> {
  const action = CHOICES[e.choiceId];
  if (!action) return notClear(`${e.choiceId} is not a transfer instruction choice`);
  if (!actsAlone(e, ctx.signingParty)) return notClear(`The instruction choice is exercised by ${e.actingParties.join(', ')}`);
  const t = readTransfer(field(ctx.inputs.get(e.contractId)?.argument, 'transfer'));
  if (!t)
    return notClear('The transfer instruction’s sender, receiver and amount are not readable from its contract; it cannot be clear-signed');
  // accept and reject are the receiver's choices, withdraw the sender's
  const role = action === 'withdraw' ? t.sender : t.receiver;
  if (role !== ctx.signingParty)
    return notClear(
      `Only the ${action === 'withdraw' ? 'sender' : 'receiver'} (${role}) can ${action} this transfer, not the signing party`,
    );
  return ok({ kind: 'transfer-instruction', action, instructionCid: e.contractId, ...t, proxyProvider });
}

const verb = (a: TransferInstructionAction) => (a === 'accept' ? 'Accept' : a === 'reject' ? 'Reject' : 'Withdraw');

export const transferInstruction = defineRecogniser<TransferInstructionClearSign>({
  kind: 'transfer-instruction',
  matchers: [
    (root, ctx) => (root.kind === 'exercise' && isInstructionChoice(root.exercise) ? instruction(root.exercise, null, ctx) : null),
    (root, ctx) => {
      const p = proxiedExercise(root, ctx, Object.keys(CHOICES));
      if (p === null) return null;
      return 'warnings' in p ? notClear(...p.warnings) : instruction(p.proxied, p.provider, ctx);
    },
  ],
  counterparties: (c) => [c.action === 'withdraw' ? c.receiver : c.sender, ...(c.proxyProvider ? [c.proxyProvider] : [])],
  // accepting takes the amount in, so the limit applies; rejecting or withdrawing moves nothing out
  amounts: (c) => (c.action === 'accept' ? [{ path: 'amount', value: c.amount }] : []),
  headline: (c) =>
    `${verb(c.action)} the pending transfer of ${amountText(c.amount)} ${c.instrument.id} ` +
    `from ${c.sender} to ${c.receiver}${viaProxy(c.proxyProvider)}`,
  wire: (c) => ({
    title: `${verb(c.action)} pending transfer`,
    fields: transferRows(c, [row.contract('Transfer instruction', c.instructionCid)]),
  }),
});
