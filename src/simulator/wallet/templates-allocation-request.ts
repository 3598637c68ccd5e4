/**
 * An app's request for allocations (token standard `AllocationRequest` V1): the app party (the settlement's executor)
 * creates it through the Ledger API; the senders and receivers of its transfer legs are observers, so their wallets list
 * it (`routes-allocation-requests.ts`). It implements the interface with the view `{ settlement, transferLegs, meta }`;
 * the interface choices (`AllocationRequest_Reject` by a leg's party, `AllocationRequest_Withdraw` by the executor)
 * archive it.
 *
 * Simplification: the observers are an explicit `legParties` field (the precondition checks that it holds every
 * leg's sender and receiver) instead of being computed from the legs.
 */
import type { LfRecord, TemplateDef } from '../packages/types.js';
import { allocationRequestLegParties } from '../packages/token-standard.js';
import { metadata, settlementInfo, TOKEN_STANDARD, transferLeg } from '../packages/token-standard-types.js';
import { parties, party } from './coin.js';
import { asText } from '../lf-text.js';

export const ALLOCATION_REQUEST_QN = 'Splice.Wallet.AppAllocationRequest:AppAllocationRequest';

/** The precondition: the executor is the settlement's, there is a leg, and every leg's parties observe the request. */
function ensureRequest(a: LfRecord): string | undefined {
  const settlement = a.settlement as LfRecord;
  if (settlement.executor !== a.executor) return 'executor must be the settlement executor';
  const legs = allocationRequestLegParties(a);
  if (legs.length === 0) return 'the request needs at least one transfer leg';
  const observers = Array.isArray(a.legParties) ? a.legParties : [];
  const missing = legs.find((p) => !observers.includes(p));
  return missing === undefined ? undefined : `legParties must include every transfer leg's sender and receiver (missing ${missing})`;
}

const AppAllocationRequest: TemplateDef = {
  module: 'Splice.Wallet.AppAllocationRequest',
  entity: 'AppAllocationRequest',
  fields: [
    { name: 'executor', type: party },
    { name: 'legParties', type: parties },
    { name: 'settlement', type: settlementInfo },
    { name: 'transferLegs', type: { kind: 'TextMap', elem: transferLeg } },
    { name: 'meta', type: metadata },
  ],
  signatories: ['executor'],
  observers: ['legParties'],
  ensure: ensureRequest,
  ensureDescription: 'executor == settlement.executor; at least one transfer leg; every leg sender and receiver in legParties',
  implements: [
    {
      interface: TOKEN_STANDARD.allocationRequest,
      view: (a) => ({ settlement: a.settlement ?? null, transferLegs: a.transferLegs ?? null, meta: a.meta ?? null }),
      choices: {
        AllocationRequest_Reject: (ctx) => {
          if (!allocationRequestLegParties(ctx.contract).includes(asText(ctx.arg.actor)))
            ctx.fail(`${asText(ctx.arg.actor)} is not a sender or receiver of the request's transfer legs`);
          return { meta: { values: {} } };
        },
        AllocationRequest_Withdraw: () => ({ meta: { values: {} } }),
      },
    },
  ],
  choices: [],
};

export const allocationRequestTemplates: TemplateDef[] = [AppAllocationRequest];
