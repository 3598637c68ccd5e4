/**
 * The authorization matrix's cases: for every route the simulator registers, the user holding the right it needs,
 * one lacking it, the request built from the setup data, and the right user's expected status.
 */
import { createIou } from './helpers.js';

export type Who = 'admin' | 'nobody' | 'actor' | 'reader';

export interface Data {
  alice: string;
  contractId: string;
  updateId: string;
  offset: number;
  sync: [string, string];
  prepared: string[];
}

export interface Case {
  /** Request path (default: the pattern); may use the setup data. */
  path?: (d: Data) => string;
  body?: (d: Data) => unknown;
  /** A user holding the right the operation needs. */
  right: Who;
  /** A user lacking it; omitted when any authenticated user may call the operation. */
  wrong?: Who;
  /** The right user's expected status (default 200). */
  status?: number;
  /** Served without a token (Canton's health and version endpoints). */
  public?: true;
}

let cmd = 0;
const commands = (d: Data, extra: Record<string, unknown> = {}) => ({
  commandId: `matrix-${++cmd}`,
  actAs: [d.alice],
  commands: [createIou(d.alice, d.alice, '1')],
  ...extra,
});
/** An unassignment of a contract that does not exist (the case answers 404 once authorised). */
const unassignUnknown = (d: Data) => ({
  reassignmentCommands: {
    commandId: `matrix-r-${++cmd}`,
    submitter: d.alice,
    commands: [{ command: { UnassignCommand: { value: { contractId: '00deadbeef', source: d.sync[0], target: d.sync[1] } } } }],
  },
});
const byParty = (d: Data) => ({ filtersByParty: { [d.alice]: {} } });
const updateFormat = (d: Data) => ({ includeTransactions: { eventFormat: byParty(d), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } });
const execute = (i: number) => (d: Data) => ({
  preparedTransaction: d.prepared[i],
  partySignatures: { signatures: [] },
  submissionId: `exec-${i}`,
  hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
});
const enc = encodeURIComponent;

export const CASES: Record<string, Case> = {
  'GET /v2/version': { right: 'nobody', public: true },
  'GET /livez': { right: 'nobody', public: true },
  'GET /readyz': { right: 'nobody', public: true },

  'GET /v2/state/ledger-end': { right: 'nobody' },
  'GET /v2/state/latest-pruned-offsets': { right: 'nobody' },
  'GET /v2/state/connected-synchronizers': {
    path: (d) => `/v2/state/connected-synchronizers?party=${enc(d.alice)}`,
    right: 'reader',
    wrong: 'nobody',
  },
  'GET /v2/parties/participant-id': { right: 'admin', wrong: 'actor' },

  'POST /v2/commands/submit-and-wait': { body: (d) => commands(d), right: 'actor', wrong: 'reader' },
  'POST /v2/commands/submit-and-wait-for-transaction': {
    body: (d) => ({
      commands: commands(d),
      transactionFormat: { eventFormat: byParty(d), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
    }),
    right: 'actor',
    wrong: 'reader',
  },
  'POST /v2/commands/submit-and-wait-for-transaction-tree': { body: (d) => commands(d), right: 'actor', wrong: 'reader' },
  'POST /v2/commands/async/submit': { body: (d) => commands(d), right: 'actor', wrong: 'reader' },
  'POST /v2/commands/submit-and-wait-for-reassignment': {
    body: unassignUnknown,
    right: 'actor',
    wrong: 'reader',
    status: 404,
  },
  'POST /v2/commands/async/submit-reassignment': {
    body: unassignUnknown,
    right: 'actor',
    wrong: 'reader',
    status: 404,
  },
  'POST /v2/commands/completions': {
    path: () => '/v2/commands/completions?limit=5',
    body: (d) => ({ parties: [d.alice], beginExclusive: 0 }),
    right: 'reader',
    wrong: 'nobody',
  },
  'POST /v2/commands/command-completions': {
    path: () => '/v2/commands/command-completions?limit=5',
    body: (d) => ({ parties: [d.alice], beginExclusive: 0 }),
    right: 'reader',
    wrong: 'nobody',
  },

  'POST /v2/updates': {
    body: (d) => ({ beginExclusive: 0, endInclusive: d.offset, updateFormat: updateFormat(d) }),
    right: 'reader',
    wrong: 'nobody',
  },
  'POST /v2/updates/flats': {
    body: (d) => ({ beginExclusive: 0, endInclusive: d.offset, filter: byParty(d) }),
    right: 'reader',
    wrong: 'nobody',
  },
  'POST /v2/updates/trees': {
    body: (d) => ({ beginExclusive: 0, endInclusive: d.offset, filter: byParty(d) }),
    right: 'reader',
    wrong: 'nobody',
  },
  'POST /v2/updates/update-by-offset': {
    body: (d) => ({ offset: d.offset, updateFormat: updateFormat(d) }),
    right: 'reader',
    wrong: 'nobody',
  },
  'POST /v2/updates/update-by-id': {
    body: (d) => ({ updateId: d.updateId, updateFormat: updateFormat(d) }),
    right: 'reader',
    wrong: 'nobody',
  },
  'POST /v2/updates/get-updates-page': { body: (d) => ({ updateFormat: updateFormat(d) }), right: 'reader', wrong: 'nobody' },
  'POST /v2/updates/transaction-by-offset': {
    body: (d) => ({ offset: d.offset, requestingParties: [d.alice] }),
    right: 'reader',
    wrong: 'nobody',
  },
  'POST /v2/updates/transaction-by-id': {
    body: (d) => ({ updateId: d.updateId, requestingParties: [d.alice] }),
    right: 'reader',
    wrong: 'nobody',
  },
  'GET /v2/updates/transaction-tree-by-offset/{offset}': {
    path: (d) => `/v2/updates/transaction-tree-by-offset/${d.offset}?parties=${enc(d.alice)}`,
    right: 'reader',
    wrong: 'nobody',
  },
  'GET /v2/updates/transaction-tree-by-id/{update-id}': {
    path: (d) => `/v2/updates/transaction-tree-by-id/${enc(d.updateId)}?parties=${enc(d.alice)}`,
    right: 'reader',
    wrong: 'nobody',
  },

  'POST /v2/state/active-contracts': {
    body: (d) => ({ activeAtOffset: d.offset, eventFormat: byParty(d) }),
    right: 'reader',
    wrong: 'nobody',
  },
  'POST /v2/state/active-contracts-page': {
    body: (d) => ({ activeAtOffset: d.offset, eventFormat: byParty(d) }),
    right: 'reader',
    wrong: 'nobody',
  },
  'GET /v2/state/active-contracts-page': {
    body: (d) => ({ activeAtOffset: d.offset, eventFormat: byParty(d) }),
    right: 'reader',
    wrong: 'nobody',
  },
  'POST /v2/events/events-by-contract-id': {
    body: (d) => ({ contractId: d.contractId, eventFormat: byParty(d) }),
    right: 'reader',
    wrong: 'nobody',
  },
  'POST /v2/contracts/contract-by-id': {
    body: (d) => ({ contractId: d.contractId, queryingParties: [d.alice] }),
    right: 'reader',
    wrong: 'nobody',
  },

  'POST /v2/parties': { body: () => ({ partyIdHint: 'MatrixParty' }), right: 'admin', wrong: 'actor' },
  'GET /v2/parties': { right: 'admin', wrong: 'actor' },
  'GET /v2/parties/{party}': { path: (d) => `/v2/parties/${enc(d.alice)}`, right: 'admin', wrong: 'actor' },
  'PATCH /v2/parties/{party}': {
    path: (d) => `/v2/parties/${enc(d.alice)}`,
    body: (d) => ({
      partyDetails: { party: d.alice, localMetadata: { annotations: { matrix: 'yes' } } },
      updateMask: { paths: ['local_metadata.annotations'] },
    }),
    right: 'admin',
    wrong: 'actor',
  },
  'POST /v2/parties/external/generate-topology': { body: () => ({}), right: 'nobody', status: 400 },
  'POST /v2/parties/external/allocate': { body: () => ({}), right: 'admin', wrong: 'actor', status: 400 },

  'POST /v2/interactive-submission/prepare': {
    body: (d) => ({ commandId: `matrix-p-${++cmd}`, actAs: [d.alice], commands: [createIou(d.alice, d.alice, '1')] }),
    right: 'reader',
    wrong: 'nobody',
  },
  'POST /v2/interactive-submission/execute': { body: execute(0), right: 'actor', wrong: 'reader' },
  'POST /v2/interactive-submission/executeAndWait': { body: execute(1), right: 'actor', wrong: 'reader' },
  'POST /v2/interactive-submission/executeAndWaitForTransaction': { body: execute(2), right: 'actor', wrong: 'reader' },
  'POST /v2/interactive-submission/preferred-packages': {
    body: (d) => ({ packageVettingRequirements: [{ parties: [d.alice], packageName: 'simulator-demo' }] }),
    right: 'nobody',
  },
  'GET /v2/interactive-submission/preferred-package-version': {
    path: (d) => `/v2/interactive-submission/preferred-package-version?package-name=simulator-demo&parties=${enc(d.alice)}`,
    right: 'nobody',
  },

  'GET /v2/authenticated-user': { right: 'nobody' },
  'GET /v2/users': { right: 'admin', wrong: 'actor' },
  'POST /v2/users': { body: () => ({ user: { id: 'matrix-new' } }), right: 'admin', wrong: 'actor' },
  'GET /v2/users/{user-id}': { path: () => '/v2/users/target', right: 'admin', wrong: 'actor' },
  'DELETE /v2/users/{user-id}': { path: () => '/v2/users/doomed', right: 'admin', wrong: 'actor' },
  'PATCH /v2/users/{user-id}': {
    path: () => '/v2/users/target',
    body: () => ({ user: { id: 'target', metadata: { annotations: { k: 'v' } } }, updateMask: { paths: ['metadata.annotations'] } }),
    right: 'admin',
    wrong: 'actor',
  },
  'GET /v2/users/{user-id}/rights': { path: () => '/v2/users/target/rights', right: 'admin', wrong: 'actor' },
  'POST /v2/users/{user-id}/rights': {
    path: () => '/v2/users/target/rights',
    body: (d) => ({ userId: 'target', rights: [{ kind: { CanReadAs: { value: { party: d.alice } } } }] }),
    right: 'admin',
    wrong: 'actor',
  },
  'PATCH /v2/users/{user-id}/rights': {
    path: () => '/v2/users/target/rights',
    body: (d) => ({ userId: 'target', rights: [{ kind: { CanReadAs: { value: { party: d.alice } } } }] }),
    right: 'admin',
    wrong: 'actor',
  },
  'PATCH /v2/users/{user-id}/identity-provider-id': {
    path: () => '/v2/users/target/identity-provider-id',
    body: () => ({ userId: 'target', sourceIdentityProviderId: '', targetIdentityProviderId: '' }),
    right: 'admin',
    wrong: 'actor',
  },

  'GET /v2/packages': { right: 'nobody' },
  'GET /v2/packages/{package-id}': { path: () => '/v2/packages/0000', right: 'nobody', status: 404 },
  'GET /v2/packages/{package-id}/status': { path: () => '/v2/packages/0000/status', right: 'nobody' },
  'POST /v2/packages': { body: () => 'not a DAR', right: 'admin', wrong: 'actor', status: 400 },
  'POST /v2/dars': { body: () => 'not a DAR', right: 'admin', wrong: 'actor', status: 400 },
  'POST /v2/dars/validate': { body: () => 'not a DAR', right: 'admin', wrong: 'actor', status: 400 },
  'GET /v2/package-vetting': { right: 'nobody' },
  'POST /v2/package-vetting/list': { body: () => ({}), right: 'nobody' },
  'POST /v2/package-vetting/update': { body: () => ({}), right: 'admin', wrong: 'actor', status: 400 },
  'POST /v2/package-vetting': { body: () => ({}), right: 'admin', wrong: 'actor', status: 400 },

  'POST /v2/idps': {
    body: () => ({
      identityProviderConfig: { identityProviderId: 'idp-new', issuer: 'https://new.example.com', jwksUrl: 'https://new.example.com/jwks' },
    }),
    right: 'admin',
    wrong: 'actor',
  },
  'GET /v2/idps': { right: 'admin', wrong: 'actor' },
  'GET /v2/idps/{idp-id}': { path: () => '/v2/idps/idp-keep', right: 'admin', wrong: 'actor' },
  'PATCH /v2/idps/{idp-id}': {
    path: () => '/v2/idps/idp-keep',
    body: () => ({
      identityProviderConfig: {
        identityProviderId: 'idp-keep',
        issuer: 'https://keep.example.com',
        jwksUrl: 'https://keep.example.com/j',
        audience: 'a',
      },
      updateMask: { paths: ['audience'] },
    }),
    right: 'admin',
    wrong: 'actor',
  },
  'DELETE /v2/idps/{idp-id}': { path: () => '/v2/idps/idp-doomed', right: 'admin', wrong: 'actor' },

  'GET /simulator/admin/streams': { right: 'admin', wrong: 'actor' },
  'GET /simulator/admin/time': { right: 'admin', wrong: 'actor' },
  'POST /simulator/admin/time/advance': { body: () => ({ seconds: 1 }), right: 'admin', wrong: 'actor', status: 400 },
  'POST /simulator/admin/prune': { body: () => ({}), right: 'admin', wrong: 'actor', status: 400 },
  'GET /simulator/admin/packages': { right: 'admin', wrong: 'actor' },
  'GET /simulator/admin/fault-injection': { right: 'admin', wrong: 'actor' },
  'POST /simulator/admin/fault-injection': { body: () => ({ prepare: 'off' }), right: 'admin', wrong: 'actor' },
};
