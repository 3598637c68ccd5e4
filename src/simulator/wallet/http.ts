/**
 * HTTP plumbing shared by the validator-app route modules: JSON bodies read with zod schemas checked against the
 * route's spec request body, the Splice `ErrorResponse` mapping and result helpers.
 */
import type { z } from 'zod';
import type { AnswerOf, RequestOf, SpliceOperations } from '../../common/splice-api.js';
import { CantonError, DecodeError, errorText } from '../errors.js';
import type { Handler, HandlerResult, RequestCtx } from '../router.js';
import { WalletError } from './app.js';

async function jsonBody(ctx: RequestCtx): Promise<Record<string, unknown>> {
  const text = await ctx.body();
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new WalletError(400, 'The request body is not valid JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new WalletError(400, 'The request body must be a JSON object');
  return v as Record<string, unknown>;
}

/** The request context of route `K` (`METHOD /path`): `spliceRoute` is type-only, it names the route to the checks. */
export type RouteCtx<K extends string = string> = RequestCtx & { readonly spliceRoute?: K };

/**
 * How schema `S` reads route `K`'s spec request body. `exact` both ways: every body the spec allows parses, and what it
 * parses to is a body the spec describes (no field renamed, retyped, invented or made optional). A route listed as
 * accepting more (`acceptsMore`, test/unit/splice-spec-types.test.ts) must accept every spec body and must not be exact.
 * Routes without a spec request body (`unknown`) pass.
 */
type Reads<K extends string, S extends z.ZodType> = K extends unknown
  ? unknown extends RequestOf<K>
    ? 'ok'
    : [RequestOf<K>] extends [z.input<S>]
      ? [[z.output<S>] extends [RequestOf<K>] ? 'exact' : 'more', AcceptsMore<K>] extends ['exact', false] | ['more', true]
        ? 'ok'
        : AcceptsMore<K> extends true
          ? 'the schema reads the spec body exactly: remove the route from ACCEPTS_MORE'
          : 'the request schema differs from the spec request body'
      : 'the request schema rejects bodies the spec allows'
  : never;

type AcceptsMore<K extends string> = K extends keyof SpliceOperations
  ? SpliceOperations[K] extends { acceptsMore: true }
    ? true
    : false
  : false;

type BodyCheck<K extends string, S extends z.ZodType> = string extends K
  ? { readonly 'the handler context is not typed by its route (RouteCtx<K>)': never }
  : [Reads<K, S>] extends ['ok']
    ? unknown
    : { readonly [M in Exclude<Reads<K, S>, 'ok'>]: RequestOf<K> };

/**
 * The body parsed with `schema`, which must read the route's spec request body (see `Reads`); the first issue becomes a
 * 400 naming the field.
 */
export async function parsedBody<K extends string, S extends z.ZodType>(
  ctx: RouteCtx<K>,
  schema: S & BodyCheck<K, S>,
): Promise<z.infer<S>> {
  const r = schema.safeParse(await jsonBody(ctx));
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 ? `field '${issue.path.join('.')}'` : 'the request body';
  throw new WalletError(400, `Invalid ${where}: ${issue?.message ?? 'invalid value'}`);
}

/** What a handler of route `K` returns: its JSON body typed by the spec, or a result without a JSON body. */
export type WalletResult<K extends string = string> = Exclude<HandlerResult, { json: unknown }> | { status: number; json: AnswerOf<K> };

export type WalletHandler<K extends string = string> = (ctx: RouteCtx<K>) => Promise<WalletResult<K>> | WalletResult<K>;

/** Maps wallet, decode and ledger errors to the Splice `ErrorResponse` shape. */
export const wrap =
  <K extends string>(h: WalletHandler<K>): Handler =>
  async (ctx) => {
    try {
      return await h(ctx);
    } catch (err) {
      if (err instanceof WalletError) return { status: err.status, json: { error: err.message } };
      if (err instanceof DecodeError) return { status: 400, json: { error: err.message } };
      if (err instanceof CantonError) {
        const status =
          err.httpStatus >= 500
            ? err.httpStatus
            : err.kind.code === 'DAML_INTERPRETATION_ERROR' || err.kind.code === 'CONTRACT_NOT_FOUND'
              ? err.kind.code === 'CONTRACT_NOT_FOUND'
                ? 404
                : 400
              : err.httpStatus;
        return { status, json: { error: `${err.kind.code}: ${err.message}` } };
      }
      console.error('[simulator wallet] internal error', err);
      return { status: 500, json: { error: `Internal error: ${errorText(err)}` } };
    }
  };

export const ok = <T>(json: T): { status: number; json: T } => ({ status: 200, json });
export const empty = (): { status: number; json: Record<string, never> } => ({ status: 200, json: {} });

/** Registers a route under the validator base; its handler's answer is typed by the route's `METHOD /path`. */
export type AddRoute = <const M extends string, const P extends string>(method: M, path: P, h: WalletHandler<`${M} ${P}`>) => void;
