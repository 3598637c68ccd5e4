/**
 * Canton's ObjectMeta update semantics, shared by user and party updates: annotations are merged (a key
 * with a non-empty value is set, a key with an empty value is deleted, keys not named are kept), and a
 * given `resourceVersion` must be the current one, otherwise the update is a concurrent-update conflict
 * (CONCURRENT_USER_UPDATE_DETECTED / CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED, ABORTED → 409).
 */
import { CantonError, ErrorCategory, Grpc } from '../errors.js';

type ErrorKind = CantonError['kind'];

const CONCURRENT_USER_UPDATE: ErrorKind = {
  code: 'CONCURRENT_USER_UPDATE_DETECTED',
  category: ErrorCategory.ContentionOnSharedResources,
  grpc: Grpc.ABORTED,
};
const CONCURRENT_PARTY_UPDATE: ErrorKind = {
  code: 'CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED',
  category: ErrorCategory.ContentionOnSharedResources,
  grpc: Grpc.ABORTED,
};

/** A CantonError with a code outside the shared table (answered as a JsCantonError by the server). */
class ConcurrentUpdateError extends CantonError {
  declare readonly kind: ErrorKind;
  constructor(kind: ErrorKind, cause: string, resources: [string, string][]) {
    super('INVALID_ARGUMENT', cause, { resources });
    Object.defineProperty(this, 'kind', { value: kind, enumerable: true });
  }
}

// Canton's cause, followed by the versions involved (what a client needs to see why it lost the race)
const versions = (given: string, current: string): string => ` (stale resourceVersion ${given}, current ${current})`;

export const concurrentUserUpdate = (userId: string, given: string, current: string): CantonError =>
  new ConcurrentUpdateError(
    CONCURRENT_USER_UPDATE,
    `Update operation for user '${userId}' failed due to a concurrent update to the same user${versions(given, current)}`,
    [['USER', userId]],
  );

export const concurrentPartyUpdate = (party: string, given: string, current: string): CantonError =>
  new ConcurrentUpdateError(
    CONCURRENT_PARTY_UPDATE,
    `Update operation for party '${party}' failed due to a concurrent update to the same party${versions(given, current)}`,
    [['PARTY', party]],
  );

/** Throws `conflict(given, current)` when the request names a resource version that is not the current one. */
export function checkResourceVersion(
  given: string | undefined,
  current: string,
  conflict: (given: string, current: string) => CantonError,
): void {
  if (given !== undefined && given !== '' && given !== current) throw conflict(given, current);
}

/** Merges requested annotations into the current ones; an empty value deletes the key. */
export function mergeAnnotations(current: Record<string, string>, given: Record<string, string> | undefined): Record<string, string> {
  const next = new Map(Object.entries(current));
  for (const [k, v] of Object.entries(given ?? {})) {
    if (v === '') next.delete(k);
    else next.set(k, v);
  }
  return Object.fromEntries(next);
}

export const nextResourceVersion = (current: string): string => String(Number(current) + 1);
