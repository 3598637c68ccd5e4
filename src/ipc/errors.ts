import { z } from 'zod';

/** Structured details of a Canton JsCantonError, kept so the UI can show code, cause and context. */
export const CantonErrorDetailsSchema = z.object({
  code: z.string(),
  cause: z.string(),
  context: z.record(z.string(), z.string()).default({}),
  errorCategory: z.number().int().optional(),
  grpcCodeValue: z.number().int().optional(),
  correlationId: z.string().optional(),
  traceId: z.string().optional(),
  httpStatus: z.number().int().optional(),
  /** Who answered with this error: the participant's Ledger API (default) or the Splice validator app. */
  source: z.enum(['participant', 'validator']).optional(),
});
export type CantonErrorDetails = z.infer<typeof CantonErrorDetailsSchema>;

/** Error codes the console itself produces (Canton codes travel in `canton`). */
export const IpcErrorCodeSchema = z.enum([
  'BAD_REQUEST', // request failed the channel schema
  'UNKNOWN_CHANNEL',
  'NOT_FOUND',
  'CONFLICT',
  'LEDGER_API_ERROR', // the participant answered with an error
  'VALIDATOR_ERROR', // the Splice validator app answered with an error (or with a shape the Splice API does not define)
  'UNREACHABLE', // no answer from the participant
  'KEYCHAIN_UNAVAILABLE',
  'FORBIDDEN',
  'AUTH_FAILED', // the profile's credentials gave no token (token endpoint error or timeout, missing secret)
  'INTERNAL',
  'CANCELLED', // the caller cancelled the call; its HTTP requests to the participant were aborted
  'LIMIT_REACHED', // a per-connection limit of the host (calls in flight, subscriptions)
]);
export type IpcErrorCode = z.infer<typeof IpcErrorCodeSchema>;

export const IpcErrorSchema = z.object({
  code: IpcErrorCodeSchema,
  message: z.string(),
  canton: CantonErrorDetailsSchema.optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type IpcError = z.infer<typeof IpcErrorSchema>;

/** Thrown by services; converted to an IpcError value at the contract boundary. */
export class ConsoleError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
    readonly canton?: CantonErrorDetails,
    readonly issues?: IpcError['issues'],
  ) {
    super(message);
    this.name = 'ConsoleError';
  }

  toIpcError(): IpcError {
    return {
      code: this.code,
      message: this.message,
      ...(this.canton ? { canton: this.canton } : {}),
      ...(this.issues ? { issues: this.issues } : {}),
    };
  }
}

export function toIpcError(err: unknown): IpcError {
  if (err instanceof ConsoleError) return err.toIpcError();
  // Unknown failures keep only their message: stack traces and causes may carry secrets or paths.
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'INTERNAL', message: message || 'Internal error' };
}

export function zodIssues(error: z.ZodError): NonNullable<IpcError['issues']> {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
}
