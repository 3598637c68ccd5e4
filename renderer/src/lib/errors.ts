/** Turning contract errors into something an operator can act on (pure; unit-tested). */
import type { CantonErrorDetails, IpcError, IpcErrorCode } from '../../../src/ipc/errors.js';
import { IpcCallError } from '../../../src/ipc/client.js';

/** Any failure caught in a view becomes an IpcError; only the message of unknown errors is kept. */
export function asIpcError(err: unknown): IpcError {
  if (err instanceof IpcCallError) return err.error;
  if (isIpcError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'INTERNAL', message: message || 'Unexpected error' };
}

function isIpcError(value: unknown): value is IpcError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

const DESCRIPTIONS: Record<IpcErrorCode, { title: string; hint?: string }> = {
  BAD_REQUEST: { title: 'Invalid input', hint: 'Correct the highlighted fields and try again.' },
  UNKNOWN_CHANNEL: {
    title: 'Not supported by this console host',
    hint: 'The renderer and the host are from different builds. Restart the console.',
  },
  NOT_FOUND: { title: 'Not found' },
  CONFLICT: { title: 'Conflict' },
  LEDGER_API_ERROR: { title: 'The Ledger API returned an error' },
  VALIDATOR_ERROR: { title: 'The validator returned an error', hint: 'The Splice validator app (wallet API) refused the request.' },
  UNREACHABLE: {
    title: 'Participant unreachable',
    hint: 'Check that the node is running and that the Ledger API URL of this profile is correct (Connections).',
  },
  KEYCHAIN_UNAVAILABLE: {
    title: 'OS keychain unavailable',
    hint: 'Unlock the keychain (Secret Service, macOS Keychain or Windows Credential Manager) and retry.',
  },
  FORBIDDEN: {
    title: 'Access denied',
    hint: 'The bearer token of this profile is missing, expired or lacks the required rights. Update it in Connections.',
  },
  AUTH_FAILED: {
    title: 'Could not obtain an access token',
    hint: 'Check the token endpoint, client id and client secret of this profile (Connections), then test the connection.',
  },
  INTERNAL: { title: 'Internal error' },
  CANCELLED: { title: 'Cancelled', hint: 'The read was stopped, also at the participant. Run it again when ready.' },
  LIMIT_REACHED: {
    title: 'Too many operations at once',
    hint: 'This window has too many reads or live views open. Close some, or wait for them to finish, and retry.',
  },
};

export function describeError(error: IpcError): { title: string; hint?: string } {
  return DESCRIPTIONS[error.code];
}

/** The scalar fields of a Canton error, in display order, without the context map. */
export function cantonFields(canton: CantonErrorDetails): Array<[label: string, value: string]> {
  const rows: Array<[string, string]> = [
    ['Code', canton.code],
    ['Cause', canton.cause],
  ];
  if (canton.errorCategory !== undefined) rows.push(['Category', String(canton.errorCategory)]);
  if (canton.grpcCodeValue !== undefined) rows.push(['gRPC status', grpcStatus(canton.grpcCodeValue)]);
  if (canton.httpStatus !== undefined) rows.push(['HTTP status', String(canton.httpStatus)]);
  if (canton.correlationId) rows.push(['Correlation id', canton.correlationId]);
  if (canton.traceId && canton.traceId !== canton.correlationId) rows.push(['Trace id', canton.traceId]);
  return rows;
}

/** Context entries sorted by key, for a stable key/value list. */
export function contextEntries(canton: CantonErrorDetails): Array<[key: string, value: string]> {
  return Object.entries(canton.context).sort(([a], [b]) => a.localeCompare(b));
}

const GRPC_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

export function grpcStatus(code: number): string {
  const name = GRPC_NAMES[code];
  return name ? `${code} ${name}` : String(code);
}

/**
 * Splits BAD_REQUEST issues into messages per form field (matched on the first path segment)
 * and the rest, which the form shows in its error panel.
 */
export function fieldIssues<F extends string>(
  error: IpcError | null,
  fields: readonly F[],
): { byField: Partial<Record<F, string>>; rest: NonNullable<IpcError['issues']> } {
  const byField: Partial<Record<F, string>> = {};
  const rest: NonNullable<IpcError['issues']> = [];
  for (const issue of error?.issues ?? []) {
    const head = issue.path.split('.')[0] as F;
    if (fields.includes(head)) {
      byField[head] = byField[head] ? `${byField[head]}; ${issue.message}` : issue.message;
    } else {
      rest.push(issue);
    }
  }
  return { byField, rest };
}
