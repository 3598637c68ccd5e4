/**
 * Command submission over the JSON Ledger API v2: the operator's commands → `JsCommands`, sent with
 * the chosen variant (`submit-and-wait`, `…-for-transaction` with a transaction format,
 * `…-for-transaction-tree`, `async/submit`), the answer reduced to what the console shows.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { CommandSpec, DisclosedContract, EventNode, SubmitResult, SubmitVariant, TransactionShape } from '../../ipc/contract.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';
import { buildUpdateFormat, eventTree, type JsUpdate } from './updates.js';

type S = v3_5.components['schemas'];

export interface Submission {
  commands: CommandSpec[];
  actAs: string[];
  readAs: string[];
  commandId: string;
  workflowId: string;
  submissionId: string;
  deduplicationSeconds: number;
  variant: SubmitVariant;
  transactionShape: TransactionShape;
  synchronizerId?: string;
  disclosedContracts?: DisclosedContract[];
}

export function toLedgerCommand(c: CommandSpec): S['Command'] {
  switch (c.kind) {
    case 'create':
      return { CreateCommand: { templateId: c.templateId, createArguments: c.createArguments } };
    case 'exercise':
      return {
        ExerciseCommand: { templateId: c.templateId, contractId: c.contractId, choice: c.choice, choiceArgument: c.choiceArgument },
      };
    case 'exerciseByKey':
      return {
        ExerciseByKeyCommand: { templateId: c.templateId, contractKey: c.contractKey, choice: c.choice, choiceArgument: c.choiceArgument },
      };
    case 'createAndExercise':
      return {
        CreateAndExerciseCommand: {
          templateId: c.templateId,
          createArguments: c.createArguments,
          choice: c.choice,
          choiceArgument: c.choiceArgument,
        },
      };
  }
}

export function toJsCommands(s: Submission): S['JsCommands'] {
  return {
    commands: s.commands.map(toLedgerCommand),
    commandId: s.commandId,
    actAs: s.actAs,
    ...(s.readAs.length > 0 ? { readAs: s.readAs } : {}),
    ...(s.workflowId ? { workflowId: s.workflowId } : {}),
    ...(s.submissionId ? { submissionId: s.submissionId } : {}),
    ...(s.deduplicationSeconds > 0
      ? { deduplicationPeriod: { DeduplicationDuration: { value: { seconds: s.deduplicationSeconds, nanos: 0 } } } }
      : {}),
    ...(s.synchronizerId ? { synchronizerId: s.synchronizerId } : {}),
    ...(s.disclosedContracts && s.disclosedContracts.length > 0
      ? {
          disclosedContracts: s.disclosedContracts.map((d) => ({
            contractId: d.contractId,
            templateId: d.templateId,
            createdEventBlob: d.createdEventBlob.replace(/\s+/g, ''),
            ...(d.synchronizerId ? { synchronizerId: d.synchronizerId } : {}),
          })),
        }
      : {}),
  };
}

function fromEvents(events: EventNode[]): Pick<SubmitResult, 'createdContractIds' | 'archivedContractIds'> {
  const created: string[] = [];
  const archived: string[] = [];
  for (const e of events) {
    if (e.kind === 'created' && e.contractId) created.push(e.contractId);
    if ((e.kind === 'archived' || (e.kind === 'exercised' && e.consuming)) && e.contractId) archived.push(e.contractId);
  }
  return { createdContractIds: created, archivedContractIds: [...new Set(archived)] };
}

/** Converts a legacy transaction tree (events by id) to an update so the shared event tree applies. */
function treeAsUpdate(tree: Record<string, unknown>): JsUpdate {
  const byId = (tree.eventsById ?? {}) as Record<string, Record<string, unknown>>;
  const events = Object.values(byId).map((e) => {
    if ('CreatedTreeEvent' in e) return { CreatedEvent: (e.CreatedTreeEvent as { value: unknown }).value };
    if ('ExercisedTreeEvent' in e) return { ExercisedEvent: (e.ExercisedTreeEvent as { value: unknown }).value };
    return e;
  });
  return { Transaction: { value: { ...tree, events } } } as unknown as JsUpdate;
}

export async function submitCommands(client: LedgerClient, s: Submission): Promise<SubmitResult> {
  const commands = toJsCommands(s);
  const base = { variant: s.variant, commandId: s.commandId, submissionId: s.submissionId || null };
  switch (s.variant) {
    case 'submit-and-wait': {
      const res = await client.read(client.api.POST('/v2/commands/submit-and-wait', { body: commands }));
      return {
        ...base,
        updateId: res.updateId,
        offset: res.completionOffset,
        events: [],
        createdContractIds: [],
        archivedContractIds: [],
        json: JSON.stringify(res, null, 2),
      };
    }
    case 'async': {
      const res = await client.read(client.api.POST('/v2/commands/async/submit', { body: commands }));
      return {
        ...base,
        updateId: null,
        offset: null,
        events: [],
        createdContractIds: [],
        archivedContractIds: [],
        json: JSON.stringify(res, null, 2),
      };
    }
    case 'transaction': {
      const eventFormat = buildUpdateFormat({
        parties: [...new Set([...s.actAs, ...s.readAs])],
        templates: [],
        interfaces: [],
        shape: s.transactionShape,
        includeReassignments: false,
        includeTopology: false,
        includeCreatedEventBlob: false,
        includeInterfaceViews: false,
        verbose: true,
      }).includeTransactions;
      const req: S['JsSubmitAndWaitForTransactionRequest'] = { commands, ...(eventFormat ? { transactionFormat: eventFormat } : {}) };
      const res = await client.read(client.api.POST('/v2/commands/submit-and-wait-for-transaction', { body: req }));
      const events = eventTree({ Transaction: { value: res.transaction } });
      return {
        ...base,
        updateId: res.transaction.updateId,
        offset: res.transaction.offset,
        events,
        ...fromEvents(events),
        json: JSON.stringify(res, null, 2),
      };
    }
    case 'transaction-tree': {
      const res = await client.read(client.api.POST('/v2/commands/submit-and-wait-for-transaction-tree', { body: commands }));
      const tree = res.transactionTree as unknown as Record<string, unknown> | undefined;
      if (!tree) throw new ConsoleError('LEDGER_API_ERROR', 'The participant answered without a transaction tree');
      const events = eventTree(treeAsUpdate(tree));
      return {
        ...base,
        updateId: typeof tree.updateId === 'string' ? tree.updateId : null,
        offset: typeof tree.offset === 'number' ? tree.offset : null,
        events,
        ...fromEvents(events),
        json: JSON.stringify(res, null, 2),
      };
    }
  }
}
