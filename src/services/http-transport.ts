/**
 * The ledger client's HTTP transport: one request on Node's own http/https with kept-alive connections, its answer
 * read whole into a `BufferedResponse` (the part of a fetch `Response` the ledger client and openapi-fetch read).
 *
 * Why not the global `fetch`, nor even undici's `Request` and `Response` classes around this transport: per request
 * they cost 1–2 ms of CPU in undici (request object, stream plumbing, abort wiring), and building a `Request` whose
 * body is read back through a web stream and a `Response` read the same way still cost ≈ 0.3 ms per call, paid twice
 * per signing round (prepare, executeAndWait) — measured in bench/signing. Every caller of the ledger client reads the
 * whole body anyway (JSON, a DAR, a health probe), so buffering costs nothing that streaming would save. TLS
 * verification is Node's default (system/bundled CAs and NODE_EXTRA_CA_CERTS), as it was with `fetch`.
 */
import http from 'node:http';
import https from 'node:https';

export interface HttpRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Aborts the request; the promise rejects with the signal's reason (e.g. a `TimeoutError` from AbortSignal.timeout). */
  signal?: AbortSignal;
}

/**
 * How long an idle kept-alive connection is kept at most. Node 20's agent applies a server's `Keep-Alive: timeout=N`
 * hint (closing the socket a second before the server would) only when it has a timeout of its own, and without one
 * it kept idle sockets for ever: a request sent just as the participant closed one failed with ECONNRESET ("could
 * not connect"). Active requests are bounded by the caller's signal, not by this (a socket timeout only emits an event).
 */
const IDLE_SOCKET_MS = 4_000;

const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
};

/**
 * A kept-alive connection the server closed while the request was on its way: the server never read the request, so
 * it is sent again once, on a new connection (as Node's documentation advises for `req.reusedSocket`).
 */
const closedWhileIdle = (err: unknown, req: http.ClientRequest, answered: boolean): boolean =>
  req.reusedSocket && !answered && err instanceof Error && 'code' in err && (err.code === 'ECONNRESET' || err.code === 'EPIPE');

const utf8 = new TextDecoder();

/** Header values by lower-case name; a repeated header's values joined with ", ", as `Headers.get` gives them. */
export class AnswerHeaders {
  private readonly values = new Map<string, string>();
  constructor(rawHeaders: readonly string[]) {
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name = (rawHeaders[i] ?? '').toLowerCase();
      const value = rawHeaders[i + 1] ?? '';
      const seen = this.values.get(name);
      this.values.set(name, seen === undefined ? value : `${seen}, ${value}`);
    }
  }
  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }
}

/** A participant's answer with its body already read: status, headers, and the body as text, JSON or bytes. */
export class BufferedResponse {
  readonly ok: boolean;
  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
    readonly headers: AnswerHeaders,
    private readonly bytes: Uint8Array<ArrayBuffer>,
  ) {
    this.ok = status >= 200 && status <= 299;
  }
  /** UTF-8, a leading byte-order mark dropped (as `Response.text()`). */
  text(): Promise<string> {
    return Promise.resolve(utf8.decode(this.bytes));
  }
  /** Rejects with a SyntaxError when the body is not JSON (as `Response.json()`). */
  json(): Promise<unknown> {
    try {
      return Promise.resolve(JSON.parse(utf8.decode(this.bytes)) as unknown);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new SyntaxError(String(err)));
    }
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.bytes.buffer);
  }
}

/** One request; rejects on a connection failure or abort, resolves with any HTTP status. */
export function httpRequest(url: string, init: HttpRequestInit): Promise<BufferedResponse> {
  const target = new URL(url);
  const protocol = target.protocol;
  if (protocol !== 'http:' && protocol !== 'https:') {
    return Promise.reject(new TypeError(`${url}: only http and https URLs are supported`));
  }
  const { signal } = init;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? Buffer.from(init.body) : init.body;
  const headers = body === undefined ? init.headers : { ...init.headers, 'content-length': String(body.byteLength) };
  const send = protocol === 'https:' ? https.request : http.request;
  return new Promise<BufferedResponse>((resolve, reject) => {
    let settled = false;
    let req: http.ClientRequest;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = () => {
      const reason = signal ? abortReason(signal) : new Error('aborted');
      req.destroy();
      finish(() => {
        reject(reason);
      });
    };
    const attempt = (agent: http.Agent | false) => {
      let answered = false;
      const current = send(target, { method: init.method, headers, agent }, (res) => {
        answered = true;
        receive(res);
      });
      req = current;
      current.on('error', (err) => {
        if (!settled && agent !== false && closedWhileIdle(err, current, answered)) {
          attempt(false);
          return;
        }
        finish(() => {
          reject(err);
        });
      });
      current.end(body);
    };
    const receive = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err) => {
        finish(() => {
          reject(err);
        });
      });
      res.on('end', () => {
        finish(() => {
          resolve(
            new BufferedResponse(url, res.statusCode ?? 0, res.statusMessage ?? '', new AnswerHeaders(res.rawHeaders), joined(chunks)),
          );
        });
      });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    attempt(agents[protocol]);
  });
}

/** The body in an ArrayBuffer of its own (Buffer.concat may hand out a slice of Node's shared pool). */
function joined(chunks: Buffer[]): Uint8Array<ArrayBuffer> {
  let size = 0;
  for (const c of chunks) size += c.byteLength;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('aborted');
}
