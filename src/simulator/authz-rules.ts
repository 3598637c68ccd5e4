/**
 * THE authorization table: for every route (`METHOD /pattern`, exactly as registered on the router)
 * what the caller needs in the JWT auth modes, after Canton's `*ServiceAuthorization` classes:
 * admin services need ParticipantAdmin; user, party and IDP-scoped management accept an
 * IdentityProviderAdmin within its own identity provider; reads need read rights on the parties of
 * their filters (CanReadAsAnyParty for `filtersForAnyParty`); submissions need CanActAs for every
 * `actAs` party and read rights for `readAs`; interactive prepare needs read rights on `actAs` and
 * `readAs`; execute needs execute rights on the prepared transaction's submitters; a user may always
 * read its own record and rights. Request bodies are read leniently: a field that does not have the
 * expected shape adds no claim, and the handler then rejects the request with its own specific error.
 */
import { z } from 'zod';
import type { Claim } from './authz-claims.js';
import type { SimContext } from './context.js';
import { loadProto } from './proto.js';
import { loadUser } from './routes/users.js';

/** What a rule may look at: path parameters, the query and the (lazily parsed) JSON body. */
export interface AuthzRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The body parsed as JSON; undefined when absent or not JSON. */
  json(): Promise<unknown>;
}

export type Rule =
  /** Served without any token (health and version, as Canton does). */
  | { kind: 'public' }
  /** The wallet API authenticates by itself (`walletUser`) and answers in its own error format. */
  | { kind: 'delegated' }
  | { kind: 'claims'; claims: (req: AuthzRequest, sim: SimContext) => Promise<Claim[]> | Claim[] };

const PUBLIC: Rule = { kind: 'public' };
const claims = (f: (req: AuthzRequest, sim: SimContext) => Promise<Claim[]> | Claim[]): Rule => ({ kind: 'claims', claims: f });
const AUTHENTICATED = claims(() => [{ kind: 'authenticated' }]);
const ADMIN = claims(() => [{ kind: 'admin' }]);

// ---------------------------------------------------------------------------------------------
// Lenient readers of request fields

const str = z.string();
const strings = z.array(z.string());
const record = z.record(z.string(), z.unknown());

function get(value: unknown, ...path: string[]): unknown {
  let v = value;
  for (const k of path) {
    const r = record.safeParse(v);
    if (!r.success) return undefined;
    v = r.data[k];
  }
  return v;
}
const getString = (value: unknown, ...path: string[]): string | undefined => {
  const r = str.safeParse(get(value, ...path));
  return r.success ? r.data : undefined;
};
const getStrings = (value: unknown, ...path: string[]): string[] => {
  const r = strings.safeParse(get(value, ...path));
  return r.success ? r.data : [];
};
const queryList = (q: URLSearchParams, name: string): string[] =>
  q
    .getAll(name)
    .flatMap((p) => p.split(','))
    .filter((p) => p.length > 0);

const readAsAll = (parties: Iterable<string>): Claim[] => [...new Set(parties)].map((party) => ({ kind: 'readAs', party }));
const readAsAllOrAny = (parties: string[]): Claim[] => (parties.length === 0 ? [{ kind: 'readAsAnyParty' }] : readAsAll(parties));

/** EventFormat / legacy TransactionFilter: read rights on `filtersByParty` keys, any-party reading for `filtersForAnyParty`. */
function eventFormatClaims(format: unknown): Claim[] {
  const out: Claim[] = [];
  const byParty = record.safeParse(get(format, 'filtersByParty'));
  if (byParty.success) out.push(...readAsAll(Object.keys(byParty.data)));
  if (get(format, 'filtersForAnyParty') !== undefined) out.push({ kind: 'readAsAnyParty' });
  return out;
}
const transactionFormatClaims = (format: unknown): Claim[] => eventFormatClaims(get(format, 'eventFormat'));
function updateFormatClaims(format: unknown): Claim[] {
  const out = [...transactionFormatClaims(get(format, 'includeTransactions')), ...eventFormatClaims(get(format, 'includeReassignments'))];
  const topology = get(format, 'includeTopologyEvents', 'includeParticipantAuthorizationEvents');
  if (topology !== undefined) out.push(...readAsAllOrAny(getStrings(topology, 'parties')));
  return out;
}

/** Canton's submission claims: the user id matches, CanActAs for each actAs, read rights for each readAs. */
const submissionClaims = (cmds: unknown): Claim[] => [
  { kind: 'matchUserId', userId: getString(cmds, 'userId') },
  ...[...new Set(getStrings(cmds, 'actAs'))].map((party): Claim => ({ kind: 'actAs', party })),
  ...readAsAll(getStrings(cmds, 'readAs')),
];
function reassignmentClaims(cmds: unknown): Claim[] {
  const submitter = getString(cmds, 'submitter');
  return [
    { kind: 'matchUserId', userId: getString(cmds, 'userId') },
    ...(submitter !== undefined ? [{ kind: 'actAs', party: submitter } as const] : []),
  ];
}
/** Execute: execute rights on the submitters recorded in the prepared transaction (undecodable → the handler rejects it). */
async function executeClaims(body: unknown): Promise<Claim[]> {
  const prepared = getString(body, 'preparedTransaction');
  let actAs: string[] = [];
  if (prepared !== undefined) {
    const { PreparedTransaction } = await loadProto();
    try {
      actAs = PreparedTransaction.fromBinary(Buffer.from(prepared, 'base64')).metadata?.submitterInfo?.actAs ?? [];
    } catch {
      actAs = [];
    }
  }
  return [
    { kind: 'matchUserId', userId: getString(body, 'userId') },
    ...[...new Set(actAs)].map((party): Claim => ({ kind: 'executeAs', party })),
  ];
}

const userIdp = (sim: SimContext, id: string | undefined): string[] => {
  const u = id === undefined ? undefined : loadUser(sim, id);
  return u ? [u.user.identityProviderId ?? ''] : [];
};
const partyIdp = (sim: SimContext, party: string | undefined): string[] => {
  const p = party === undefined ? undefined : sim.store.party(party);
  return p ? [p.idp] : [];
};
const queryIdp = (req: AuthzRequest): string => req.query.get('identity-provider-id') ?? '';
/** Rights only a participant admin may grant or revoke (Canton's `UserManagementServiceAuthorization.needsParticipantAdmin`). */
const ADMIN_ONLY_RIGHTS = ['ParticipantAdmin', 'CanReadAsAnyParty', 'CanExecuteAsAnyParty', 'CanActAsAnyParty'];
const needsParticipantAdmin = (rights: unknown): boolean =>
  Array.isArray(rights) && rights.some((r) => ADMIN_ONLY_RIGHTS.some((k) => get(r, 'kind', k) !== undefined));

/** Reading a body-based rule: the JSON body, then the claims derived from it. */
const fromBody = (f: (body: unknown, req: AuthzRequest, sim: SimContext) => Promise<Claim[]> | Claim[]): Rule =>
  claims(async (req, sim) => [{ kind: 'authenticated' }, ...(await f(await req.json(), req, sim))]);

const updatesStream = fromBody((b) => [...updateFormatClaims(get(b, 'updateFormat')), ...eventFormatClaims(get(b, 'filter'))]);
const activeContracts = fromBody((b) => [...eventFormatClaims(get(b, 'eventFormat')), ...eventFormatClaims(get(b, 'filter'))]);
const byUpdateFormat = fromBody((b) => updateFormatClaims(get(b, 'updateFormat')));
const legacyTransaction = fromBody((b) => [
  ...readAsAll(getStrings(b, 'requestingParties')),
  ...transactionFormatClaims(get(b, 'transactionFormat')),
]);
const legacyTree = claims((req) => [{ kind: 'authenticated' }, ...readAsAll(queryList(req.query, 'parties'))]);
const execute = fromBody((b) => executeClaims(b));
const userSelfOrAdmin = claims((req, sim) => [
  {
    kind: 'selfOrIdpAdmin',
    userId: req.params['user-id'] ?? '',
    requestIdp: queryIdp(req),
    resourceIdps: userIdp(sim, req.params['user-id']),
  },
]);
const rightsChange = fromBody((b, req, sim) => [
  { kind: 'idpAdmin', requestIdp: getString(b, 'identityProviderId') ?? '', resourceIdps: userIdp(sim, req.params['user-id']) },
  ...(needsParticipantAdmin(get(b, 'rights')) ? [{ kind: 'admin' } as const] : []),
]);

/** Routes under this prefix are the wallet/validator API (see `delegated`). */
export const WALLET_PREFIX = '/api/validator/';

export const AUTHZ_RULES: Readonly<Record<string, Rule>> = {
  // --- system: Canton binds its version and health services without an authorization wrapper ---
  'GET /v2/version': PUBLIC,
  'GET /livez': PUBLIC,
  'GET /readyz': PUBLIC,

  // --- state ---
  'GET /v2/state/ledger-end': AUTHENTICATED,
  'GET /v2/state/latest-pruned-offsets': AUTHENTICATED,
  'GET /v2/state/connected-synchronizers': claims((req) => {
    const party = req.query.get('party');
    return party
      ? [{ kind: 'operateAsOrIdpAdmin', party, requestIdp: req.query.get('identityProviderId') ?? '' }]
      : [{ kind: 'authenticated' }];
  }),
  'GET /v2/parties/participant-id': ADMIN,

  // --- command submission and completions ---
  'POST /v2/commands/submit-and-wait': fromBody((b) => submissionClaims(b)),
  'POST /v2/commands/submit-and-wait-for-transaction': fromBody((b) => [
    ...submissionClaims(get(b, 'commands')),
    ...transactionFormatClaims(get(b, 'transactionFormat')),
  ]),
  'POST /v2/commands/submit-and-wait-for-transaction-tree': fromBody((b) => submissionClaims(b)),
  'POST /v2/commands/async/submit': fromBody((b) => submissionClaims(b)),
  'POST /v2/commands/submit-and-wait-for-reassignment': fromBody((b) => [
    ...reassignmentClaims(get(b, 'reassignmentCommands')),
    ...eventFormatClaims(get(b, 'eventFormat')),
  ]),
  'POST /v2/commands/async/submit-reassignment': fromBody((b) => reassignmentClaims(get(b, 'reassignmentCommands'))),
  'POST /v2/commands/completions': fromBody((b) => [
    { kind: 'matchUserId', userId: getString(b, 'userId'), skipForAnyPartyReaders: true },
    ...readAsAll(getStrings(b, 'parties')),
  ]),
  'POST /v2/commands/command-completions': fromBody((b) => readAsAllOrAny(getStrings(b, 'parties'))),

  // --- updates ---
  'POST /v2/updates': updatesStream,
  'POST /v2/updates/flats': updatesStream,
  'POST /v2/updates/trees': updatesStream,
  'POST /v2/updates/update-by-offset': byUpdateFormat,
  'POST /v2/updates/update-by-id': byUpdateFormat,
  'POST /v2/updates/get-updates-page': byUpdateFormat,
  'POST /v2/updates/transaction-by-offset': legacyTransaction,
  'POST /v2/updates/transaction-by-id': legacyTransaction,
  'GET /v2/updates/transaction-tree-by-offset/{offset}': legacyTree,
  'GET /v2/updates/transaction-tree-by-id/{update-id}': legacyTree,

  // --- active contracts, events, contracts ---
  'POST /v2/state/active-contracts': activeContracts,
  'POST /v2/state/active-contracts-page': activeContracts,
  'GET /v2/state/active-contracts-page': activeContracts,
  'POST /v2/events/events-by-contract-id': fromBody((b) => eventFormatClaims(get(b, 'eventFormat'))),
  'POST /v2/contracts/contract-by-id': fromBody((b) => readAsAllOrAny(getStrings(b, 'queryingParties'))),

  // --- party management ---
  'POST /v2/parties': fromBody((b) => [{ kind: 'idpAdmin', requestIdp: getString(b, 'identityProviderId') ?? '', resourceIdps: [] }]),
  'GET /v2/parties': claims((req) => [{ kind: 'idpAdmin', requestIdp: queryIdp(req), resourceIdps: [] }]),
  'GET /v2/parties/{party}': claims((req, sim) => [
    { kind: 'idpAdmin', requestIdp: queryIdp(req), resourceIdps: partyIdp(sim, req.params.party) },
  ]),
  'PATCH /v2/parties/{party}': fromBody((b, req, sim) => [
    {
      kind: 'idpAdmin',
      requestIdp: getString(b, 'partyDetails', 'identityProviderId') ?? '',
      resourceIdps: partyIdp(sim, req.params.party),
    },
  ]),
  'POST /v2/parties/external/generate-topology': AUTHENTICATED,
  'POST /v2/parties/external/allocate': fromBody((b) => [
    { kind: 'idpAdmin', requestIdp: getString(b, 'identityProviderId') ?? '', resourceIdps: [] },
  ]),

  // --- interactive submission ---
  'POST /v2/interactive-submission/prepare': fromBody((b) => [
    { kind: 'matchUserId', userId: getString(b, 'userId') },
    // at preparation the submitters only read (Canton)
    ...readAsAll([...getStrings(b, 'actAs'), ...getStrings(b, 'readAs')]),
  ]),
  'POST /v2/interactive-submission/execute': execute,
  'POST /v2/interactive-submission/executeAndWait': execute,
  'POST /v2/interactive-submission/executeAndWaitForTransaction': fromBody(async (b) => [
    ...(await executeClaims(b)),
    ...transactionFormatClaims(get(b, 'transactionFormat')),
  ]),
  'POST /v2/interactive-submission/preferred-packages': AUTHENTICATED,
  'GET /v2/interactive-submission/preferred-package-version': AUTHENTICATED,

  // --- user management ---
  'GET /v2/authenticated-user': AUTHENTICATED,
  'GET /v2/users': claims((req) => [{ kind: 'idpAdmin', requestIdp: queryIdp(req), resourceIdps: [] }]),
  'POST /v2/users': fromBody((b) => [
    { kind: 'idpAdmin', requestIdp: getString(b, 'user', 'identityProviderId') ?? '', resourceIdps: [] },
    // only a participant admin may grant ParticipantAdmin and the any-party rights
    ...(needsParticipantAdmin(get(b, 'rights')) ? [{ kind: 'admin' } as const] : []),
  ]),
  'GET /v2/users/{user-id}': userSelfOrAdmin,
  'DELETE /v2/users/{user-id}': claims((req, sim) => [
    { kind: 'idpAdmin', requestIdp: queryIdp(req), resourceIdps: userIdp(sim, req.params['user-id']) },
  ]),
  'PATCH /v2/users/{user-id}': fromBody((b, req, sim) => [
    { kind: 'idpAdmin', requestIdp: getString(b, 'user', 'identityProviderId') ?? '', resourceIdps: userIdp(sim, req.params['user-id']) },
  ]),
  'GET /v2/users/{user-id}/rights': userSelfOrAdmin,
  'POST /v2/users/{user-id}/rights': rightsChange,
  'PATCH /v2/users/{user-id}/rights': rightsChange,
  'PATCH /v2/users/{user-id}/identity-provider-id': ADMIN,

  // --- packages, DARs, vetting ---
  'GET /v2/packages': AUTHENTICATED,
  'GET /v2/packages/{package-id}': AUTHENTICATED,
  'GET /v2/packages/{package-id}/status': AUTHENTICATED,
  'POST /v2/packages': ADMIN,
  'POST /v2/dars': ADMIN,
  'POST /v2/dars/validate': ADMIN,
  'GET /v2/package-vetting': AUTHENTICATED,
  'POST /v2/package-vetting/list': AUTHENTICATED,
  'POST /v2/package-vetting/update': ADMIN,
  'POST /v2/package-vetting': ADMIN,

  // --- identity provider configs ---
  'POST /v2/idps': ADMIN,
  'GET /v2/idps': ADMIN,
  'GET /v2/idps/{idp-id}': ADMIN,
  'PATCH /v2/idps/{idp-id}': ADMIN,
  'DELETE /v2/idps/{idp-id}': ADMIN,

  // --- simulator-only administration ---
  'GET /simulator/admin/streams': ADMIN,
  'GET /simulator/admin/time': ADMIN,
  'POST /simulator/admin/time/advance': ADMIN,
  'POST /simulator/admin/prune': ADMIN,
  'GET /simulator/admin/packages': ADMIN,
  'GET /simulator/admin/fault-injection': ADMIN,
  'POST /simulator/admin/fault-injection': ADMIN,
};

/** The rule of a route, or undefined when it has none (the server then refuses it: fail closed). */
export function ruleFor(method: string, pattern: string): Rule | undefined {
  const exact = AUTHZ_RULES[`${method} ${pattern}`];
  if (exact) return exact;
  if (pattern.startsWith(WALLET_PREFIX)) return { kind: 'delegated' };
  return undefined;
}
