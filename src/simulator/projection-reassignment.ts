/**
 * Reassignments as the JSON API prints them: unassigned and assigned events (selected by the event format as the
 * contract's create would be) and the JsReassignment around them.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { isoToMicros, microsToIso } from './clock.js';
import type { ResolvedEventFormat } from './filters.js';
import { matchEvent } from './filters.js';
import type { StoredReassignment } from './model.js';
import type { PackageRegistry } from './packages/registry.js';
import { commandAndWorkflow, createdEvent, templateKeyOf } from './projection-events.js';

type S = v3_5.components['schemas'];

/** Assignment exclusivity timeout: Canton's default dynamic synchronizer parameter (SynchronizerParameters, 60 s). */
const ASSIGNMENT_EXCLUSIVITY_MICROS = 60_000_000n;

/**
 * UnassignedEvent.assignmentExclusivity: "Before this time (measured on the target synchronizer), only
 * the submitter of the unassignment can initiate the assignment. Defined for reassigning
 * participants." Canton (UnassignmentValidation.checkAssignmentExclusivity) sets it to the target
 * timestamp of the unassignment plus the target's assignmentExclusivityTimeout; this participant hosts
 * every stakeholder, so it is always a reassigning participant. Both synchronizers share the clock:
 * the unassignment's record time stands for its target timestamp.
 */
export function assignmentExclusivity(unassignRecordTime: string): string | undefined {
  const micros = isoToMicros(unassignRecordTime);
  return micros === undefined ? undefined : microsToIso(micros + ASSIGNMENT_EXCLUSIVITY_MICROS);
}

/** An UnassignedEvent (JsUnassignedEvent, JsIncompleteUnassigned): `submitter` `""` when unknown, as proto3 prints it. */
export function unassignedEvent(
  e: { reassignmentId: string; contractId: string; templateId: string; packageName: string; source: string; target: string },
  rest: {
    submitter: string | undefined;
    reassignmentCounter: number;
    witnessParties: string[];
    offset: number;
    recordTime: string | undefined;
  },
): S['UnassignedEvent'] {
  const exclusivity = rest.recordTime === undefined ? undefined : assignmentExclusivity(rest.recordTime);
  return {
    reassignmentId: e.reassignmentId,
    contractId: e.contractId,
    templateId: e.templateId,
    source: e.source,
    target: e.target,
    submitter: rest.submitter ?? '',
    reassignmentCounter: rest.reassignmentCounter,
    ...(exclusivity ? { assignmentExclusivity: exclusivity } : {}),
    witnessParties: rest.witnessParties,
    packageName: e.packageName,
    offset: rest.offset,
    nodeId: 0,
  };
}

export function projectReassignment(
  r: StoredReassignment,
  fmt: ResolvedEventFormat,
  registry: PackageRegistry,
): S['JsReassignment'] | undefined {
  const event = reassignmentEvent(r, fmt, registry);
  return event ? reassignment(r, [event], fmt) : undefined;
}

function reassignmentEvent(
  r: StoredReassignment,
  fmt: ResolvedEventFormat,
  registry: PackageRegistry,
): S['JsReassignmentEvent'] | undefined {
  const e = r.event;
  if (e.type === 'unassign') {
    // template and interface filters select an unassignment as they select the contract's create
    const interfaces = registry.findTemplate(e.templateId)?.implementedInterfaces ?? [];
    const m = matchEvent(fmt, e.stakeholders, `${e.packageName}:${e.templateId.split(':').slice(1).join(':')}`, interfaces);
    if (!m) return undefined;
    return {
      JsUnassignedEvent: {
        value: unassignedEvent(e, {
          submitter: e.submitter,
          reassignmentCounter: e.reassignmentCounter,
          witnessParties: m.parties,
          offset: r.offset,
          recordTime: r.recordTime,
        }),
      },
    };
  }
  const n = e.createdNode;
  const m = matchEvent(fmt, e.stakeholders, templateKeyOf(n), n.implementedInterfaces);
  if (!m) return undefined;
  return {
    JsAssignmentEvent: {
      source: e.source,
      target: e.target,
      reassignmentId: e.reassignmentId,
      submitter: e.submitter,
      reassignmentCounter: e.reassignmentCounter,
      createdEvent: createdEvent(n, r.offset, m, true, registry),
    },
  };
}

function reassignment(
  r: StoredReassignment,
  events: S['JsReassignmentEvent'][],
  fmt: ResolvedEventFormat | 'submitter',
): S['JsReassignment'] {
  return {
    updateId: r.updateId,
    ...commandAndWorkflow(r, fmt),
    offset: r.offset,
    events,
    recordTime: r.recordTime,
    synchronizerId: r.synchronizerId,
  };
}

/** The reassignment a submit-and-wait-for-reassignment answers when its format shows no event of it. */
export function reassignmentWithoutEvents(r: StoredReassignment): S['JsReassignment'] {
  return reassignment(r, [], 'submitter');
}
