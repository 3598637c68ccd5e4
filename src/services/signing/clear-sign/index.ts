/**
 * The registered clear-sign recognisers and the four things the rest of the console asks of them: recognise a
 * transaction, the policy's counterparties and amounts, the one-line description and the confirmation rows.
 * To add a recogniser: write its registration (see registry.ts) and list it in `RECOGNISERS`.
 */
import type { Create, DamlTransaction_Node, PreparedTransaction } from '@canton-network/core-ledger-proto';
import { amuletTransfer } from './amulet-transfer.js';
import { preapprovalSend } from './preapproval-send.js';
import { preapprovalSetup } from './preapproval-setup.js';
import { transferPreapprovalProposal } from './preapproval-proposal.js';
import type { ClearSignWire, MatchContext, PolicyAmount, RecogniserDef, RootAction } from './registry.js';
import { tokenTransfer } from './token-transfer.js';
import { transferInstruction } from './transfer-instruction.js';
import { proxyPublicFetch, unknownProxyChoice } from './wallet-proxy.js';

export const RECOGNISERS = [
  tokenTransfer,
  transferInstruction,
  proxyPublicFetch,
  amuletTransfer,
  preapprovalSend,
  transferPreapprovalProposal,
  preapprovalSetup,
] as const;

type Registered = (typeof RECOGNISERS)[number];
/** What any registered recogniser states about a transaction. */
export type ClearSign = Registered extends infer R ? (R extends RecogniserDef<infer C> ? C : never) : never;
export type ClearSignKind = ClearSign['kind'];

export interface Recognition {
  clearSign: ClearSign | null;
  /** Why a transaction that looked recognisable was not clear-signed. */
  warnings: string[];
}

// Each registration handles only values of its own kind; the map restores that pairing for a value of the union.
const byKind = new Map<string, RecogniserDef<ClearSign>>(RECOGNISERS.map((r) => [r.kind, r as unknown as RecogniserDef<ClearSign>]));
function registrationOf(c: ClearSign): RecogniserDef<ClearSign> {
  const r = byKind.get(c.kind);
  if (!r) throw new Error(`No recogniser is registered for ${c.kind}`);
  return r;
}

export function recognise(tx: PreparedTransaction, signingParty: string): Recognition {
  const roots = tx.transaction?.roots ?? [];
  const byId = new Map<string, DamlTransaction_Node>();
  for (const n of tx.transaction?.nodes ?? []) byId.set(n.nodeId, n);
  const [rootId] = roots;
  if (rootId === undefined || roots.length > 1)
    return { clearSign: null, warnings: roots.length > 1 ? [`The transaction has ${roots.length} root actions`] : [] };
  const node = byId.get(rootId);
  if (node?.versionedNode.oneofKind !== 'v1') return { clearSign: null, warnings: [] };
  const t = node.versionedNode.v1.nodeType;
  const root: RootAction | null =
    t.oneofKind === 'exercise'
      ? { kind: 'exercise', exercise: t.exercise }
      : t.oneofKind === 'create'
        ? { kind: 'create', create: t.create }
        : null;
  if (!root) return { clearSign: null, warnings: [] };
  const inputs = new Map<string, Create>();
  for (const ic of tx.metadata?.inputContracts ?? [])
    if (ic.contract.oneofKind === 'v1') inputs.set(ic.contract.v1.contractId, ic.contract.v1);
  const ctx: MatchContext = { signingParty, byId, inputs };
  for (const r of RECOGNISERS as readonly RecogniserDef<ClearSign>[]) {
    for (const match of r.matchers) {
      const m = match(root, ctx);
      if (m) return { clearSign: m.clearSign, warnings: m.warnings };
    }
  }
  return { clearSign: null, warnings: unknownProxyChoice(root, ctx) ?? [] };
}

/** What the signing policy checks of a recognised transaction. */
export function clearSignPolicyFacts(c: ClearSign): { counterparties: string[]; amounts: PolicyAmount[] } {
  const r = registrationOf(c);
  return { counterparties: r.counterparties(c), amounts: r.amounts(c) };
}

export function describeClearSign(c: ClearSign): string {
  return registrationOf(c).headline(c);
}

export function clearSignWire(c: ClearSign): ClearSignWire {
  return { kind: c.kind, ...registrationOf(c).wire(c) };
}

export type { ClearSignWire, ClearSignField, PolicyAmount } from './registry.js';
export type { TokenTransferClearSign } from './token-transfer.js';
export type { TransferInstructionClearSign, TransferInstructionAction } from './transfer-instruction.js';
export type { ProxyPublicFetchClearSign } from './wallet-proxy.js';
export type { AmuletTransferClearSign } from './amulet-transfer.js';
export type { TransferPreapprovalProposalClearSign } from './preapproval-proposal.js';
export type { PreapprovalSetupClearSign } from './preapproval-setup.js';
export type { PreapprovalSendClearSign } from './preapproval-send.js';
export { MEMO_KEY, TOKEN_TRANSFER_CHOICE, TOKEN_TRANSFER_MODULE, readTransfer } from './token-fields.js';
export { AMULET_TRANSFER_CHOICE, AMULET_TRANSFER_MODULE } from './amulet-transfer.js';
export { PREAPPROVAL_MODULE, PREAPPROVAL_TEMPLATE } from './preapproval-proposal.js';
export { WALLET_PROXY_MODULE, WALLET_PROXY_TEMPLATE } from './wallet-proxy.js';
