/**
 * The token-standard API packages (CIP-0056) as built-in packages: `splice-api-token-metadata-v1`, `-holding-v1`,
 * `-transfer-instruction-v1`, `-allocation-v1`, `-allocation-instruction-v1` and `-allocation-request-v1`, all 1.0.0,
 * with exactly the real packages' modules, data types, interfaces, view types, choices and choice argument / result
 * types (read from the real DARs' type definitions; `test/integration/simulator/token-standard-shapes.test.ts` compares
 * them field by field with `../shared/reference/dars`). Types of another API package are references to it, as in the
 * real archives. Interface ids are those of `@canton-network/core-token-standard` (`#<package-name>:<module>:<entity>`).
 *
 * The interface choices' controllers follow the token standard; their bodies are the implementing template's
 * (`InterfaceImpl.choices`): a template that does not implement a choice fails it. Package ids are the SHA-256 of the
 * simulator's archives; a real API package uploaded next to them takes part in `#name` resolution as described in the
 * simulator README ("Built-in and uploaded packages").
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
import {
  parseLibraryId,
  PKG,
  party,
  text,
  time,
  decimal,
  parties,
  optional,
  f,
  rec,
  cidOf,
  metadata,
  anyValue,
  choiceContext,
  extraArgs,
  choiceExecutionMetadata,
  instrumentId,
  lock,
  holdingCids,
  transferRecord,
  transferInstructionStatus,
  transferInstructionResult,
  settlementInfo,
  transferLeg,
  allocationSpecification,
  allocationInstructionResult,
} from './token-standard-types.js';
import type { ChoiceDef, FieldDef, FieldType, InterfaceDef, PackageDef, PartyExpr } from './types.js';

// --- interfaces and their choices ----------------------------------------------------------------

/** An interface choice; its body is the implementing template's (`InterfaceImpl.choices`). */
function choice(
  name: string,
  consuming: boolean,
  argument: FieldDef[],
  returnType: FieldType,
  controllers: PartyExpr[],
  description: string,
): ChoiceDef {
  return {
    name,
    consuming,
    argument,
    returnType,
    controllers,
    description,
    body: (ctx) => ctx.fail(`the template does not implement ${name}`),
  };
}

const iface = (id: string, viewFields: FieldDef[], choices: ChoiceDef[] = []): InterfaceDef => {
  const { module, entity } = parseLibraryId(id);
  return { module, entity, view: { name: `${module}:${entity}View`, fields: viewFields }, choices };
};

const factoryView = [f('admin', party), f('meta', metadata)];
/** The token standard's `allocationControllers`: executor, sender and receiver of the allocation's leg. */
const allocationControllers: PartyExpr[] = [
  { contract: 'allocation.settlement.executor' },
  { contract: 'allocation.transferLeg.sender' },
  { contract: 'allocation.transferLeg.receiver' },
];
const extra = f('extraArgs', extraArgs);

const interfaces: [packageName: string, InterfaceDef][] = [
  [PKG.metadata.packageName, iface(METADATA_INTERFACE_ID, [])],
  [
    PKG.holding.packageName,
    iface(HOLDING_INTERFACE_ID, [
      f('owner', party),
      f('instrumentId', instrumentId),
      f('amount', decimal),
      f('lock', optional(lock)),
      f('meta', metadata),
    ]),
  ],
  [
    PKG.transfer.packageName,
    iface(TRANSFER_FACTORY_INTERFACE_ID, factoryView, [
      choice(
        'TransferFactory_Transfer',
        false,
        [f('expectedAdmin', party), f('transfer', transferRecord), extra],
        transferInstructionResult,
        [{ argument: 'transfer.sender' }],
        'the sender transfers holdings: directly, or through a pending transfer instruction',
      ),
      choice(
        'TransferFactory_PublicFetch',
        false,
        [f('expectedAdmin', party), f('actor', party)],
        rec(PKG.transfer, 'TransferFactoryView', factoryView),
        [{ argument: 'actor' }],
        'anyone reads the factory view',
      ),
    ]),
  ],
  [
    PKG.transfer.packageName,
    iface(
      TRANSFER_INSTRUCTION_INTERFACE_ID,
      [
        f('originalInstructionCid', optional(cidOf(TRANSFER_INSTRUCTION_INTERFACE_ID))),
        f('transfer', transferRecord),
        f('status', transferInstructionStatus),
        f('meta', metadata),
      ],
      [
        choice(
          'TransferInstruction_Accept',
          true,
          [extra],
          transferInstructionResult,
          [{ contract: 'transfer.receiver' }],
          'the receiver accepts',
        ),
        choice(
          'TransferInstruction_Reject',
          true,
          [extra],
          transferInstructionResult,
          [{ contract: 'transfer.receiver' }],
          'the receiver rejects',
        ),
        choice(
          'TransferInstruction_Withdraw',
          true,
          [extra],
          transferInstructionResult,
          [{ contract: 'transfer.sender' }],
          'the sender withdraws',
        ),
        choice(
          'TransferInstruction_Update',
          true,
          [f('extraActors', parties), extra],
          transferInstructionResult,
          [{ contract: 'transfer.instrumentId.admin' }, { argument: 'extraActors' }],
          'the registry advances the instruction (e.g. after its deadline)',
        ),
      ],
    ),
  ],
  [
    PKG.allocation.packageName,
    iface(
      ALLOCATION_INTERFACE_ID,
      [f('allocation', allocationSpecification), f('holdingCids', holdingCids), f('meta', metadata)],
      [
        choice(
          'Allocation_ExecuteTransfer',
          true,
          [extra],
          rec(PKG.allocation, 'Allocation_ExecuteTransferResult', [
            f('senderHoldingCids', holdingCids),
            f('receiverHoldingCids', holdingCids),
            f('meta', metadata),
          ]),
          allocationControllers,
          'the executor settles the transfer leg (with the sender and the receiver)',
        ),
        choice(
          'Allocation_Withdraw',
          true,
          [extra],
          rec(PKG.allocation, 'Allocation_WithdrawResult', [f('senderHoldingCids', holdingCids), f('meta', metadata)]),
          [{ contract: 'allocation.transferLeg.sender' }],
          'the sender withdraws the allocation',
        ),
        choice(
          'Allocation_Cancel',
          true,
          [extra],
          rec(PKG.allocation, 'Allocation_CancelResult', [f('senderHoldingCids', holdingCids), f('meta', metadata)]),
          allocationControllers,
          'the settlement is cancelled (executor, sender and receiver)',
        ),
      ],
    ),
  ],
  [
    PKG.allocationInstruction.packageName,
    iface(ALLOCATION_FACTORY_INTERFACE_ID, factoryView, [
      choice(
        'AllocationFactory_Allocate',
        false,
        [
          f('expectedAdmin', party),
          f('allocation', allocationSpecification),
          f('requestedAt', time),
          f('inputHoldingCids', holdingCids),
          extra,
        ],
        allocationInstructionResult,
        [{ argument: 'allocation.transferLeg.sender' }],
        'the sender allocates holdings to a transfer leg',
      ),
      choice(
        'AllocationFactory_PublicFetch',
        false,
        [f('expectedAdmin', party), f('actor', party)],
        rec(PKG.allocationInstruction, 'AllocationFactoryView', factoryView),
        [{ argument: 'actor' }],
        'anyone reads the factory view',
      ),
    ]),
  ],
  [
    PKG.allocationInstruction.packageName,
    iface(
      ALLOCATION_INSTRUCTION_INTERFACE_ID,
      [
        f('originalInstructionCid', optional(cidOf(ALLOCATION_INSTRUCTION_INTERFACE_ID))),
        f('allocation', allocationSpecification),
        f('pendingActions', { kind: 'GenMap', key: party, value: text }),
        f('requestedAt', time),
        f('inputHoldingCids', holdingCids),
        f('meta', metadata),
      ],
      [
        choice(
          'AllocationInstruction_Withdraw',
          true,
          [extra],
          allocationInstructionResult,
          [{ contract: 'allocation.transferLeg.sender' }],
          'the sender withdraws the pending allocation',
        ),
        choice(
          'AllocationInstruction_Update',
          true,
          [f('extraActors', parties), extra],
          allocationInstructionResult,
          [{ contract: 'allocation.transferLeg.instrumentId.admin' }, { argument: 'extraActors' }],
          'the registry advances the pending allocation',
        ),
      ],
    ),
  ],
  [
    PKG.allocationRequest.packageName,
    iface(
      ALLOCATION_REQUEST_INTERFACE_ID,
      [f('settlement', settlementInfo), f('transferLegs', { kind: 'TextMap', elem: transferLeg }), f('meta', metadata)],
      [
        choice(
          'AllocationRequest_Reject',
          true,
          [f('actor', party), extra],
          choiceExecutionMetadata,
          [{ argument: 'actor' }],
          'a party of one of the transfer legs rejects the request',
        ),
        choice(
          'AllocationRequest_Withdraw',
          true,
          [extra],
          choiceExecutionMetadata,
          [{ contract: 'settlement.executor' }],
          'the settlement executor withdraws the request',
        ),
      ],
    ),
  ],
];

/** Records each real API package defines without reaching them from its interfaces (checked against the real DARs). */
const extraTypes: Record<string, FieldType[]> = {
  [PKG.metadata.packageName]: [metadata, choiceContext, extraArgs, choiceExecutionMetadata, anyValue],
  [PKG.holding.packageName]: [instrumentId, lock],
};

/** The token-standard interface packages, in dependency order (before the packages implementing them). */
export const tokenStandardPackages: PackageDef[] = [
  PKG.metadata.packageName,
  PKG.holding.packageName,
  PKG.transfer.packageName,
  PKG.allocation.packageName,
  PKG.allocationInstruction.packageName,
  PKG.allocationRequest.packageName,
].map((name) => ({
  name,
  version: '1.0.0',
  templates: [],
  interfaces: interfaces.filter(([p]) => p === name).map(([, i]) => i),
  types: extraTypes[name] ?? [],
}));

/** The parties of the request's transfer legs (senders and receivers) in an `AllocationRequestView`. */
export function allocationRequestLegParties(view: Record<string, unknown>): string[] {
  const legs = view.transferLegs;
  if (typeof legs !== 'object' || legs === null) return [];
  return Object.values(legs as Record<string, { sender?: unknown; receiver?: unknown }>).flatMap((l) =>
    [l.sender, l.receiver].filter((p): p is string => typeof p === 'string'),
  );
}
