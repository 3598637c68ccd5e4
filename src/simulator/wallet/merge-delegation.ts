/**
 * The `splice-util-token-standard-wallet` built-in package (names from the `MERGE_DELEGATION_*` ids of
 * `@canton-network/core-token-standard`): a user signs a `MergeDelegationProposal` for its wallet provider (the
 * validator), the provider accepts it (`MergeDelegationProposal_Accept` → `MergeDelegation`), and the provider's
 * automation merges many users' holdings in one transaction with `BatchMergeUtility_MergeHoldings`, which calls
 * `MergeDelegation_Merge` per user.
 *
 * Simplifications: the delegation's fields are flat (Splice nests them in a `delegation` record) and a merge calls
 * `AmuletRules_Merge` of the coin instead of a token-standard self-transfer through the TransferFactory.
 */
import {
  MERGE_DELEGATION_BATCH_MERGE_UTILITY,
  MERGE_DELEGATION_PROPOSAL_TEMPLATE_ID,
  MERGE_DELEGATION_TEMPLATE_ID,
} from '@canton-network/core-token-standard';
import type { LfValue } from '../model.js';
import type { FieldType, PackageDef, TemplateDef } from '../packages/types.js';
import { asText } from '../lf-text.js';

/** `#package-name:Module:Entity` → its parts. */
function split(id: string): { packageName: string; module: string; entity: string } {
  const m = /^#([^:]+):([^:]+):([^:]+)$/.exec(id);
  if (!m) throw new Error(`merge delegation: unexpected template id ${id}`);
  return { packageName: m[1] as string, module: m[2] as string, entity: m[3] as string };
}

const P = split(MERGE_DELEGATION_PROPOSAL_TEMPLATE_ID);
const D = split(MERGE_DELEGATION_TEMPLATE_ID);
const B = split(MERGE_DELEGATION_BATCH_MERGE_UTILITY);
export const MERGE_PACKAGE_NAME = P.packageName;
export const MERGE_QN = {
  proposal: `${P.module}:${P.entity}`,
  delegation: `${D.module}:${D.entity}`,
  batch: `${B.module}:${B.entity}`,
} as const;

const party: FieldType = { kind: 'Party' };
// the coin's contracts are typed `ContractId Any` here: this package does not import splice-amulet's types
const anyCid: FieldType = { kind: 'ContractId' };
const delegationFields = [
  { name: 'owner', type: party },
  { name: 'delegate', type: party },
];

const MergeDelegationProposal: TemplateDef = {
  module: P.module,
  entity: P.entity,
  fields: delegationFields,
  signatories: ['owner'],
  observers: ['delegate'],
  implements: [],
  choices: [
    {
      name: 'MergeDelegationProposal_Accept',
      consuming: true,
      argument: [],
      returnType: { kind: 'ContractId', template: MERGE_QN.delegation },
      controllers: [{ contract: 'delegate' }],
      description: 'the wallet provider accepts the delegation',
      body: (ctx) => ctx.create(MERGE_QN.delegation, { owner: ctx.contract.owner ?? null, delegate: ctx.contract.delegate ?? null }),
    },
  ],
};

const MergeDelegation: TemplateDef = {
  module: D.module,
  entity: D.entity,
  fields: delegationFields,
  signatories: ['owner', 'delegate'],
  observers: [],
  implements: [],
  choices: [
    {
      name: 'MergeDelegation_Merge',
      consuming: false,
      argument: [
        { name: 'inputs', type: { kind: 'List', elem: anyCid } },
        { name: 'amuletRules', type: anyCid },
        { name: 'openRound', type: anyCid },
      ],
      returnType: anyCid,
      controllers: [{ contract: 'delegate' }],
      description: 'the delegate merges the owner’s holdings into one (with the owner’s authority)',
      body: (ctx) =>
        ctx.exercise(asText(ctx.arg.amuletRules), 'AmuletRules_Merge', {
          owner: ctx.contract.owner ?? null,
          inputs: ctx.arg.inputs ?? [],
          openRound: ctx.arg.openRound ?? null,
        }),
    },
    {
      name: 'MergeDelegation_Cancel',
      consuming: true,
      argument: [],
      returnType: { kind: 'Unit' },
      controllers: [{ contract: 'owner' }],
      description: 'the owner revokes the delegation',
      body: () => ({}),
    },
  ],
};

const mergeCall: FieldType = {
  kind: 'Record',
  name: `${B.module}:MergeCall`,
  fields: [
    { name: 'delegationCid', type: { kind: 'ContractId', template: MERGE_QN.delegation } },
    { name: 'inputs', type: { kind: 'List', elem: anyCid } },
  ],
};

const BatchMergeUtility: TemplateDef = {
  module: B.module,
  entity: B.entity,
  fields: [{ name: 'operator', type: party }],
  signatories: ['operator'],
  observers: [],
  implements: [],
  choices: [
    {
      name: 'BatchMergeUtility_MergeHoldings',
      consuming: false,
      argument: [
        { name: 'merges', type: { kind: 'List', elem: mergeCall } },
        { name: 'amuletRules', type: anyCid },
        { name: 'openRound', type: anyCid },
      ],
      returnType: { kind: 'List', elem: anyCid },
      controllers: [{ contract: 'operator' }],
      description: 'runs many MergeDelegation_Merge calls in one transaction',
      body: (ctx) =>
        ((ctx.arg.merges as LfValue[] | null) ?? []).map((m) => {
          const call = m as { delegationCid: LfValue; inputs: LfValue };
          return ctx.exercise(asText(call.delegationCid), 'MergeDelegation_Merge', {
            inputs: call.inputs,
            amuletRules: ctx.arg.amuletRules ?? null,
            openRound: ctx.arg.openRound ?? null,
          });
        }),
    },
  ],
};

export const mergeDelegationPackage: PackageDef = {
  name: MERGE_PACKAGE_NAME,
  version: '1.0.0',
  templates: [MergeDelegationProposal, MergeDelegation, BatchMergeUtility],
  interfaces: [],
};
