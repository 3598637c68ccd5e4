/**
 * The token-standard API packages' (CIP-0056) ids and data types, as in the real archives: records and variants of
 * `splice-api-token-metadata-v1`, `-holding-v1`, `-transfer-instruction-v1`, `-allocation-v1`,
 * `-allocation-instruction-v1` and `-allocation-request-v1` (their interfaces: token-standard.ts).
 */
import {
  ALLOCATION_FACTORY_INTERFACE_ID,
  ALLOCATION_INSTRUCTION_INTERFACE_ID,
  ALLOCATION_INTERFACE_ID,
  ALLOCATION_REQUEST_INTERFACE_ID,
  HOLDING_INTERFACE_ID,
  METADATA_INTERFACE_ID,
  TRANSFER_FACTORY_INTERFACE_ID,
  TRANSFER_INSTRUCTION_INTERFACE_ID,
} from '@canton-network/core-token-standard';
import { relTime } from './stdlib.js';
import type { FieldDef, FieldType } from './types.js';

export const TOKEN_STANDARD = {
  metadata: METADATA_INTERFACE_ID,
  holding: HOLDING_INTERFACE_ID,
  transferFactory: TRANSFER_FACTORY_INTERFACE_ID,
  transferInstruction: TRANSFER_INSTRUCTION_INTERFACE_ID,
  allocationFactory: ALLOCATION_FACTORY_INTERFACE_ID,
  allocationInstruction: ALLOCATION_INSTRUCTION_INTERFACE_ID,
  allocation: ALLOCATION_INTERFACE_ID,
  allocationRequest: ALLOCATION_REQUEST_INTERFACE_ID,
} as const;

/** `#package-name:Module:Entity` of the library → its parts. */
export function parseLibraryId(id: string): { packageName: string; module: string; entity: string } {
  const m = /^#([^:]+):([^:]+):([^:]+)$/.exec(id);
  if (!m) throw new Error(`token standard: unexpected interface id ${id}`);
  return { packageName: m[1] as string, module: m[2] as string, entity: m[3] as string };
}

export const PKG = {
  metadata: parseLibraryId(METADATA_INTERFACE_ID),
  holding: parseLibraryId(HOLDING_INTERFACE_ID),
  transfer: parseLibraryId(TRANSFER_FACTORY_INTERFACE_ID),
  allocation: parseLibraryId(ALLOCATION_INTERFACE_ID),
  allocationInstruction: parseLibraryId(ALLOCATION_FACTORY_INTERFACE_ID),
  allocationRequest: parseLibraryId(ALLOCATION_REQUEST_INTERFACE_ID),
};

export const party: FieldType = { kind: 'Party' };
export const text: FieldType = { kind: 'Text' };
export const time: FieldType = { kind: 'Time' };
export const decimal: FieldType = { kind: 'Numeric', scale: 10 };
export const parties: FieldType = { kind: 'List', elem: party };
export const optional = (elem: FieldType): FieldType => ({ kind: 'Optional', elem });
const list = (elem: FieldType): FieldType => ({ kind: 'List', elem });
export const f = (name: string, type: FieldType): FieldDef => ({ name, type });

/** A record of API package `p` (by its library id parts). */
export const rec = (p: { packageName: string; module: string }, entity: string, fields: FieldDef[]): FieldType => ({
  kind: 'Record',
  name: `${p.module}:${entity}`,
  package: p.packageName,
  fields,
});
export const cidOf = (interfaceId: string): FieldType => ({ kind: 'ContractId', template: interfaceId });

// --- splice-api-token-metadata-v1 ---------------------------------------------------------------

export const metadata = rec(PKG.metadata, 'Metadata', [f('values', { kind: 'TextMap', elem: text })]);

/** `AnyValue`, recursive through `AV_List` / `AV_Map` (the same object). */
export const anyValue: Extract<FieldType, { kind: 'Variant' }> = {
  kind: 'Variant',
  name: `${PKG.metadata.module}:AnyValue`,
  package: PKG.metadata.packageName,
  constructors: [],
};
anyValue.constructors.push(
  f('AV_Text', text),
  f('AV_Int', { kind: 'Int64' }),
  f('AV_Decimal', decimal),
  f('AV_Bool', { kind: 'Bool' }),
  f('AV_Date', { kind: 'Date' }),
  f('AV_Time', time),
  f('AV_RelTime', relTime),
  f('AV_Party', party),
  f('AV_ContractId', cidOf(METADATA_INTERFACE_ID)),
  f('AV_List', list(anyValue)),
  f('AV_Map', { kind: 'TextMap', elem: anyValue }),
);

export const choiceContext = rec(PKG.metadata, 'ChoiceContext', [f('values', { kind: 'TextMap', elem: anyValue })]);
export const extraArgs = rec(PKG.metadata, 'ExtraArgs', [f('context', choiceContext), f('meta', metadata)]);
export const choiceExecutionMetadata = rec(PKG.metadata, 'ChoiceExecutionMetadata', [f('meta', metadata)]);

// --- splice-api-token-holding-v1 ----------------------------------------------------------------

export const instrumentId = rec(PKG.holding, 'InstrumentId', [f('admin', party), f('id', text)]);
export const lock = rec(PKG.holding, 'Lock', [
  f('holders', parties),
  f('expiresAt', optional(time)),
  f('expiresAfter', optional(relTime)),
  f('context', optional(text)),
]);
export const holdingCids = list(cidOf(HOLDING_INTERFACE_ID));

// --- splice-api-token-transfer-instruction-v1 ---------------------------------------------------

export const transferRecord = rec(PKG.transfer, 'Transfer', [
  f('sender', party),
  f('receiver', party),
  f('amount', decimal),
  f('instrumentId', instrumentId),
  f('requestedAt', time),
  f('executeBefore', time),
  f('inputHoldingCids', holdingCids),
  f('meta', metadata),
]);

/** A variant `<name>` whose record constructors are named `<name>.<constructor>` (as Daml compiles record constructors). */
function variant(
  p: { packageName: string; module: string },
  name: string,
  ctors: [ctor: string, fields: FieldDef[] | 'Unit'][],
): FieldType {
  return {
    kind: 'Variant',
    name: `${p.module}:${name}`,
    package: p.packageName,
    constructors: ctors.map(([c, fs]) => f(c, fs === 'Unit' ? { kind: 'Unit' } : rec(p, `${name}.${c}`, fs))),
  };
}

export const transferInstructionStatus = variant(PKG.transfer, 'TransferInstructionStatus', [
  ['TransferPendingReceiverAcceptance', 'Unit'],
  ['TransferPendingInternalWorkflow', [f('pendingActions', { kind: 'GenMap', key: party, value: text })]],
]);

export const transferInstructionResult = rec(PKG.transfer, 'TransferInstructionResult', [
  f(
    'output',
    variant(PKG.transfer, 'TransferInstructionResult_Output', [
      ['TransferInstructionResult_Pending', [f('transferInstructionCid', cidOf(TRANSFER_INSTRUCTION_INTERFACE_ID))]],
      ['TransferInstructionResult_Completed', [f('receiverHoldingCids', holdingCids)]],
      ['TransferInstructionResult_Failed', 'Unit'],
    ]),
  ),
  f('senderChangeCids', holdingCids),
  f('meta', metadata),
]);

// --- splice-api-token-allocation-v1 -------------------------------------------------------------

export const settlementInfo = rec(PKG.allocation, 'SettlementInfo', [
  f('executor', party),
  f('settlementRef', rec(PKG.allocation, 'Reference', [f('id', text), f('cid', optional(cidOf(METADATA_INTERFACE_ID)))])),
  f('requestedAt', time),
  f('allocateBefore', time),
  f('settleBefore', time),
  f('meta', metadata),
]);

export const transferLeg = rec(PKG.allocation, 'TransferLeg', [
  f('sender', party),
  f('receiver', party),
  f('amount', decimal),
  f('instrumentId', instrumentId),
  f('meta', metadata),
]);

export const allocationSpecification = rec(PKG.allocation, 'AllocationSpecification', [
  f('settlement', settlementInfo),
  f('transferLegId', text),
  f('transferLeg', transferLeg),
]);

// --- splice-api-token-allocation-instruction-v1 -------------------------------------------------

export const allocationInstructionResult = rec(PKG.allocationInstruction, 'AllocationInstructionResult', [
  f(
    'output',
    variant(PKG.allocationInstruction, 'AllocationInstructionResult_Output', [
      ['AllocationInstructionResult_Pending', [f('allocationInstructionCid', cidOf(ALLOCATION_INSTRUCTION_INTERFACE_ID))]],
      ['AllocationInstructionResult_Completed', [f('allocationCid', cidOf(ALLOCATION_INTERFACE_ID))]],
      ['AllocationInstructionResult_Failed', 'Unit'],
    ]),
  ),
  f('senderChangeCids', holdingCids),
  f('meta', metadata),
]);
