/** A token-standard transfer (`TransferFactory_Transfer`), directly or through a Splice wallet proxy. */
import { field } from '../daml-value.js';
import { defineRecogniser, notClear, ok, amountText } from './registry.js';
import { readTransfer, TOKEN_TRANSFER_CHOICE, TOKEN_TRANSFER_MODULE, transferRows, viaProxy, type TransferFields } from './token-fields.js';
import { proxiedExercise } from './wallet-proxy.js';

export interface TokenTransferClearSign extends TransferFields {
  kind: 'token-transfer';
  /** Set when the transfer goes through a wallet provider's `WalletUserProxy` (featured-app activity for the provider). */
  proxyProvider: string | null;
}

const MISSING = 'A token-standard transfer with missing fields cannot be clear-signed';

export const tokenTransfer = defineRecogniser<TokenTransferClearSign>({
  kind: 'token-transfer',
  matchers: [
    (root, ctx) => {
      if (root.kind !== 'exercise') return null;
      const e = root.exercise;
      const viaModule = e.interfaceId?.moduleName ?? e.templateId?.moduleName;
      const argModule = e.chosenValue?.sum.oneofKind === 'record' ? e.chosenValue.sum.record.recordId?.moduleName : undefined;
      if (e.choiceId !== TOKEN_TRANSFER_CHOICE || (viaModule !== TOKEN_TRANSFER_MODULE && argModule !== TOKEN_TRANSFER_MODULE)) return null;
      const t = readTransfer(field(e.chosenValue, 'transfer'));
      if (!t) return notClear(MISSING);
      const warnings: string[] = [];
      if (t.sender !== ctx.signingParty) warnings.push(`The transfer’s sender ${t.sender} is not the signing party`);
      if (!e.actingParties.every((p) => p === ctx.signingParty))
        warnings.push(`The transfer is exercised by ${e.actingParties.join(', ')}`);
      if (warnings.length > 0) return notClear(...warnings);
      return ok({ kind: 'token-transfer', ...t, proxyProvider: null });
    },
    (root, ctx) => {
      const p = proxiedExercise(root, ctx, [TOKEN_TRANSFER_CHOICE]);
      if (p === null) return null;
      if ('warnings' in p) return notClear(...p.warnings);
      const t = readTransfer(field(p.choiceArg, 'transfer'));
      if (!t) return notClear(MISSING);
      if (t.sender !== ctx.signingParty) return notClear(`The transfer’s sender ${t.sender} is not the signing party`);
      return ok({ kind: 'token-transfer', ...t, proxyProvider: p.provider });
    },
  ],
  counterparties: (c) => [c.receiver, ...(c.proxyProvider ? [c.proxyProvider] : [])],
  amounts: (c) => [{ path: 'amount', value: c.amount }],
  headline: (c) =>
    `Transfer ${amountText(c.amount)} ${c.instrument.id} from ${c.sender} to ${c.receiver}` +
    `${c.memo ? ` (memo: ${c.memo})` : ''}${viaProxy(c.proxyProvider)}`,
  wire: (c) => ({ title: 'Token transfer', fields: transferRows(c) }),
});
