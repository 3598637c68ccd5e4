/** What a clear-signing recogniser states about a transaction (shared by clear-signing.ts and its wallet recognisers). */

export const TOKEN_TRANSFER_MODULE = 'Splice.Api.Token.TransferInstructionV1';
export const TOKEN_TRANSFER_CHOICE = 'TransferFactory_Transfer';
export const MEMO_KEY = 'splice.lfdecentralizedtrust.org/reason';

export interface TokenTransferClearSign {
  kind: 'token-transfer';
  sender: string;
  receiver: string;
  amount: string;
  instrument: { admin: string; id: string };
  memo: string | null;
  executeBefore: string | null;
  /** Set when the transfer goes through a wallet provider's `WalletUserProxy` (featured-app activity for the provider). */
  proxyProvider: string | null;
}

export type TransferInstructionAction = 'accept' | 'reject' | 'withdraw';

/** Accept / reject (receiver) or withdraw (sender) a pending token-standard transfer instruction. */
export interface TransferInstructionClearSign {
  kind: 'transfer-instruction';
  action: TransferInstructionAction;
  instructionCid: string;
  sender: string;
  receiver: string;
  amount: string;
  instrument: { admin: string; id: string };
  memo: string | null;
  executeBefore: string | null;
  proxyProvider: string | null;
}

/** `WalletUserProxy_PublicFetch`: reads the wallet provider's proxy contract, changes nothing. */
export interface ProxyPublicFetchClearSign {
  kind: 'proxy-public-fetch';
  actor: string;
  provider: string;
  proxyCid: string;
}

export type ClearSign =
  | TokenTransferClearSign
  | TransferInstructionClearSign
  | ProxyPublicFetchClearSign
  | {
      kind: 'amulet-transfer';
      sender: string;
      receiver: string;
      delegate: string;
      amount: string;
      instrument: { admin: string | null; id: 'Amulet' };
      memo: string | null;
      expiresAt: string | null;
      nonce: string | null;
    }
  | {
      kind: 'transfer-preapproval-proposal';
      receiver: string;
      provider: string;
      asset: string;
      expectedDso: string | null;
    };

export interface Recognition {
  clearSign: ClearSign | null;
  /** Why a transaction that looked recognisable was not clear-signed. */
  warnings: string[];
}
