/**
 * HTTP client for a participant's JSON Ledger API v2, typed by path with the official generated OpenAPI `paths`
 * (openapi-fetch): a path, its parameters, its body and its answer are checked against the spec at compile time.
 * Errors come back as ConsoleError with the participant's JsCantonError attached.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import createClient, { type Client } from 'openapi-fetch';
import { z } from 'zod';
import { ConsoleError, zodIssues, type CantonErrorDetails, type IpcError } from '../ipc/errors.js';
import { httpRequest, type BufferedResponse } from './http-transport.js';

type Schemas = v3_5.components['schemas'];
type Spec = v3_5.paths;
type AcsPage = Spec['/v2/state/active-contracts-page'];
/**
 * The JSON Ledger API v2 by path, as the official OpenAPI types package generates it, with one correction: the 3.5
 * types declare active-contracts-page as a GET with a body (which fetch cannot send); Canton serves it as POST, as
 * the 3.6 spec declares, with the same request and answer.
 */
export type LedgerPaths = Omit<Spec, '/v2/state/active-contracts-page'> & {
  '/v2/state/active-contracts-page': Omit<AcsPage, 'get' | 'post'> & { get?: never; post: AcsPage['get'] };
};
/** Methods of the JSON calls outside the Ledger API spec (see `LedgerClient.callParsed`). */
export type JsonMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type LedgerApiVersion = Schemas['GetLedgerApiVersionResponse'];
export type LedgerEnd = Schemas['GetLedgerEndResponse'];
export type ConnectedSynchronizers = Schemas['GetConnectedSynchronizersResponse'];
export type LatestPrunedOffsets = Schemas['GetLatestPrunedOffsetsResponse'];
export type ParticipantId = Schemas['GetParticipantIdResponse'];

const JsCantonErrorSchema = z.object({
  code: z.string(),
  cause: z.string(),
  context: z.record(z.string(), z.string()).optional(),
  errorCategory: z.number().int().optional(),
  grpcCodeValue: z.number().int().optional(),
  correlationId: z.string().optional(),
  traceId: z.string().optional(),
});

export interface LedgerClientOptions {
  baseUrl: string;
  /** Called per request so a refreshed token is picked up; null = no Authorization header. */
  getToken?: () => Promise<string | null>;
  /**
   * The participant answered 401 to `rejected`: return a different token to resend the request with
   * once (e.g. a refreshed OAuth2 token), or null to report the 401.
   */
  onUnauthorized?: (rejected: string) => Promise<string | null>;
  timeoutMs?: number;
  /** Aborts every request of this client (the caller cancelled); see `withSignal`. */
  signal?: AbortSignal;
}

/**
 * What an openapi-fetch call resolves to: the data, or the error body, and the response either way. openapi-fetch
 * types the response as a fetch `Response`; it is this client's BufferedResponse (see `transport` below), so only the
 * fields both have are read from it.
 */
type Answer<D> =
  | { data: D; response: Pick<BufferedResponse, 'url' | 'ok' | 'status'> }
  | { data?: undefined; error: unknown; response: Pick<BufferedResponse, 'url' | 'ok' | 'status'> };

/**
 * The request openapi-fetch builds (its `Request` option): the URL, method and body it serialised, without undici's
 * Request (header guards, a body stream read back as text). openapi-fetch also copies the call's other init fields
 * onto it; the client sends with headers of its own (`LedgerClient.fetch`).
 */
class SpecRequest {
  readonly url: string;
  readonly method: string;
  private readonly body: unknown;
  constructor(url: string, init: { method?: string; body?: unknown }) {
    this.url = url;
    this.method = (init.method ?? 'GET').toUpperCase();
    this.body = init.body;
  }
  /** The serialised body: openapi-fetch's default serializer makes JSON text; nothing else is ever sent. */
  text(): Promise<string> {
    if (this.body === undefined || this.body === null) return Promise.resolve('');
    if (typeof this.body === 'string') return Promise.resolve(this.body);
    return Promise.reject(new TypeError(`${this.method} ${this.url}: a request body must be JSON text`));
  }
}

/**
 * openapi-fetch's `Request` and `fetch` options: the classes it is typed with are the web's, the objects it gets are
 * SpecRequest and BufferedResponse, which have every member it uses (url, method, text(); status, ok,
 * headers.get(), text(), json()) — test/integration/http-transport.test.ts drives the typed calls through them.
 */
function transport(send: (req: SpecRequest) => Promise<BufferedResponse>): {
  Request: typeof Request;
  fetch: (req: Request) => Promise<Response>;
} {
  return {
    Request: SpecRequest as unknown as typeof Request,
    fetch: (req) => send(req as unknown as SpecRequest) as unknown as Promise<Response>,
  };
}

export class LedgerClient {
  private readonly baseUrl: string;
  /**
   * The Ledger API typed by path (`client.read(client.api.GET('/v2/users/{user-id}', …))`). Requests go through
   * this client's token, 401 retry, deadline and cancel signal; `read` turns the answer into data or a ConsoleError.
   */
  readonly api: Client<LedgerPaths>;
  constructor(private readonly opts: LedgerClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.api = createClient<LedgerPaths>({ baseUrl: this.baseUrl, ...transport((req) => this.send(req)) });
  }

  get url(): string {
    return this.baseUrl;
  }

  /** The same participant, with every request aborted when `signal` fires (a cancelled IPC call). */
  withSignal(signal: AbortSignal): LedgerClient {
    return new LedgerClient({ ...this.opts, signal });
  }

  /** The request's deadline, joined with the caller's cancel signal when there is one. */
  private requestSignal(timeoutMs: number): AbortSignal {
    const timeout = AbortSignal.timeout(timeoutMs);
    return this.opts.signal ? AbortSignal.any([timeout, this.opts.signal]) : timeout;
  }

  private failure(method: string, path: string, err: unknown): ConsoleError {
    if (this.opts.signal?.aborted) return new ConsoleError('CANCELLED', `${method} ${this.baseUrl}${path}: cancelled`);
    const reason = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'could not connect';
    return new ConsoleError('UNREACHABLE', `${method} ${this.baseUrl}${path}: ${reason}`);
  }

  version(): Promise<LedgerApiVersion> {
    return this.read(this.api.GET('/v2/version'));
  }
  participantId(): Promise<ParticipantId> {
    return this.read(this.api.GET('/v2/parties/participant-id'));
  }
  ledgerEnd(): Promise<LedgerEnd> {
    return this.read(this.api.GET('/v2/state/ledger-end'));
  }
  connectedSynchronizers(): Promise<ConnectedSynchronizers> {
    return this.read(this.api.GET('/v2/state/connected-synchronizers'));
  }
  latestPrunedOffsets(): Promise<LatestPrunedOffsets> {
    return this.read(this.api.GET('/v2/state/latest-pruned-offsets'));
  }

  /** The data of a typed call (`api.GET(…)`, `api.POST(…)`, …), or the participant's refusal as a ConsoleError. */
  async read<D>(call: Promise<Answer<D>>): Promise<NonNullable<D>> {
    let answer: Answer<D>;
    try {
      answer = await call;
    } catch (err) {
      if (err instanceof ConsoleError) throw err;
      // openapi-fetch parses a successful answer as JSON; anything else fails here
      throw new ConsoleError('LEDGER_API_ERROR', `${this.baseUrl}: the participant answered with a body that is not JSON`);
    }
    const { response } = answer;
    const path = response.url.startsWith(this.baseUrl) ? response.url.slice(this.baseUrl.length) : response.url;
    if (!response.ok || 'error' in answer) {
      const error = 'error' in answer ? answer.error : undefined;
      throw ledgerError(response.status, path, typeof error === 'string' ? error : error === undefined ? '' : JSON.stringify(error));
    }
    // An empty success (204, or Content-Length 0) is an empty object, as the callers expect.
    return (answer.data ?? {}) as NonNullable<D>;
  }

  /** openapi-fetch's transport: the request as built from the spec, sent like every other request of this client. */
  private async send(req: SpecRequest): Promise<BufferedResponse> {
    const body = req.method === 'GET' || req.method === 'HEAD' ? '' : await req.text();
    const path = req.url.startsWith(this.baseUrl) ? req.url.slice(this.baseUrl.length) : req.url;
    return this.fetch(req.method, path, body === '' ? undefined : body);
  }
  /** Health probes answer with plain text; only the status matters. */
  async probe(path: '/livez' | '/readyz'): Promise<boolean> {
    try {
      const res = await this.fetch('GET', path);
      await res.arrayBuffer();
      return res.ok;
    } catch {
      return false;
    }
  }

  /** Binary body of a GET (e.g. `GET /v2/packages/{id}`: a Daml-LF archive). */
  async getBytes(path: string): Promise<Uint8Array> {
    const res = await this.fetch('GET', path, undefined, { accept: 'application/octet-stream' });
    if (!res.ok) throw ledgerError(res.status, path, await res.text());
    return new Uint8Array(await res.arrayBuffer());
  }

  /**
   * POST of an `application/octet-stream` body (DAR upload and validation). The answer is JSON, possibly empty.
   * Uploads can be large, so the timeout is at least a minute.
   */
  async postBytes<T>(path: string, bytes: Uint8Array, timeoutMs?: number): Promise<T> {
    const res = await this.fetch('POST', path, bytes, { timeoutMs: timeoutMs ?? Math.max(this.opts.timeoutMs ?? 10_000, 60_000) });
    return (await this.readJson(res, path)) as T;
  }

  /**
   * A JSON call to a path outside the Ledger API spec (the Splice validator API, the simulator's admin endpoints),
   * whose answer must match `schema`: an answer of another shape throws `mismatch(issues)`, by default a
   * LEDGER_API_ERROR naming the path. An empty answer is read as `{}`.
   */
  async callParsed<S extends z.ZodType>(
    method: JsonMethod,
    path: string,
    schema: S,
    opts: { body?: unknown; mismatch?: (issues: NonNullable<IpcError['issues']>) => ConsoleError } = {},
  ): Promise<z.output<S>> {
    const res = await this.fetch(method, path, opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const parsed = schema.safeParse(await this.readJson(res, path));
    if (parsed.success) return parsed.data;
    const issues = zodIssues(parsed.error);
    throw opts.mismatch
      ? opts.mismatch(issues)
      : new ConsoleError('LEDGER_API_ERROR', `${method} ${path}: the answer does not have the shape its API defines`, undefined, issues);
  }

  /** `body` is JSON text, or bytes sent as `application/octet-stream` (or absent). */
  private async fetch(
    method: string,
    path: string,
    body?: string | Uint8Array,
    opts: { accept?: string; timeoutMs?: number } = {},
  ): Promise<BufferedResponse> {
    const base: Record<string, string> = { accept: opts.accept ?? 'application/json' };
    if (body !== undefined) base['content-type'] = typeof body === 'string' ? 'application/json' : 'application/octet-stream';
    return this.authorized(base, async (headers) => {
      try {
        return await httpRequest(this.baseUrl + path, {
          method,
          headers,
          ...(body !== undefined ? { body } : {}),
          signal: this.requestSignal(opts.timeoutMs ?? this.opts.timeoutMs ?? 10_000),
        });
      } catch (err) {
        throw this.failure(method, path, err);
      }
    });
  }

  /**
   * Sends with the profile's current token. A 401 to a request that carried a token is answered by
   * asking for a different one and resending once; a second 401 is reported as it is.
   */
  private async authorized(
    base: Record<string, string>,
    send: (headers: Record<string, string>) => Promise<BufferedResponse>,
  ): Promise<BufferedResponse> {
    const withToken = (t: string | null) => (t ? { ...base, authorization: `Bearer ${t}` } : base);
    const token = this.opts.getToken ? await this.opts.getToken() : null;
    const res = await send(withToken(token));
    if (res.status !== 401 || !token || !this.opts.onUnauthorized) return res;
    const fresh = await this.opts.onUnauthorized(token);
    if (!fresh || fresh === token) return res;
    return send(withToken(fresh));
  }

  private async readJson(res: BufferedResponse, path: string): Promise<unknown> {
    const text = await res.text();
    if (res.ok) {
      if (text.trim() === '') return {};
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new ConsoleError('LEDGER_API_ERROR', `${path}: the participant answered ${res.status} with a body that is not JSON`);
      }
    }
    throw ledgerError(res.status, path, text);
  }
}

/** A participant's JsCantonError (an HTTP error body or a WebSocket error message) as a ConsoleError; null when it is not one. */
export function cantonError(value: unknown, httpStatus?: number): ConsoleError | null {
  const parsed = JsCantonErrorSchema.safeParse(value);
  if (!parsed.success) return null;
  const c = parsed.data;
  return new ConsoleError('LEDGER_API_ERROR', `${c.code}: ${c.cause}`, {
    ...c,
    context: c.context ?? {},
    ...(httpStatus !== undefined ? { httpStatus } : {}),
  });
}

function ledgerError(status: number, path: string, text: string): ConsoleError {
  let canton: CantonErrorDetails | undefined;
  try {
    const parsed = JsCantonErrorSchema.safeParse(JSON.parse(text));
    if (parsed.success) canton = { ...parsed.data, context: parsed.data.context ?? {}, httpStatus: status };
  } catch {
    // text/plain errors (400 for undecodable input) carry no JSON.
  }
  if (canton) return new ConsoleError('LEDGER_API_ERROR', `${canton.code}: ${canton.cause}`, canton);
  const snippet = text.trim().slice(0, 300);
  return new ConsoleError('LEDGER_API_ERROR', `${path} failed with HTTP ${status}${snippet ? `: ${snippet}` : ''}`, {
    code: `HTTP_${status}`,
    cause: snippet || `HTTP ${status}`,
    context: {},
    httpStatus: status,
  });
}
