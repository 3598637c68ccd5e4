/** Executes a signed prepared transaction on the participant with the submit variant the operator chose. */
import { randomUUID } from 'node:crypto';
import type { LedgerClient } from '../ledger-client.js';
import { fetchUpdate } from '../ledger/updates.js';
import { UpdateFilterSchema } from '../../ipc/channels/updates.js';
import { executeSubmissionRequest, type JsonPartySignatures, type PrepareResponse } from '../signing/index.js';
import type { ExecuteMode, ExecutionResult } from '../../ipc/channels/signing.js';

export async function executePrepared(
  client: LedgerClient,
  prepared: PrepareResponse,
  party: string,
  partySignatures: JsonPartySignatures,
  mode: ExecuteMode,
  auditSeqs: number[],
): Promise<ExecutionResult> {
  const submissionId = randomUUID();
  const body = executeSubmissionRequest(prepared, partySignatures, { submissionId });
  if (mode === 'execute') {
    await client.read(client.api.POST('/v2/interactive-submission/execute', { body }));
    return { status: 'executed', mode, submissionId, updateId: null, offset: null, events: [], auditSeqs };
  }
  if (mode === 'executeAndWait') {
    const r = await client.read(client.api.POST('/v2/interactive-submission/executeAndWait', { body }));
    let events: ExecutionResult['events'] = [];
    try {
      const detail = await fetchUpdate(client, UpdateFilterSchema.parse({ parties: [party], shape: 'LEDGER_EFFECTS' }), {
        updateId: r.updateId,
      });
      events = detail.events.map((e) => ({
        kind: e.kind,
        templateId: e.templateId,
        contractId: e.contractId,
        choice: e.choice,
        json: e.json,
      }));
    } catch {
      // The transaction is committed; its events are a convenience.
    }
    return { status: 'executed', mode, submissionId, updateId: r.updateId, offset: r.completionOffset, events, auditSeqs };
  }
  const r = await client.read(
    client.api.POST('/v2/interactive-submission/executeAndWaitForTransaction', {
      body: {
        ...body,
        transactionFormat: {
          transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
          eventFormat: { filtersByParty: { [party]: {} }, verbose: true },
        },
      },
    }),
  );
  const events = r.transaction.events.map((ev) => {
    const json = JSON.stringify(ev, null, 2);
    if ('CreatedEvent' in ev) {
      return { kind: 'created', templateId: ev.CreatedEvent.templateId, contractId: ev.CreatedEvent.contractId, choice: null, json };
    }
    if ('ArchivedEvent' in ev) {
      return { kind: 'archived', templateId: ev.ArchivedEvent.templateId, contractId: ev.ArchivedEvent.contractId, choice: null, json };
    }
    const x = ev.ExercisedEvent;
    return { kind: 'exercised', templateId: x.templateId, contractId: x.contractId, choice: x.choice, json };
  });
  return { status: 'executed', mode, submissionId, updateId: r.transaction.updateId, offset: r.transaction.offset, events, auditSeqs };
}
