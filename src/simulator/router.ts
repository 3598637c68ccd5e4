/** Minimal method + path router with `{param}` segments. */
import type { IncomingMessage } from 'node:http';
import type { RequestAuth } from './auth.js';

export interface RequestCtx {
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  /** Authenticated user (from the bearer token, or the default admin user; '' when a JWT mode found no valid token). */
  user: string;
  /** How the request authenticated (see auth.ts); the wallet API reads it to name its user. */
  auth: RequestAuth;
  /**
   * Set when the caller manages users/parties only as IdentityProviderAdmin (not ParticipantAdmin):
   * the identity provider it is confined to, so list endpoints show only that provider's resources.
   */
  idpScope?: string;
  req: IncomingMessage;
  /** Raw request body text. */
  body(): Promise<string>;
}

export type HandlerResult =
  | { status: number; json: unknown }
  /** JSON bytes produced by the handler (spliced, not re-serialized). */
  | { status: number; jsonChunks: Buffer[] }
  /** JSON bytes produced while the answer is sent (chunked, paced by the client): large update lists. */
  | { status: number; jsonStream: Iterable<Buffer> }
  | { status: number; text: string }
  | { status: number; binary: Buffer; contentType: string }
  | { status: number; empty: true };

export type Handler = (ctx: RequestCtx) => Promise<HandlerResult> | HandlerResult;

/** How a route reads the ledger (see durability.ts). */
export interface RouteOptions {
  /**
   * The handler submits through the group commit and answers once its group is durable: it may start while
   * earlier groups are still being synced. Every other handler starts only when all that is committed is durable.
   */
  groupCommitted?: boolean;
}

interface Route {
  method: string;
  groupCommitted: boolean;
  /** The pattern as registered, e.g. `/v2/users/{user-id}` (the key of its authorization rule). */
  pattern: string;
  segments: string[];
  handler: Handler;
}

export interface RouteMatch {
  handler: Handler;
  groupCommitted: boolean;
  params: Record<string, string>;
  pattern: string;
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler, opts: RouteOptions = {}): this {
    const groupCommitted = opts.groupCommitted ?? false;
    this.routes.push({ method, pattern, segments: pattern.split('/').filter(Boolean), handler, groupCommitted });
    return this;
  }

  /** Every registered route (method + pattern), in registration order. */
  list(): { method: string; pattern: string }[] {
    return this.routes.map((r) => ({ method: r.method, pattern: r.pattern }));
  }

  /** Returns the handler and params, `methodMismatch` if the path exists with another method, or undefined. */
  match(method: string, path: string): RouteMatch | 'methodMismatch' | undefined {
    const segs = path.split('/').filter(Boolean);
    let pathExists = false;
    for (const r of this.routes) {
      if (r.segments.length !== segs.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segs.length; i++) {
        const p = r.segments[i] as string;
        const s = segs[i] as string;
        if (p.startsWith('{') && p.endsWith('}')) {
          let decoded: string;
          try {
            decoded = decodeURIComponent(s);
          } catch {
            ok = false;
            break;
          }
          params[p.slice(1, -1)] = decoded;
        } else if (p !== s) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      pathExists = true;
      if (r.method === method) return { handler: r.handler, params, pattern: r.pattern, groupCommitted: r.groupCommitted };
    }
    return pathExists ? 'methodMismatch' : undefined;
  }
}

export const ok = (json: unknown): HandlerResult => ({ status: 200, json });
export const okChunks = (jsonChunks: Buffer[]): HandlerResult => ({ status: 200, jsonChunks });
export const okStream = (jsonStream: Iterable<Buffer>): HandlerResult => ({ status: 200, jsonStream });
/** Options of a route that submits through the group commit (`RouteOptions.groupCommitted`). */
export const GROUP_COMMITTED: RouteOptions = { groupCommitted: true };
