/**
 * Clear-signing recognisers: the few transaction kinds whose meaning we can state field by field (like Ledger's
 * Canton app). Recognition is strict — exactly one root, of the expected kind, with the signing party in the
 * expected role; anything else is blind-signed with the hash and a warning.
 */
import type { Create, DamlTransaction_Node, PreparedTransaction } from '@canton-network/core-ledger-proto';
import { MEMO_KEY, TOKEN_TRANSFER_CHOICE, TOKEN_TRANSFER_MODULE, type ClearSign, type Recognition } from './clear-sign-types.js';
import { recogniseWalletChoice } from './clear-signing-wallet.js';
import { field, int64Of, numericOf, optionalOf, partyOf, textMapGet, textOf, timestampOf } from './daml-value.js';

export { MEMO_KEY, TOKEN_TRANSFER_CHOICE, TOKEN_TRANSFER_MODULE } from './clear-sign-types.js';
export type { ClearSign, Recognition } from './clear-sign-types.js';
export const AMULET_TRANSFER_MODULE = 'Splice.ExternalPartyAmuletRules';
export const AMULET_TRANSFER_CHOICE = 'ExternalPartyAmuletRules_CreateTransferCommand';
export const PREAPPROVAL_MODULE = 'Splice.Wallet.TransferPreapproval';
export const PREAPPROVAL_TEMPLATE = 'TransferPreapprovalProposal';

export function recognise(tx: PreparedTransaction, signingParty: string): Recognition {
  const roots = tx.transaction?.roots ?? [];
  const byId = new Map<string, DamlTransaction_Node>();
  for (const n of tx.transaction?.nodes ?? []) byId.set(n.nodeId, n);
  if (roots.length !== 1)
    return { clearSign: null, warnings: roots.length > 1 ? [`The transaction has ${roots.length} root actions`] : [] };
  const root = byId.get(roots[0]!);
  if (root?.versionedNode.oneofKind !== 'v1') return { clearSign: null, warnings: [] };
  const t = root.versionedNode.v1.nodeType;
  const warnings: string[] = [];

  if (t.oneofKind === 'exercise') {
    const e = t.exercise;
    const inputs = new Map<string, Create>();
    for (const ic of tx.metadata?.inputContracts ?? [])
      if (ic.contract.oneofKind === 'v1') inputs.set(ic.contract.v1.contractId, ic.contract.v1);
    const wallet = recogniseWalletChoice(e, { byId, inputs, signingParty });
    if (wallet) return wallet;
    const viaModule = e.interfaceId?.moduleName ?? e.templateId?.moduleName;
    const argModule = e.chosenValue?.sum.oneofKind === 'record' ? e.chosenValue.sum.record.recordId?.moduleName : undefined;
    const isTokenTransfer =
      e.choiceId === TOKEN_TRANSFER_CHOICE && (viaModule === TOKEN_TRANSFER_MODULE || argModule === TOKEN_TRANSFER_MODULE);
    if (isTokenTransfer) {
      const transfer = field(e.chosenValue, 'transfer');
      const instrument = field(transfer, 'instrumentId');
      const sender = partyOf(field(transfer, 'sender'));
      const receiver = partyOf(field(transfer, 'receiver'));
      const amount = numericOf(field(transfer, 'amount'));
      const admin = partyOf(field(instrument, 'admin'));
      const id = textOf(field(instrument, 'id'));
      if (!sender || !receiver || !amount || !admin || id === null) {
        return { clearSign: null, warnings: ['A token-standard transfer with missing fields cannot be clear-signed'] };
      }
      if (sender !== signingParty) warnings.push(`The transfer’s sender ${sender} is not the signing party`);
      if (!e.actingParties.every((p) => p === signingParty)) warnings.push(`The transfer is exercised by ${e.actingParties.join(', ')}`);
      if (warnings.length > 0) return { clearSign: null, warnings };
      return {
        clearSign: {
          kind: 'token-transfer',
          sender,
          receiver,
          amount,
          instrument: { admin, id },
          memo: textOf(textMapGet(field(field(transfer, 'meta'), 'values'), MEMO_KEY)) ?? null,
          executeBefore: timestampOf(field(transfer, 'executeBefore')),
          proxyProvider: null,
        },
        warnings,
      };
    }
    if (e.choiceId === AMULET_TRANSFER_CHOICE && e.templateId?.moduleName === AMULET_TRANSFER_MODULE) {
      const args = e.chosenValue;
      const sender = partyOf(field(args, 'sender'));
      const receiver = partyOf(field(args, 'receiver'));
      const delegate = partyOf(field(args, 'delegate'));
      const amount = numericOf(field(args, 'amount'));
      if (!sender || !receiver || !delegate || !amount) {
        return { clearSign: null, warnings: ['A Canton Coin transfer with missing fields cannot be clear-signed'] };
      }
      if (sender !== signingParty) warnings.push(`The transfer’s sender ${sender} is not the signing party`);
      if (!e.actingParties.every((p) => p === signingParty)) warnings.push(`The transfer is exercised by ${e.actingParties.join(', ')}`);
      if (warnings.length > 0) return { clearSign: null, warnings };
      return {
        clearSign: {
          kind: 'amulet-transfer',
          sender,
          receiver,
          delegate,
          amount,
          instrument: { admin: partyOf(optionalOf(field(args, 'expectedDso'))) ?? e.signatories[0] ?? null, id: 'Amulet' },
          memo: textOf(optionalOf(field(args, 'description'))),
          expiresAt: timestampOf(field(args, 'expiresAt')),
          nonce: int64Of(field(args, 'nonce')),
        },
        warnings,
      };
    }
  }
  if (t.oneofKind === 'create') {
    const c = t.create;
    if (c.templateId?.moduleName === PREAPPROVAL_MODULE && c.templateId.entityName === PREAPPROVAL_TEMPLATE) {
      const receiver = partyOf(field(c.argument, 'receiver'));
      const provider = partyOf(field(c.argument, 'provider'));
      if (!receiver || !provider)
        return { clearSign: null, warnings: ['A preapproval proposal with missing fields cannot be clear-signed'] };
      if (receiver !== signingParty) return { clearSign: null, warnings: [`The preapproval is for ${receiver}, not the signing party`] };
      return {
        clearSign: {
          kind: 'transfer-preapproval-proposal',
          receiver,
          provider,
          asset: 'Canton Coin (Amulet)',
          expectedDso: partyOf(optionalOf(field(c.argument, 'expectedDso'))),
        },
        warnings,
      };
    }
  }
  return { clearSign: null, warnings };
}

export function describeClearSign(c: ClearSign): string {
  switch (c.kind) {
    case 'token-transfer':
      return `Transfer ${c.amount} ${c.instrument.id} from ${c.sender} to ${c.receiver}${c.memo ? ` (memo: ${c.memo})` : ''}${c.proxyProvider ? ` through the wallet proxy of ${c.proxyProvider}` : ''}`;
    case 'transfer-instruction': {
      const verb = c.action === 'accept' ? 'Accept' : c.action === 'reject' ? 'Reject' : 'Withdraw';
      return `${verb} the pending transfer of ${c.amount} ${c.instrument.id} from ${c.sender} to ${c.receiver}${c.proxyProvider ? ` through the wallet proxy of ${c.proxyProvider}` : ''}`;
    }
    case 'proxy-public-fetch':
      return `Read the wallet proxy contract of ${c.provider} as ${c.actor} (no ledger change)`;
    case 'amulet-transfer':
      return `Transfer ${c.amount} Canton Coin from ${c.sender} to ${c.receiver} via ${c.delegate}${c.memo ? ` (memo: ${c.memo})` : ''}`;
    case 'transfer-preapproval-proposal':
      return `Pre-approve incoming ${c.asset} transfers to ${c.receiver}, operated by ${c.provider}`;
  }
}
