/**
 * Clear-signing recognisers for the wallet choices an external party signs besides a plain transfer:
 *  - Splice's featured-app `WalletUserProxy` (package splice-util-featured-app-proxies): the proxied token-standard
 *    transfer (`WalletUserProxy_TransferFactory_Transfer`), the proxied instruction choices
 *    (`WalletUserProxy_TransferInstruction_Accept` / `_Reject` / `_Withdraw`) and `WalletUserProxy_PublicFetch`;
 *  - the token standard's `TransferInstruction_Accept` / `_Reject` / `_Withdraw` on a pending transfer instruction.
 *
 * A proxy choice is only described when the transaction really contains the proxied exercise below it, on the same
 * contract and with the same argument — the description never relies on what the proxy template promises to do. An
 * instruction's transfer (sender, receiver, amount) is read from the instruction contract's own arguments, which the
 * transaction carries as an input contract (covered by the V2 hash); when they are not there, nothing is clear-signed.
 */
import type { Create, DamlTransaction_Node, Exercise, Value } from '@canton-network/core-ledger-proto';
import {
  MEMO_KEY,
  TOKEN_TRANSFER_CHOICE,
  TOKEN_TRANSFER_MODULE,
  type Recognition,
  type TransferInstructionAction,
} from './clear-sign-types.js';
import { field, numericOf, partyOf, textMapGet, textOf, timestampOf, toPlain } from './daml-value.js';

export const WALLET_PROXY_MODULE = 'Splice.Util.FeaturedApp.WalletUserProxy';
export const WALLET_PROXY_TEMPLATE = 'WalletUserProxy';
export const INSTRUCTION_INTERFACE = 'TransferInstruction';

const INSTRUCTION_CHOICES: Record<string, TransferInstructionAction> = {
  TransferInstruction_Accept: 'accept',
  TransferInstruction_Reject: 'reject',
  TransferInstruction_Withdraw: 'withdraw',
};

export interface WalletContext {
  byId: Map<string, DamlTransaction_Node>;
  /** The transaction's input contracts by contract id. */
  inputs: Map<string, Create>;
  signingParty: string;
}

interface TransferFields {
  sender: string;
  receiver: string;
  amount: string;
  instrument: { admin: string; id: string };
  memo: string | null;
  executeBefore: string | null;
}

/** The token standard's `Transfer` record, or null when a field is missing. */
export function readTransfer(transfer: Value | undefined): TransferFields | null {
  const instrument = field(transfer, 'instrumentId');
  const sender = partyOf(field(transfer, 'sender'));
  const receiver = partyOf(field(transfer, 'receiver'));
  const amount = numericOf(field(transfer, 'amount'));
  const admin = partyOf(field(instrument, 'admin'));
  const id = textOf(field(instrument, 'id'));
  if (!sender || !receiver || !amount || !admin || id === null) return null;
  return {
    sender,
    receiver,
    amount,
    instrument: { admin, id },
    memo: textOf(textMapGet(field(field(transfer, 'meta'), 'values'), MEMO_KEY)) ?? null,
    executeBefore: timestampOf(field(transfer, 'executeBefore')),
  };
}

const isProxy = (e: Exercise) => e.templateId?.moduleName === WALLET_PROXY_MODULE && e.templateId.entityName === WALLET_PROXY_TEMPLATE;
const isInstructionChoice = (e: Exercise) =>
  e.choiceId in INSTRUCTION_CHOICES &&
  e.interfaceId?.moduleName === TOKEN_TRANSFER_MODULE &&
  e.interfaceId.entityName === INSTRUCTION_INTERFACE;
const same = (a: Value | undefined, b: Value | undefined) => JSON.stringify(toPlain(a)) === JSON.stringify(toPlain(b));

function childExercises(e: Exercise, ctx: WalletContext): Exercise[] {
  return e.children.flatMap((id) => {
    const n = ctx.byId.get(id);
    return n?.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'exercise'
      ? [n.versionedNode.v1.nodeType.exercise]
      : [];
  });
}

const actsAlone = (e: Exercise, party: string) => e.actingParties.length > 0 && e.actingParties.every((p) => p === party);

/** Recognises a wallet choice at the root; null when the root is none of them (other recognisers may apply). */
export function recogniseWalletChoice(e: Exercise, ctx: WalletContext): Recognition | null {
  if (isProxy(e)) return recogniseProxy(e, ctx);
  if (isInstructionChoice(e)) return recogniseInstruction(e, e.choiceId, null, ctx);
  return null;
}

function recogniseProxy(e: Exercise, ctx: WalletContext): Recognition | null {
  const provider = e.signatories[0];
  if (!provider) return { clearSign: null, warnings: ['The wallet proxy contract has no signatory'] };
  if (!actsAlone(e, ctx.signingParty))
    return { clearSign: null, warnings: [`The wallet proxy choice is exercised by ${e.actingParties.join(', ')}`] };

  if (e.choiceId === 'WalletUserProxy_PublicFetch') {
    const actor = partyOf(field(e.chosenValue, 'actor'));
    if (actor !== ctx.signingParty)
      return { clearSign: null, warnings: [`The proxy fetch is for ${actor ?? 'nobody'}, not the signing party`] };
    if (e.consuming) return { clearSign: null, warnings: ['A consuming proxy fetch cannot be clear-signed'] };
    return { clearSign: { kind: 'proxy-public-fetch', actor, provider, proxyCid: e.contractId }, warnings: [] };
  }

  const proxyArg = field(e.chosenValue, 'proxyArg');
  const cidValue = field(e.chosenValue, 'cid');
  const cid = cidValue?.sum.oneofKind === 'contractId' ? cidValue.sum.contractId : null;
  const user = partyOf(field(proxyArg, 'user'));
  const choiceArg = field(proxyArg, 'choiceArg');
  const proxiedChoice = e.choiceId.startsWith('WalletUserProxy_') ? e.choiceId.slice('WalletUserProxy_'.length) : '';
  if (proxiedChoice !== TOKEN_TRANSFER_CHOICE && !(proxiedChoice in INSTRUCTION_CHOICES)) {
    return { clearSign: null, warnings: [`The wallet proxy choice ${e.choiceId} is not one the console describes`] };
  }
  if (!cid || !user || !choiceArg) return { clearSign: null, warnings: [`A ${e.choiceId} with missing fields cannot be clear-signed`] };
  if (user !== ctx.signingParty) return { clearSign: null, warnings: [`The proxy choice is for ${user}, not the signing party`] };
  // the proxied exercise itself must be in the transaction, on that contract, with exactly that argument
  const proxied = childExercises(e, ctx).find(
    (c) => c.choiceId === proxiedChoice && c.contractId === cid && same(c.chosenValue, choiceArg),
  );
  if (!proxied) return { clearSign: null, warnings: [`The transaction does not contain the ${proxiedChoice} the proxy choice names`] };

  if (proxiedChoice === TOKEN_TRANSFER_CHOICE) {
    const t = readTransfer(field(choiceArg, 'transfer'));
    if (!t) return { clearSign: null, warnings: ['A token-standard transfer with missing fields cannot be clear-signed'] };
    if (t.sender !== ctx.signingParty) return { clearSign: null, warnings: [`The transfer’s sender ${t.sender} is not the signing party`] };
    return { clearSign: { kind: 'token-transfer', ...t, proxyProvider: provider }, warnings: [] };
  }
  return recogniseInstruction(proxied, proxiedChoice, provider, ctx);
}

function recogniseInstruction(e: Exercise, choice: string, proxyProvider: string | null, ctx: WalletContext): Recognition {
  const action = INSTRUCTION_CHOICES[choice]!;
  if (!actsAlone(e, ctx.signingParty))
    return { clearSign: null, warnings: [`The instruction choice is exercised by ${e.actingParties.join(', ')}`] };
  const instruction = ctx.inputs.get(e.contractId);
  const t = readTransfer(field(instruction?.argument, 'transfer'));
  if (!t)
    return {
      clearSign: null,
      warnings: ['The transfer instruction’s sender, receiver and amount are not readable from its contract; it cannot be clear-signed'],
    };
  // accept and reject are the receiver's choices, withdraw the sender's
  const role = action === 'withdraw' ? t.sender : t.receiver;
  if (role !== ctx.signingParty) {
    return {
      clearSign: null,
      warnings: [`Only the ${action === 'withdraw' ? 'sender' : 'receiver'} (${role}) can ${action} this transfer, not the signing party`],
    };
  }
  return { clearSign: { kind: 'transfer-instruction', action, instructionCid: e.contractId, ...t, proxyProvider }, warnings: [] };
}
