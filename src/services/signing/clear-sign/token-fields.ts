/** The token standard's `Transfer` record (splice-api-token-transfer-instruction-v1), read for clear signing. */
import type { Value } from '@canton-network/core-ledger-proto';
import { field, numericOf, partyOf, textMapGet, textOf, timestampOf } from '../daml-value.js';
import { row, type ClearSignField } from './registry.js';

export const TOKEN_TRANSFER_MODULE = 'Splice.Api.Token.TransferInstructionV1';
export const TOKEN_TRANSFER_CHOICE = 'TransferFactory_Transfer';
export const INSTRUCTION_INTERFACE = 'TransferInstruction';
export const MEMO_KEY = 'splice.lfdecentralizedtrust.org/reason';

export interface TransferFields {
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

/** The rows of a token-standard transfer (a new one or a pending instruction): `extra` goes before the proxy row. */
export function transferRows(t: TransferFields & { proxyProvider: string | null }, extra: ClearSignField[] = []): ClearSignField[] {
  return [
    row.party('From', t.sender),
    row.party('To', t.receiver),
    row.amount('Amount', t.amount, t.instrument.id),
    row.party('Instrument admin', t.instrument.admin),
    row.text('Memo', t.memo),
    row.timestamp('Execute before', t.executeBefore),
    ...extra,
    ...(t.proxyProvider ? [row.party('Through wallet proxy of', t.proxyProvider)] : []),
  ];
}

export const viaProxy = (provider: string | null): string => (provider ? ` through the wallet proxy of ${provider}` : '');
