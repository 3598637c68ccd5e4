/**
 * Built-in stand-ins for the Splice token-standard API packages (CIP-0056), named after the identifiers of
 * `@canton-network/core-token-standard` (the official codegen): `HOLDING_INTERFACE_ID`, `TRANSFER_FACTORY_INTERFACE_ID`,
 * `ALLOCATION_FACTORY_INTERFACE_ID` are `#<package-name>:<module>:<entity>`, and each becomes a built-in package with that
 * name holding that interface with its view type, so token-standard clients filter and decode with the real ids.
 * Templates of other built-in packages implement them (`InterfaceImpl.interface` = the `#name:…` id).
 *
 * Package ids are the SHA-256 of the simulator's archives (as for every package it serves), not the ids of the
 * published DARs; clients that address interfaces by package name (as the library's constants do) are unaffected.
 * Interface choices are modelled where the wallet exercises them (`AllocationRequest_Reject`, `AllocationRequest_Withdraw`);
 * otherwise wallets act through the Splice wallet endpoints.
 */
import {
  ALLOCATION_FACTORY_INTERFACE_ID,
  ALLOCATION_INTERFACE_ID,
  ALLOCATION_REQUEST_INTERFACE_ID,
  HOLDING_INTERFACE_ID,
  TRANSFER_FACTORY_INTERFACE_ID,
  TRANSFER_INSTRUCTION_INTERFACE_ID,
} from '@canton-network/core-token-standard';
import type { ChoiceDef, FieldDef, FieldType, InterfaceDef, PackageDef } from './types.js';

const party: FieldType = { kind: 'Party' };
const text: FieldType = { kind: 'Text' };

/** `Splice.Api.Token.MetadataV1:Metadata` — `values: TextMap Text`. */
export const metadata: FieldType = {
  kind: 'Record',
  name: 'Splice.Api.Token.MetadataV1:Metadata',
  fields: [{ name: 'values', type: { kind: 'TextMap', elem: text } }],
};

const instrumentId: FieldType = {
  kind: 'Record',
  name: 'Splice.Api.Token.HoldingV1:InstrumentId',
  fields: [
    { name: 'admin', type: party },
    { name: 'id', type: text },
  ],
};

const lock: FieldType = {
  kind: 'Record',
  name: 'Splice.Api.Token.HoldingV1:Lock',
  fields: [
    { name: 'holders', type: { kind: 'List', elem: party } },
    { name: 'expiresAt', type: { kind: 'Optional', elem: { kind: 'Time' } } },
    {
      name: 'expiresAfter',
      type: {
        kind: 'Optional',
        elem: { kind: 'Record', name: 'DA.Time.Types:RelTime', fields: [{ name: 'microseconds', type: { kind: 'Int64' } }] },
      },
    },
    { name: 'context', type: { kind: 'Optional', elem: text } },
  ],
};

/** Splits a `#package-name:Module:Entity` id of the library. */
function parseLibraryId(id: string): { packageName: string; module: string; entity: string } {
  const m = /^#([^:]+):([^:]+):([^:]+)$/.exec(id);
  if (!m) throw new Error(`token standard: unexpected interface id ${id}`);
  return { packageName: m[1] as string, module: m[2] as string, entity: m[3] as string };
}

/** One package per library package name, holding the interfaces the ids name (in order). */
function interfacePackages(defs: [id: string, viewFields: FieldDef[], choices?: ChoiceDef[]][]): PackageDef[] {
  const byName = new Map<string, PackageDef>();
  for (const [id, viewFields, choices] of defs) {
    const { packageName, module, entity } = parseLibraryId(id);
    const iface: InterfaceDef = {
      module,
      entity,
      view: { name: `${module}:${entity}View`, fields: viewFields },
      ...(choices ? { choices } : {}),
    };
    const pkg = byName.get(packageName) ?? { name: packageName, version: '1.0.0', templates: [], interfaces: [] };
    pkg.interfaces.push(iface);
    byName.set(packageName, pkg);
  }
  return [...byName.values()];
}

const factoryView: FieldDef[] = [
  { name: 'admin', type: party },
  { name: 'meta', type: metadata },
];

export const TOKEN_STANDARD = {
  holding: HOLDING_INTERFACE_ID,
  transferFactory: TRANSFER_FACTORY_INTERFACE_ID,
  transferInstruction: TRANSFER_INSTRUCTION_INTERFACE_ID,
  allocationFactory: ALLOCATION_FACTORY_INTERFACE_ID,
  allocation: ALLOCATION_INTERFACE_ID,
  allocationRequest: ALLOCATION_REQUEST_INTERFACE_ID,
} as const;

/** `Splice.Api.Token.TransferInstructionV1:Transfer` (holding cids untyped: the Holding interface lives in another package). */
export const transferRecord: FieldType = {
  kind: 'Record',
  name: 'Splice.Api.Token.TransferInstructionV1:Transfer',
  fields: [
    { name: 'sender', type: party },
    { name: 'receiver', type: party },
    { name: 'amount', type: { kind: 'Numeric', scale: 10 } },
    { name: 'instrumentId', type: instrumentId },
    { name: 'requestedAt', type: { kind: 'Time' } },
    { name: 'executeBefore', type: { kind: 'Time' } },
    { name: 'inputHoldingCids', type: { kind: 'List', elem: { kind: 'ContractId' } } },
    { name: 'meta', type: metadata },
  ],
};

const time: FieldType = { kind: 'Time' };

/** `Splice.Api.Token.AllocationV1:SettlementInfo`. */
export const settlementInfo: FieldType = {
  kind: 'Record',
  name: 'Splice.Api.Token.AllocationV1:SettlementInfo',
  fields: [
    { name: 'executor', type: party },
    {
      name: 'settlementRef',
      type: {
        kind: 'Record',
        name: 'Splice.Api.Token.AllocationV1:Reference',
        fields: [
          { name: 'id', type: text },
          { name: 'cid', type: { kind: 'Optional', elem: { kind: 'ContractId' } } },
        ],
      },
    },
    { name: 'requestedAt', type: time },
    { name: 'allocateBefore', type: time },
    { name: 'settleBefore', type: time },
    { name: 'meta', type: metadata },
  ],
};

/** `Splice.Api.Token.AllocationV1:TransferLeg`. */
export const transferLeg: FieldType = {
  kind: 'Record',
  name: 'Splice.Api.Token.AllocationV1:TransferLeg',
  fields: [
    { name: 'sender', type: party },
    { name: 'receiver', type: party },
    { name: 'amount', type: { kind: 'Numeric', scale: 10 } },
    { name: 'instrumentId', type: instrumentId },
    { name: 'meta', type: metadata },
  ],
};

/** `Splice.Api.Token.AllocationV1:AllocationSpecification` (settlement, transfer leg id, transfer leg). */
export const allocationSpecification: FieldType = {
  kind: 'Record',
  name: 'Splice.Api.Token.AllocationV1:AllocationSpecification',
  fields: [
    { name: 'settlement', type: settlementInfo },
    { name: 'transferLegId', type: text },
    { name: 'transferLeg', type: transferLeg },
  ],
};

/** `Splice.Api.Token.MetadataV1:ExtraArgs` (the choice context is an opaque TextMap here). */
const extraArgs: FieldType = {
  kind: 'Record',
  name: 'Splice.Api.Token.MetadataV1:ExtraArgs',
  fields: [
    {
      name: 'context',
      type: {
        kind: 'Record',
        name: 'Splice.Api.Token.MetadataV1:ChoiceContext',
        fields: [{ name: 'values', type: { kind: 'TextMap', elem: text } }],
      },
    },
    { name: 'meta', type: metadata },
  ],
};

const choiceExecutionMetadata: FieldType = {
  kind: 'Record',
  name: 'Splice.Api.Token.MetadataV1:ChoiceExecutionMetadata',
  fields: [{ name: 'meta', type: metadata }],
};

/** The parties of the request's transfer legs (senders and receivers) in an `AllocationRequestView`. */
export function allocationRequestLegParties(view: Record<string, unknown>): string[] {
  const legs = view.transferLegs;
  if (typeof legs !== 'object' || legs === null) return [];
  return Object.values(legs as Record<string, { sender?: unknown; receiver?: unknown }>).flatMap((l) =>
    [l.sender, l.receiver].filter((p): p is string => typeof p === 'string'),
  );
}

/** `AllocationRequest_Reject` / `AllocationRequest_Withdraw` (both consuming, result `ChoiceExecutionMetadata`). */
const allocationRequestChoices: ChoiceDef[] = [
  {
    name: 'AllocationRequest_Reject',
    consuming: true,
    argument: [
      { name: 'actor', type: party },
      { name: 'extraArgs', type: extraArgs },
    ],
    returnType: choiceExecutionMetadata,
    controllers: [{ argument: 'actor' }],
    description: 'a party of one of the transfer legs rejects the allocation request',
    body: (ctx) => {
      if (!allocationRequestLegParties(ctx.contract).includes(String(ctx.arg.actor)))
        ctx.fail(`${String(ctx.arg.actor)} is not a sender or receiver of the request's transfer legs`);
      return { meta: { values: {} } };
    },
  },
  {
    name: 'AllocationRequest_Withdraw',
    consuming: true,
    argument: [{ name: 'extraArgs', type: extraArgs }],
    returnType: choiceExecutionMetadata,
    controllers: [{ contract: 'settlement.executor' }],
    description: 'the settlement executor withdraws the allocation request',
    body: () => ({ meta: { values: {} } }),
  },
];

/** `TransferInstructionStatus` (Splice's `pendingActions` is a `Map Party Text`; a TextMap here). */
const transferInstructionStatus: FieldType = {
  kind: 'Variant',
  name: 'Splice.Api.Token.TransferInstructionV1:TransferInstructionStatus',
  constructors: [
    {
      name: 'TransferPendingReceiverAcceptance',
      type: { kind: 'Record', name: 'Splice.Api.Token.TransferInstructionV1:TransferPendingReceiverAcceptance', fields: [] },
    },
    {
      name: 'TransferPendingInternalWorkflow',
      type: {
        kind: 'Record',
        name: 'Splice.Api.Token.TransferInstructionV1:TransferPendingInternalWorkflow',
        fields: [{ name: 'pendingActions', type: { kind: 'TextMap', elem: text } }],
      },
    },
  ],
};

/** The token-standard interface packages, in dependency order (before the packages implementing them). */
export const tokenStandardPackages: PackageDef[] = interfacePackages([
  [
    HOLDING_INTERFACE_ID,
    [
      { name: 'owner', type: party },
      { name: 'instrumentId', type: instrumentId },
      { name: 'amount', type: { kind: 'Numeric', scale: 10 } },
      { name: 'lock', type: { kind: 'Optional', elem: lock } },
      { name: 'meta', type: metadata },
    ],
  ],
  [TRANSFER_FACTORY_INTERFACE_ID, factoryView],
  [
    TRANSFER_INSTRUCTION_INTERFACE_ID,
    [
      { name: 'originalInstructionCid', type: { kind: 'Optional', elem: { kind: 'ContractId' } } },
      { name: 'transfer', type: transferRecord },
      { name: 'status', type: transferInstructionStatus },
      { name: 'meta', type: metadata },
    ],
  ],
  [ALLOCATION_FACTORY_INTERFACE_ID, factoryView],
  [
    ALLOCATION_INTERFACE_ID,
    [
      { name: 'allocation', type: allocationSpecification },
      { name: 'holdingCids', type: { kind: 'List', elem: { kind: 'ContractId' } } },
      { name: 'meta', type: metadata },
    ],
  ],
  [
    ALLOCATION_REQUEST_INTERFACE_ID,
    [
      { name: 'settlement', type: settlementInfo },
      { name: 'transferLegs', type: { kind: 'TextMap', elem: transferLeg } },
      { name: 'meta', type: metadata },
    ],
    allocationRequestChoices,
  ],
]);
