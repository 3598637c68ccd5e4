/**
 * Prepared transactions with the wallet choices an external party signs (Splice `WalletUserProxy` choices and the
 * token standard's `TransferInstruction_*`), shaped like Splice's packages (splice-util-featured-app-proxies,
 * splice-api-token-transfer-instruction-v1, splice-amulet) and built with the official protobuf types; the proxied
 * token transfer reuses the token-standard transfer fixture as its subtree.
 */
import { randomBytes } from 'node:crypto';
import { PreparedTransaction, type DamlTransaction_Node, type Value } from '@canton-network/core-ledger-proto';
import {
  cid,
  contractId,
  DSO,
  id,
  list,
  numeric,
  party,
  record,
  text,
  textMap,
  timestamp,
  tokenTransfer,
} from '../../unit/signing/fixtures.js';
import { exercise, nodeSeeds } from '../../unit/signing/fixtures/nodes.js';
import { featuredAppProxies, REAL } from '../../support/reference-packages.js';
import { must } from '../../support/must.js';

const PROXY_PKG = featuredAppProxies.packageId;
const TOKEN_API_PKG = REAL.tokenTransferInstruction;
const AMULET_PKG = REAL.amulet;
const FEATURED_API_PKG = '7804375fe5e4c6d5afe067bd314c42fe0b7d005a1300019c73154dd939da4dda'; // splice-api-featured-app-v1

export const WALLET_USER_PROXY = id(PROXY_PKG, 'Splice.Util.FeaturedApp.WalletUserProxy', 'WalletUserProxy');
const INSTRUCTION_IFACE = id(TOKEN_API_PKG, 'Splice.Api.Token.TransferInstructionV1', 'TransferInstruction');
const AMULET_INSTRUCTION = id(AMULET_PKG, 'Splice.AmuletTransferInstruction', 'AmuletTransferInstruction');
const FEATURED_APP_RIGHT = id(AMULET_PKG, 'Splice.Amulet', 'FeaturedAppRight');

const extraArgs = () => record({ context: record({ values: textMap({}) }), meta: record({ values: textMap({}) }) });

type ExerciseFields = Parameters<typeof exercise>[1];
/** A proxy-package exercise: package, stakeholders (its signatories) and non-consuming unless said otherwise. */
type ProxyExercise = Omit<ExerciseFields, 'packageName' | 'stakeholders' | 'consuming'> &
  Partial<Pick<ExerciseFields, 'packageName' | 'stakeholders' | 'consuming'>>;

const exerciseNode = (nodeId: string, e: ProxyExercise): DamlTransaction_Node =>
  exercise(nodeId, {
    ...e,
    packageName: e.packageName ?? 'splice-util-featured-app-proxies',
    stakeholders: e.stakeholders ?? e.signatories,
    consuming: e.consuming ?? false,
  });

const marker = (nodeId: string, provider: string, user: string, appRight: string) =>
  exerciseNode(nodeId, {
    packageName: 'splice-amulet',
    templateId: FEATURED_APP_RIGHT,
    interfaceId: id(FEATURED_API_PKG, 'Splice.Api.FeaturedAppRightV1', 'FeaturedAppRight'),
    contractId: appRight,
    choiceId: 'FeaturedAppRight_CreateActivityMarker',
    chosenValue: record({
      beneficiaries: list([
        record({ beneficiary: party(provider), weight: numeric('1.0') }),
        record({ beneficiary: party(user), weight: numeric('0.0') }),
      ]),
    }),
    actingParties: [provider],
    signatories: [DSO, provider],
    children: [],
  });

const proxyArg = (user: string, choiceArg: Value, appRight: string) =>
  record({ user: party(user), choiceArg, featuredAppRightCid: cid(appRight) });

/** Shifts the node ids of a transaction's nodes (and their children) by `by`. */
function shifted(nodes: DamlTransaction_Node[], by: number): DamlTransaction_Node[] {
  return nodes.map((n) => {
    const copy = structuredClone(n);
    copy.nodeId = String(Number(n.nodeId) + by);
    if (copy.versionedNode.oneofKind === 'v1' && copy.versionedNode.v1.nodeType.oneofKind === 'exercise') {
      const e = copy.versionedNode.v1.nodeType.exercise;
      e.children = e.children.map((c) => String(Number(c) + by));
    }
    return copy;
  });
}

/**
 * `WalletUserProxy_TransferFactory_Transfer`: the proxy (signed by the wallet provider) creates the featured-app
 * marker and exercises `TransferFactory_Transfer` with exactly its `proxyArg.choiceArg`. `tamperChild` changes the
 * proxied child's argument afterwards (a transaction whose proxy says one thing and whose transfer does another).
 */
export function proxyTransfer(o: {
  sender: string;
  receiver: string;
  amount: string;
  provider: string;
  memo?: string;
  tamperChild?: (choiceArg: Value) => void;
}): PreparedTransaction {
  const inner = tokenTransfer({ sender: o.sender, receiver: o.receiver, amount: o.amount, ...(o.memo ? { memo: o.memo } : {}) });
  const innerTx = must(inner.transaction, 'the transfer fixture transaction');
  const innerNodes = shifted(innerTx.nodes, 2);
  const factoryNode = must(innerNodes[0], 'the transfer fixture root node');
  if (factoryNode.versionedNode.oneofKind !== 'v1' || factoryNode.versionedNode.v1.nodeType.oneofKind !== 'exercise')
    throw new Error('fixture: no factory exercise');
  const factory = factoryNode.versionedNode.v1.nodeType.exercise;
  const chosen = must(factory.chosenValue, 'the transfer factory choice argument');
  const choiceArg = structuredClone(chosen);
  if (o.tamperChild) o.tamperChild(chosen);
  const appRight = contractId();
  const nodes = [
    exerciseNode('0', {
      templateId: WALLET_USER_PROXY,
      choiceId: 'WalletUserProxy_TransferFactory_Transfer',
      chosenValue: record({ cid: cid(factory.contractId), proxyArg: proxyArg(o.sender, choiceArg, appRight) }),
      actingParties: [o.sender],
      signatories: [o.provider],
      children: ['1', '2'],
    }),
    marker('1', o.provider, o.sender, appRight),
    ...innerNodes,
  ];
  innerTx.nodes = nodes;
  innerTx.roots = ['0'];
  innerTx.nodeSeeds = nodeSeeds(nodes);
  return inner;
}

/** The token standard's `Transfer` record of a pending instruction. */
function transferRecord(o: { sender: string; receiver: string; amount: string; memo?: string }): Value {
  return record(
    {
      sender: party(o.sender),
      receiver: party(o.receiver),
      amount: numeric(o.amount),
      instrumentId: record({ admin: party(DSO), id: text('Amulet') }),
      requestedAt: timestamp(new Date(Date.now() - 60_000)),
      executeBefore: timestamp(new Date(Date.now() + 86_400_000)),
      inputHoldingCids: list([]),
      meta: record({ values: textMap(o.memo ? { 'splice.lfdecentralizedtrust.org/reason': text(o.memo) } : {}) }),
    },
    id(TOKEN_API_PKG, 'Splice.Api.Token.TransferInstructionV1', 'Transfer'),
  );
}

export type InstructionChoice = 'TransferInstruction_Accept' | 'TransferInstruction_Reject' | 'TransferInstruction_Withdraw';

/**
 * A `TransferInstruction_*` choice on an Amulet transfer instruction (through the TransferInstruction interface),
 * directly or through `WalletUserProxy_<choice>` of `provider`. The instruction contract is an input contract
 * (its arguments carry the transfer) unless `withoutInput`.
 */
export function instructionChoice(o: {
  choice: InstructionChoice;
  actor: string;
  sender: string;
  receiver: string;
  amount: string;
  memo?: string;
  provider?: string;
  withoutInput?: boolean;
}): PreparedTransaction {
  const instruction = contractId();
  const transfer = transferRecord(o);
  const choiceArg = record({ extraArgs: extraArgs() }, id(TOKEN_API_PKG, 'Splice.Api.Token.TransferInstructionV1', o.choice));
  const choiceNode = (nodeId: string) =>
    exerciseNode(nodeId, {
      packageName: 'splice-amulet',
      templateId: AMULET_INSTRUCTION,
      interfaceId: INSTRUCTION_IFACE,
      contractId: instruction,
      choiceId: o.choice,
      chosenValue: choiceArg,
      actingParties: [o.actor],
      signatories: [DSO, o.sender],
      stakeholders: [DSO, o.sender, o.receiver],
      consuming: true,
      children: [],
    });
  const appRight = contractId();
  const nodes = o.provider
    ? [
        exerciseNode('0', {
          templateId: WALLET_USER_PROXY,
          choiceId: `WalletUserProxy_${o.choice}`,
          chosenValue: record({ cid: cid(instruction), proxyArg: proxyArg(o.actor, structuredClone(choiceArg), appRight) }),
          actingParties: [o.actor],
          signatories: [o.provider],
          children: ['1', '2'],
        }),
        marker('1', o.provider, o.actor, appRight),
        choiceNode('2'),
      ]
    : [choiceNode('0')];
  const now = BigInt(Date.now()) * 1000n;
  return PreparedTransaction.create({
    transaction: { version: '2.1', roots: ['0'], nodes, nodeSeeds: nodeSeeds(nodes) },
    metadata: {
      submitterInfo: { actAs: [o.actor], commandId: `cmd-${randomBytes(4).toString('hex')}` },
      synchronizerId: 'global-domain::1220' + 'be'.repeat(32),
      mediatorGroup: 0,
      transactionUuid: randomBytes(16).toString('hex'),
      preparationTime: now,
      inputContracts: o.withoutInput
        ? []
        : [
            {
              contract: {
                oneofKind: 'v1',
                v1: {
                  lfVersion: '2.1',
                  contractId: instruction,
                  packageName: 'splice-amulet',
                  templateId: AMULET_INSTRUCTION,
                  argument: record({ lockedAmulet: cid(contractId()), transfer }),
                  signatories: [DSO, o.sender],
                  stakeholders: [DSO, o.sender, o.receiver],
                },
              },
              createdAt: now - 60_000_000n,
              eventBlob: new Uint8Array(),
            },
          ],
      globalKeyMapping: [],
      maxLedgerEffectiveTime: now + 600_000_000n,
    },
  });
}

/** `WalletUserProxy_PublicFetch` by `actor` on the provider's proxy. */
export function proxyPublicFetch(o: { actor: string; provider: string }): PreparedTransaction {
  const nodes = [
    exerciseNode('0', {
      templateId: WALLET_USER_PROXY,
      choiceId: 'WalletUserProxy_PublicFetch',
      chosenValue: record({ actor: party(o.actor) }),
      actingParties: [o.actor],
      signatories: [o.provider],
      children: [],
    }),
  ];
  const now = BigInt(Date.now()) * 1000n;
  return PreparedTransaction.create({
    transaction: { version: '2.1', roots: ['0'], nodes, nodeSeeds: nodeSeeds(nodes) },
    metadata: {
      submitterInfo: { actAs: [o.actor], commandId: `cmd-${randomBytes(4).toString('hex')}` },
      synchronizerId: 'global-domain::1220' + 'be'.repeat(32),
      mediatorGroup: 0,
      transactionUuid: randomBytes(16).toString('hex'),
      preparationTime: now,
      inputContracts: [],
      globalKeyMapping: [],
    },
  });
}
