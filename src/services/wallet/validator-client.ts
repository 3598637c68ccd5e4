/**
 * HTTP client for a Splice validator app (`…/api/validator`), built on LedgerClient for transport, timeouts and
 * the bearer token. Every answer is parsed with the schema transcribed from the Splice OpenAPI files, and the
 * Splice `ErrorResponse` (`{ "error": "…" }`) becomes a ConsoleError whose cause is the validator's own message.
 */
import type { z } from 'zod';
import type { AnswerAt, RequestOf } from '../../common/splice-api.js';
import { ConsoleError, type IpcError } from '../../ipc/errors.js';
import { LedgerClient, type JsonMethod } from '../ledger-client.js';
import { SpliceErrorSchema } from './splice-schemas.js';

export interface ValidatorClientOptions {
  /** The profile's validator API URL, e.g. `https://validator.example.com/api/validator`. */
  baseUrl: string;
  /** Bearer JWT whose `sub` is the wallet user (or the validator operator for `/v0/admin/*`). */
  getToken: () => Promise<string | null>;
  /** A 401 with `rejected`: a fresh token to resend once (the profile's OAuth2 provider), or null. */
  onUnauthorized?: (rejected: string) => Promise<string | null>;
  timeoutMs?: number;
}

/**
 * The request body of `METHOD path` as the Splice spec declares it (src/common/splice-api.ts; checked by
 * test/unit/splice-spec-types.test.ts). The path must keep its literal type (`${string}` for its parameters), or the
 * body could not be looked up.
 */
type Body<M extends string, P extends string> = string extends P
  ? { readonly 'the path must have a literal type': never }
  : RequestOf<`${M} ${P}`>;
/**
 * The answer schema of `METHOD path` must accept every answer the spec allows (it may read only the fields the console
 * uses); checked like `Body`.
 */
type Parses<M extends string, P extends string, S extends z.ZodType> = string extends P
  ? { readonly 'the path must have a literal type': never }
  : [Rejected<`${M} ${P}`, z.input<S>>] extends [never]
    ? unknown
    : { readonly 'the schema rejects answers the spec allows': Rejected<`${M} ${P}`, z.input<S>> };
/** The spec answers at the keys `K` that `Accepted` does not admit (never when all are admitted or unknown). */
type Rejected<K extends string, Accepted> = K extends unknown
  ? unknown extends AnswerAt<K>
    ? never
    : [AnswerAt<K>] extends [Accepted]
      ? never
      : AnswerAt<K>
  : never;

export class ValidatorClient {
  private readonly http: LedgerClient;
  constructor(private readonly opts: ValidatorClientOptions) {
    this.http = new LedgerClient({
      baseUrl: opts.baseUrl,
      getToken: opts.getToken,
      ...(opts.onUnauthorized ? { onUnauthorized: opts.onUnauthorized } : {}),
      timeoutMs: opts.timeoutMs ?? 15_000,
    });
  }

  get url(): string {
    return this.http.url;
  }

  get<const P extends string, S extends z.ZodType>(path: P, schema: S & Parses<'GET', P, S>): Promise<z.output<S>> {
    return this.call('GET', path, schema);
  }

  post<const P extends string, S extends z.ZodType>(
    path: P,
    body: Body<'POST', P>,
    schema: S & Parses<'POST', P, S>,
  ): Promise<z.output<S>> {
    return this.call('POST', path, schema, body);
  }

  delete<const P extends string, S extends z.ZodType>(path: P, schema: S & Parses<'DELETE', P, S>): Promise<z.output<S>> {
    return this.call('DELETE', path, schema);
  }

  /** No Splice endpoint uses PUT; the embedded simulator's automation settings do. */
  put<const P extends string, S extends z.ZodType>(path: P, body: Body<'PUT', P>, schema: S & Parses<'PUT', P, S>): Promise<z.output<S>> {
    return this.call('PUT', path, schema, body);
  }

  /** The Splice API has no official typed package: each answer is checked by the schema transcribed from its spec. */
  private async call<S extends z.ZodType>(method: JsonMethod, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
    const mismatch = (issues: NonNullable<IpcError['issues']>) =>
      new ConsoleError('VALIDATOR_ERROR', `${path}: the validator answered with a shape the Splice API does not define`, undefined, issues);
    try {
      return await this.http.callParsed(method, path, schema, { body, mismatch });
    } catch (err) {
      throw spliceError(err);
    }
  }
}

/**
 * A ledger-client error whose body is a Splice `ErrorResponse` gets the validator's message as its cause; every error
 * the validator answered with is marked as the validator's (the console shows it as a validator error, not a Ledger
 * API one).
 */
function spliceError(err: unknown): unknown {
  if (!(err instanceof ConsoleError) || !err.canton) return err;
  const marked = { ...err.canton, source: 'validator' as const };
  if (/^HTTP_\d+$/.test(err.canton.code)) {
    let body: unknown = null;
    try {
      body = JSON.parse(err.canton.cause);
    } catch {
      // not a Splice ErrorResponse
    }
    const parsed = SpliceErrorSchema.safeParse(body);
    if (parsed.success) {
      const status = err.canton.httpStatus ?? 0;
      const code =
        status === 404 ? 'NOT_FOUND' : status === 409 ? 'CONFLICT' : status === 401 || status === 403 ? 'FORBIDDEN' : 'VALIDATOR_ERROR';
      return new ConsoleError(code, `Validator: ${parsed.data.error}`, { ...marked, cause: parsed.data.error });
    }
  }
  return new ConsoleError(err.code === 'LEDGER_API_ERROR' ? 'VALIDATOR_ERROR' : err.code, err.message, marked, err.issues);
}
