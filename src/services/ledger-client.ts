/**
 * HTTP client for a participant's JSON Ledger API v2, typed with the official generated
 * OpenAPI types. Errors come back as ConsoleError with the participant's JsCantonError attached.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { z } from 'zod';
import { ConsoleError, type CantonErrorDetails } from '../ipc/errors.js';

type Schemas = v3_5.components['schemas'];
export type LedgerApiVersion = Schemas['GetLedgerApiVersionResponse'];
export type LedgerEnd = Schemas['GetLedgerEndResponse'];
export type ConnectedSynchronizers = Schemas['GetConnectedSynchronizersResponse'];
export type LatestPrunedOffsets = Schemas['GetLatestPrunedOffsetsResponse'];
export type ParticipantId = Schemas['GetParticipantIdResponse'];

const JsCantonErrorSchema = z.object({
  code: z.string(),
  cause: z.string(),
  context: z.record(z.string(), z.string()).optional(),
  errorCategory: z.number().optional(),
  grpcCodeValue: z.number().optional(),
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

export class LedgerClient {
  private readonly baseUrl: string;
  constructor(private readonly opts: LedgerClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
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

  version() {
    return this.getJson<LedgerApiVersion>('/v2/version');
  }
  participantId() {
    return this.getJson<ParticipantId>('/v2/parties/participant-id');
  }
  ledgerEnd() {
    return this.getJson<LedgerEnd>('/v2/state/ledger-end');
  }
  connectedSynchronizers() {
    return this.getJson<ConnectedSynchronizers>('/v2/state/connected-synchronizers');
  }
  latestPrunedOffsets() {
    return this.getJson<LatestPrunedOffsets>('/v2/state/latest-pruned-offsets');
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

  async getJson<T>(path: string): Promise<T> {
    const res = await this.fetch('GET', path);
    return this.readJson<T>(res, path);
  }

  /** Binary body of a GET (e.g. `GET /v2/packages/{id}`: a Daml-LF archive). */
  async getBytes(path: string): Promise<Uint8Array> {
    const res = await this.fetch('GET', path, undefined, 'application/octet-stream');
    if (!res.ok) throw ledgerError(res.status, path, await res.text());
    return new Uint8Array(await res.arrayBuffer());
  }

  /**
   * POST of an `application/octet-stream` body (DAR upload and validation). The answer is JSON, possibly empty.
   * Uploads can be large, so the timeout is at least a minute.
   */
  async postBytes<T>(path: string, bytes: Uint8Array, timeoutMs?: number): Promise<T> {
    const res = await this.authorized({ accept: 'application/json', 'content-type': 'application/octet-stream' }, async (headers) => {
      try {
        return await fetch(this.baseUrl + path, {
          method: 'POST',
          headers,
          body: bytes as Uint8Array<ArrayBuffer>,
          signal: this.requestSignal(timeoutMs ?? Math.max(this.opts.timeoutMs ?? 10_000, 60_000)),
        });
      } catch (err) {
        throw this.failure('POST', path, err);
      }
    });
    const text = await res.text();
    if (!res.ok) throw ledgerError(res.status, path, text);
    if (text.trim() === '') return {} as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ConsoleError('LEDGER_API_ERROR', `${path}: the participant answered ${res.status} with a body that is not JSON`);
    }
  }

  async postJson<T>(path: string, body: unknown): Promise<T> {
    const res = await this.fetch('POST', path, body);
    return this.readJson<T>(res, path);
  }

  async patchJson<T>(path: string, body: unknown): Promise<T> {
    const res = await this.fetch('PATCH', path, body);
    return this.readJson<T>(res, path);
  }

  async putJson<T>(path: string, body: unknown): Promise<T> {
    const res = await this.fetch('PUT', path, body);
    return this.readJson<T>(res, path);
  }

  async deleteJson<T>(path: string): Promise<T> {
    const res = await this.fetch('DELETE', path);
    return this.readJson<T>(res, path);
  }

  private async fetch(method: string, path: string, body?: unknown, accept = 'application/json'): Promise<globalThis.Response> {
    const base: Record<string, string> = { accept };
    if (body !== undefined) base['content-type'] = 'application/json';
    return this.authorized(base, async (headers) => {
      try {
        return await fetch(this.baseUrl + path, {
          method,
          headers,
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          signal: this.requestSignal(this.opts.timeoutMs ?? 10_000),
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
    send: (headers: Record<string, string>) => Promise<globalThis.Response>,
  ): Promise<globalThis.Response> {
    const withToken = (t: string | null) => (t ? { ...base, authorization: `Bearer ${t}` } : base);
    const token = this.opts.getToken ? await this.opts.getToken() : null;
    const res = await send(withToken(token));
    if (res.status !== 401 || !token || !this.opts.onUnauthorized) return res;
    const fresh = await this.opts.onUnauthorized(token);
    if (!fresh || fresh === token) return res;
    await res.body?.cancel();
    return send(withToken(fresh));
  }

  private async readJson<T>(res: globalThis.Response, path: string): Promise<T> {
    const text = await res.text();
    if (res.ok) {
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new ConsoleError('LEDGER_API_ERROR', `${path}: the participant answered ${res.status} with a body that is not JSON`);
      }
    }
    throw ledgerError(res.status, path, text);
  }
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
