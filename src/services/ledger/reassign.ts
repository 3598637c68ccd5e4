/**
 * Synchronizers and reassignment over the JSON Ledger API v2: the participant's connected synchronizers with its
 * permission on each, and moving a contract between them (unassign on the source, assign on the target with the
 * same reassignment id), each step submitted and awaited.
 */
import { randomUUID } from 'node:crypto';
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { ConsoleError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';
import { eventFormatOf } from './contracts.js';

type S = v3_5.components['schemas'];

export async function listSynchronizers(
  client: LedgerClient,
): Promise<Array<{ synchronizerId: string; alias: string; permission: string }>> {
  const res = await client.connectedSynchronizers();
  return (res.connectedSynchronizers ?? []).map((s) => ({
    synchronizerId: s.synchronizerId,
    alias: s.synchronizerAlias,
    permission: (s.permission ?? 'PARTICIPANT_PERMISSION_UNSPECIFIED').replace(/^PARTICIPANT_PERMISSION_/, ''),
  }));
}

export interface ReassignRequest {
  contractId: string;
  submitter: string;
  source: string;
  target: string;
  reassignmentId: string;
  step: 'both' | 'unassign' | 'assign';
}

async function submitReassignment(client: LedgerClient, submitter: string, command: S['Command1']): Promise<S['JsReassignment']> {
  const body: S['SubmitAndWaitForReassignmentRequest'] = {
    reassignmentCommands: { commandId: `reassign-${randomUUID()}`, submitter, commands: [{ command }] },
    eventFormat: eventFormatOf({ parties: [submitter] }),
  };
  const res = await client.read(client.api.POST('/v2/commands/submit-and-wait-for-reassignment', { body }));
  return res.reassignment;
}

/** Unassign (→ reassignment id, counter + 1) then assign on the target with the same counter. */
export async function reassignContract(client: LedgerClient, r: ReassignRequest) {
  let reassignmentId = r.reassignmentId;
  let counter = 0;
  let unassignOffset: number | null = null;
  let assignOffset: number | null = null;
  if (r.step !== 'assign') {
    const un = await submitReassignment(client, r.submitter, {
      UnassignCommand: { value: { contractId: r.contractId, source: r.source, target: r.target } },
    });
    unassignOffset = un.offset;
    const ev = un.events.find((e): e is { JsUnassignedEvent: S['JsUnassignedEvent'] } => 'JsUnassignedEvent' in e);
    if (!ev) throw new ConsoleError('LEDGER_API_ERROR', 'The unassignment returned no unassigned event');
    reassignmentId = ev.JsUnassignedEvent.value.reassignmentId;
    counter = ev.JsUnassignedEvent.value.reassignmentCounter;
  }
  if (r.step !== 'unassign') {
    const as = await submitReassignment(client, r.submitter, {
      AssignCommand: { value: { reassignmentId, source: r.source, target: r.target } },
    });
    assignOffset = as.offset;
    const ev = as.events.find((e): e is { JsAssignmentEvent: S['JsAssignmentEvent'] } => 'JsAssignmentEvent' in e);
    if (ev) counter = ev.JsAssignmentEvent.reassignmentCounter;
  }
  return { reassignmentId, counter, unassignOffset, assignOffset, source: r.source, target: r.target };
}
