/**
 * Required claims and their check against the caller's user rights, after Canton's `RequiredClaim`s
 * and user-right → claim mapping: ParticipantAdmin is admin only (it grants no party rights);
 * reading as a party needs CanReadAs/CanActAs of it or CanReadAsAnyParty; acting needs CanActAs;
 * executing needs CanActAs, CanExecuteAs or CanExecuteAsAnyParty. Failures are PERMISSION_DENIED (403).
 */
import { CantonError } from './errors.js';
import type { RightInput } from './schemas.js';

export type Claim =
  /** Any valid token (Canton's `Public` claim). */
  | { kind: 'authenticated' }
  /** ParticipantAdmin. */
  | { kind: 'admin' }
  /**
   * ParticipantAdmin, or IdentityProviderAdmin confined to its own identity provider: `requestIdp` is the
   * provider the request names ('' = implied from the caller), `resourceIdps` those of existing
   * users/parties the request touches.
   */
  | { kind: 'idpAdmin'; requestIdp: string; resourceIdps: string[] }
  | { kind: 'readAs'; party: string }
  | { kind: 'readAsAnyParty' }
  | { kind: 'actAs'; party: string }
  | { kind: 'executeAs'; party: string }
  /** Admin, IdentityProviderAdmin (within its provider) or any right on the party. */
  | { kind: 'operateAsOrIdpAdmin'; party: string; requestIdp: string }
  /** The request's user id, when given, must be the caller's (optionally not for CanReadAsAnyParty holders). */
  | { kind: 'matchUserId'; userId: string | undefined; skipForAnyPartyReaders?: boolean }
  /** The caller itself, or an admin as for `idpAdmin`. */
  | { kind: 'selfOrIdpAdmin'; userId: string; requestIdp: string; resourceIdps: string[] };

/** The authenticated caller with its rights resolved from the user store. */
export interface Caller {
  userId: string;
  /** The identity provider the token was issued by ('' = default). */
  identityProviderId: string;
  rights: RightInput[];
}

export const denied = (reason: string): CantonError =>
  new CantonError('PERMISSION_DENIED', `The provided JWT token is not sufficient to authorize the intended command: ${reason}`);

const has = (c: Caller, kind: string, party?: string): boolean =>
  c.rights.some((r) => {
    const k = r.kind as Record<string, { value: { party?: string } }>;
    const v = k[kind];
    return v !== undefined && (party === undefined || v.value.party === party);
  });

export const isAdmin = (c: Caller): boolean => has(c, 'ParticipantAdmin');
const isIdpAdmin = (c: Caller): boolean => has(c, 'IdentityProviderAdmin');
const canReadAsAny = (c: Caller): boolean => has(c, 'CanReadAsAnyParty');
const canReadAs = (c: Caller, p: string): boolean => canReadAsAny(c) || has(c, 'CanReadAs', p) || has(c, 'CanActAs', p);
const canActAs = (c: Caller, p: string): boolean => has(c, 'CanActAs', p);
const canExecuteAs = (c: Caller, p: string): boolean =>
  has(c, 'CanExecuteAsAnyParty') || has(c, 'CanExecuteAs', p) || has(c, 'CanActAs', p);

function checkIdpAdmin(c: Caller, requestIdp: string, resourceIdps: string[]): void {
  if (isAdmin(c)) return;
  if (!isIdpAdmin(c)) throw denied('the user has neither ParticipantAdmin nor IdentityProviderAdmin rights');
  const own = c.identityProviderId;
  if (requestIdp !== '' && requestIdp !== own)
    throw denied(`identity provider admin of '${own}' cannot act on identity provider '${requestIdp}'`);
  const foreign = resourceIdps.find((id) => id !== own);
  if (foreign !== undefined) throw denied(`identity provider admin of '${own}' cannot act on resources of identity provider '${foreign}'`);
}

/** True when the caller acts only as an IdentityProviderAdmin (so lists are confined to its provider). */
export const confinedToIdp = (c: Caller): boolean => !isAdmin(c) && isIdpAdmin(c);

/** Throws PERMISSION_DENIED unless the caller holds every claim. */
export function checkClaims(c: Caller, claims: Claim[]): void {
  for (const claim of claims) {
    switch (claim.kind) {
      case 'authenticated':
        break;
      case 'admin':
        if (!isAdmin(c)) throw denied('the user does not have the ParticipantAdmin right');
        break;
      case 'idpAdmin':
        checkIdpAdmin(c, claim.requestIdp, claim.resourceIdps);
        break;
      case 'readAs':
        if (!canReadAs(c, claim.party)) throw denied(`the user cannot read as party ${claim.party}`);
        break;
      case 'readAsAnyParty':
        if (!canReadAsAny(c)) throw denied('the user does not have the CanReadAsAnyParty right');
        break;
      case 'actAs':
        if (!canActAs(c, claim.party)) throw denied(`the user cannot act as party ${claim.party}`);
        break;
      case 'executeAs':
        if (!canExecuteAs(c, claim.party)) throw denied(`the user cannot execute as party ${claim.party}`);
        break;
      case 'operateAsOrIdpAdmin':
        if (canReadAs(c, claim.party) || canExecuteAs(c, claim.party)) break;
        checkIdpAdmin(c, claim.requestIdp, []);
        break;
      case 'matchUserId':
        if (claim.userId === undefined || claim.userId === '' || claim.userId === c.userId) break;
        if (claim.skipForAnyPartyReaders && canReadAsAny(c)) break;
        throw denied(`the request's user id '${claim.userId}' is not the authenticated user '${c.userId}'`);
      case 'selfOrIdpAdmin':
        if (claim.userId === c.userId) break;
        checkIdpAdmin(c, claim.requestIdp, claim.resourceIdps);
        break;
    }
  }
}
