/**
 * The single events of the JSON API (created, exercised) as Canton prints them, the created-event blob, and the
 * command/workflow header every update shape shares. Update shapes are built from these in `projection.ts`
 * (transactions, trees, topology) and `projection-reassignment.ts`.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { Match, ResolvedEventFormat } from './filters.js';
import { readersOf } from './filters.js';
import type { CreatedNode, ExercisedNode } from './model.js';
import { canonicalJson } from './packages/canonical.js';
import type { PackageRegistry } from './packages/registry.js';
import { lfInterfaceView } from './engine/lf-views.js';

type S = v3_5.components['schemas'];
export type JsCreatedEvent = S['CreatedEvent'];

export const templateIdOf = (n: { packageId: string; qualifiedName: string }): string => `${n.packageId}:${n.qualifiedName}`;
export const templateKeyOf = (n: { packageName: string; qualifiedName: string }): string => `${n.packageName}:${n.qualifiedName}`;

export function createdEventBlob(node: CreatedNode): string {
  return Buffer.from(canonicalJson({ v: 1, ...node, witnesses: undefined, nodeId: undefined })).toString('base64');
}

/** Created-event fields of a spliced create (no blob, no interface views), as Canton prints them. */
export const CREATE_DEFAULTS = ',"createdEventBlob":"","interfaceViews":[]';

const KEY_HASH_FIELD = ',"contractKeyHash":"';

/**
 * The default fields the text of a created event lacks when it was stored before they were (`ptx1|`
 * rows, splice.ts rows): the blob and the views, and `contractKeyHash` unless the text ends with it.
 * `tail` is the end of the event's text (a few hundred characters). Only the key and its hash follow
 * the fields that are always there, the hash last and a string without quotes; a field of that name
 * inside a value is followed by more text, so it is never taken for the hash.
 */
export function legacyCreateDefaults(tail: string): string {
  const h = tail.lastIndexOf(KEY_HASH_FIELD);
  const hashed = h >= 0 && tail.indexOf('"', h + KEY_HASH_FIELD.length) === tail.length - 1;
  return hashed ? CREATE_DEFAULTS : `,"contractKeyHash":""${CREATE_DEFAULTS}`;
}

/**
 * A CreatedEvent as Canton's JSON API prints it (JsSchema.JsEvent.CreatedEvent, circe-derived): every
 * field that is not an Option is always present, with the protobuf default when empty —
 * `contractKeyHash` and `createdEventBlob` (ByteString) `""`, `interfaceViews` `[]`. The Option
 * `contractKey` is printed as `null` when absent; the simulator omits it (the reference spec allows no
 * null), which JSON clients read the same way.
 */
export function createdEvent(
  node: CreatedNode,
  offset: number,
  match: Match,
  acsDelta: boolean,
  registry: PackageRegistry,
): JsCreatedEvent {
  const ev: JsCreatedEvent = {
    offset,
    nodeId: node.nodeId,
    contractId: node.contractId,
    templateId: templateIdOf(node),
    ...(node.contractKey !== undefined ? { contractKey: node.contractKey } : {}),
    contractKeyHash: node.contractKey !== undefined ? (node.contractKeyHash ?? '') : '',
    createArgument: node.createArgument,
    createdEventBlob: match.blob ? createdEventBlob(node) : '',
    interfaceViews: [],
    witnessParties: match.parties,
    signatories: node.signatories,
    observers: node.observers,
    createdAt: node.createdAt,
    packageName: node.packageName,
    representativePackageId: node.packageId,
    acsDelta,
  };
  if (match.views.length > 0) {
    const t = registry.templateOfNode(node);
    // JsInterfaceView: viewStatus prints `details` always (JsSchema grpcStatusEncoder); a failed view has no
    // viewValue and no implementationPackageId (ProtocolConverters.InterfaceView.toJson)
    ev.interfaceViews = match.views.map((iid) => {
      const impl = t ? registry.implementation(t, iid) : undefined;
      if (t?.uploaded) {
        // uploaded packages: the Daml-LF engine computes the view
        const v = lfInterfaceView(registry, node, iid);
        return v.ok
          ? { interfaceId: iid, viewStatus: { code: 0, message: '', details: [] }, viewValue: v.value, implementationPackageId: t.pkg.id }
          : { interfaceId: iid, viewStatus: { code: v.code, message: v.message, details: [] } };
      }
      if (!t || !impl) return { interfaceId: iid, viewStatus: { code: 5, message: `Template does not implement ${iid}`, details: [] } };
      return {
        interfaceId: iid,
        viewStatus: { code: 0, message: '', details: [] },
        viewValue: impl.view(node.createArgument as Record<string, never>),
        implementationPackageId: t.pkg.id,
      };
    });
  }
  return ev;
}

export function exercisedEvent(node: ExercisedNode, offset: number, match: Match, acsDelta: boolean): S['ExercisedEvent'] {
  const ev: S['ExercisedEvent'] = {
    offset,
    nodeId: node.nodeId,
    contractId: node.contractId,
    templateId: templateIdOf(node),
    choice: node.choice,
    choiceArgument: node.choiceArgument,
    actingParties: node.actingParties,
    consuming: node.consuming,
    witnessParties: match.parties,
    lastDescendantNodeId: node.lastDescendantNodeId,
    exerciseResult: node.exerciseResult,
    packageName: node.packageName,
    // "If the event is consuming, the interfaces implemented by the target template that have been matched from the
    // interface filter query. Populated only in case interface filters with include_interface_view set."
    implementedInterfaces: node.consuming ? match.views : [],
    acsDelta,
  };
  if (node.interfaceId) ev.interfaceId = node.interfaceId;
  return ev;
}

function showCommandId(tx: { actAs: string[] }, fmt: ResolvedEventFormat): boolean {
  const readers = readersOf(fmt);
  return readers === undefined || tx.actAs.some((p) => readers.has(p));
}

/**
 * Header fields of JsTransaction / JsTransactionTree / JsReassignment. Canton's JSON API prints the
 * proto3 strings `commandId` and `workflowId` always, `""` when empty — also the commandId hidden from
 * a reader that did not submit (JsTransaction.commandId: "Missing for everyone except the submitting
 * party").
 */
export function commandAndWorkflow(
  u: { commandId?: string | undefined; workflowId?: string | undefined; actAs: string[] },
  fmt: ResolvedEventFormat | 'submitter',
): { commandId: string; workflowId: string } {
  const show = fmt === 'submitter' || showCommandId(u, fmt);
  return { commandId: show ? (u.commandId ?? '') : '', workflowId: u.workflowId ?? '' };
}
