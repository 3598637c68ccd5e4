/**
 * Builds the protobuf `PreparedTransaction` of an interpreted transaction (interactive submission)
 * and its hash with hashing scheme V2 (`hashPreparedTransaction` of core-tx-visualizer).
 */
import { createHash } from 'node:crypto';
import type { Create, DamlTransaction_Node, Metadata_InputContract, PreparedTransaction } from '@canton-network/core-ledger-proto';
import { isoToMicros } from '../clock.js';
import type { ContractRow, CreatedNode, TxNode } from '../model.js';
import { stakeholdersOf } from '../model.js';
import { createdEventBlob } from '../projection-events.js';
import type { PackageRegistry } from '../packages/registry.js';
import { loadProto } from '../proto.js';
import { encodeRecord, encodeValue, identifier } from './lf-proto.js';
import { lfCreateArgument, lfExerciseValues } from './lf-proto-values.js';
import { engineFor } from './lf-engine-cache.js';

export const LF_VERSION = '2.1';

/** Direct children of the node at `index` (or the roots when index = -1), by pre-order node ids. */
function childrenOf(nodes: TxNode[], index: number): number[] {
  const first = index + 1;
  const last =
    index < 0
      ? nodes.length - 1
      : (nodes[index] as TxNode).kind === 'exercise'
        ? (nodes[index] as { lastDescendantNodeId: number }).lastDescendantNodeId
        : index;
  const out: number[] = [];
  for (let i = first; i <= last;) {
    out.push(i);
    const n = nodes[i] as TxNode;
    i = (n.kind === 'exercise' ? n.lastDescendantNodeId : i) + 1;
  }
  return out;
}

const idOfBuiltin =
  (registry: PackageRegistry) =>
  (name: string): string =>
    registry.builtinId(name);

/** Packages uploaded as DARs: their values are encoded with their exact LF types by the Daml-LF engine. */
const lfDefs = (registry: PackageRegistry, packageId: string) =>
  registry.package(packageId)?.uploaded ? engineFor(registry).engine.defs : undefined;

function createProto(node: CreatedNode, registry: PackageRegistry): Create {
  const t = registry.templateOfNode(node);
  const defs = lfDefs(registry, node.packageId);
  return {
    lfVersion: LF_VERSION,
    contractId: node.contractId,
    packageName: node.packageName,
    templateId: identifier(node.packageId, node.qualifiedName),
    argument: defs
      ? lfCreateArgument(defs, node)
      : encodeRecord(node.packageId, node.qualifiedName, t?.def.fields ?? [], node.createArgument, idOfBuiltin(registry)),
    signatories: node.signatories,
    stakeholders: stakeholdersOf(node),
  };
}

export interface PreparedMeta {
  actAs: string[];
  commandId: string;
  synchronizerId: string;
  transactionUuid: string;
  preparationTimeMicros: bigint;
  /** Contracts created before the transaction and used by it. */
  inputContracts: ContractRow[];
}

export function buildPreparedTransaction(nodes: TxNode[], meta: PreparedMeta, registry: PackageRegistry): PreparedTransaction {
  const protoNodes: DamlTransaction_Node[] = nodes.map((n, i) => {
    if (n.kind === 'create')
      return {
        nodeId: String(n.nodeId),
        versionedNode: { oneofKind: 'v1', v1: { nodeType: { oneofKind: 'create', create: createProto(n, registry) } } },
      };
    const defs = lfDefs(registry, n.packageId);
    if (defs) {
      const lf = lfExerciseValues(defs, n);
      return {
        nodeId: String(n.nodeId),
        versionedNode: {
          oneofKind: 'v1',
          v1: {
            nodeType: {
              oneofKind: 'exercise',
              exercise: {
                lfVersion: LF_VERSION,
                contractId: n.contractId,
                packageName: n.packageName,
                templateId: identifier(n.packageId, n.qualifiedName),
                signatories: n.signatories ?? [],
                stakeholders: n.stakeholders,
                actingParties: n.actingParties,
                ...(lf.interfaceId ? { interfaceId: lf.interfaceId } : {}),
                choiceId: n.choice,
                chosenValue: lf.chosenValue,
                consuming: n.consuming,
                children: childrenOf(nodes, i).map(String),
                exerciseResult: lf.exerciseResult,
                choiceObservers: n.choiceObservers ?? [],
              },
            },
          },
        },
      };
    }
    const t = registry.templateOfNode(n);
    const iface = n.interfaceId ? registry.findInterface(n.interfaceId) : undefined;
    const choice = iface ? registry.interfaceChoice(iface, n.choice) : t ? registry.choice(t, n.choice) : undefined;
    const choiceModule = iface ? iface.qualifiedName.split(':')[0] : n.qualifiedName.split(':')[0];
    return {
      nodeId: String(n.nodeId),
      versionedNode: {
        oneofKind: 'v1',
        v1: {
          nodeType: {
            oneofKind: 'exercise',
            exercise: {
              lfVersion: LF_VERSION,
              contractId: n.contractId,
              packageName: n.packageName,
              templateId: identifier(n.packageId, n.qualifiedName),
              signatories: n.signatories ?? [],
              stakeholders: n.stakeholders,
              actingParties: n.actingParties,
              ...(iface ? { interfaceId: identifier(iface.pkg.id, iface.qualifiedName) } : {}),
              choiceId: n.choice,
              chosenValue: encodeRecord(
                iface?.pkg.id ?? n.packageId,
                `${choiceModule ?? ''}:${n.choice}`,
                choice?.argument ?? [],
                n.choiceArgument,
                idOfBuiltin(registry),
              ),
              consuming: n.consuming,
              children: childrenOf(nodes, i).map(String),
              exerciseResult: encodeValue(
                iface?.pkg.id ?? n.packageId,
                choice?.returnType ?? { kind: 'Unit' },
                n.exerciseResult,
                idOfBuiltin(registry),
              ),
              choiceObservers: n.choiceObservers ?? [],
            },
          },
        },
      },
    };
  });
  const seed = (nodeId: number): Uint8Array => createHash('sha256').update(`${meta.transactionUuid}:${nodeId}`).digest();
  const inputContracts: Metadata_InputContract[] = meta.inputContracts.map((c) => ({
    contract: { oneofKind: 'v1', v1: createProto(c.node, registry) },
    createdAt: isoToMicros(c.node.createdAt) ?? 0n,
    eventBlob: Buffer.from(createdEventBlob(c.node), 'base64'),
  }));
  return {
    transaction: {
      version: LF_VERSION,
      roots: childrenOf(nodes, -1).map(String),
      nodes: protoNodes,
      nodeSeeds: nodes.map((n) => ({ nodeId: n.nodeId, seed: seed(n.nodeId) })),
    },
    metadata: {
      submitterInfo: { actAs: meta.actAs, commandId: meta.commandId },
      synchronizerId: meta.synchronizerId,
      mediatorGroup: 0,
      transactionUuid: meta.transactionUuid,
      preparationTime: meta.preparationTimeMicros,
      inputContracts,
      globalKeyMapping: [],
    },
  };
}

export async function encodePrepared(pt: PreparedTransaction): Promise<string> {
  const { PreparedTransaction } = await loadProto();
  return Buffer.from(PreparedTransaction.toBinary(pt)).toString('base64');
}

/**
 * Hash (base64) with hashing scheme V2 of a prepared transaction: its base64 protobuf, or the message decoded from
 * those bytes (a caller that has decoded them already saves decoding them again).
 */
export async function preparedHash(prepared: string | PreparedTransaction): Promise<string> {
  const { hashPreparedTransaction } = await loadProto();
  return hashPreparedTransaction(prepared, 'base64');
}

/** The base64 protobuf of a prepared transaction and its V2 hash, the hash computed over exactly those bytes. */
export async function encodeAndHashPrepared(pt: PreparedTransaction): Promise<{ base64: string; hash: string }> {
  const { PreparedTransaction } = await loadProto();
  const bytes = PreparedTransaction.toBinary(pt);
  // hashed as a reader of the bytes sees them (decoded from the bytes, not the message built here), one decode
  return { base64: Buffer.from(bytes).toString('base64'), hash: await preparedHash(PreparedTransaction.fromBinary(bytes)) };
}
