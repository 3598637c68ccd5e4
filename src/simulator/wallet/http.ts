/**
 * HTTP plumbing shared by the validator-app route modules: JSON bodies (loose field checks for the original
 * endpoints, zod schemas for the newer ones), the Splice `ErrorResponse` mapping and result helpers.
 */
import type { z } from 'zod';
import { CantonError, DecodeError, errorText } from '../errors.js';
import type { Handler, HandlerResult, RequestCtx } from '../router.js';
import { WalletError } from './app.js';

export async function jsonBody(ctx: RequestCtx): Promise<Record<string, unknown>> {
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

/** The body parsed with `schema`; the first issue becomes a 400 naming the field. */
export async function parsedBody<S extends z.ZodType>(ctx: RequestCtx, schema: S): Promise<z.infer<S>> {
  const r = schema.safeParse(await jsonBody(ctx));
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 ? `field '${issue.path.join('.')}'` : 'the request body';
  throw new WalletError(400, `Invalid ${where}: ${issue?.message ?? 'invalid value'}`);
}

export function field<T extends 'string' | 'number' | 'boolean'>(
  b: Record<string, unknown>,
  name: string,
  type: T,
  required = true,
): (T extends 'string' ? string : T extends 'number' ? number : boolean) | undefined {
  const v = b[name];
  if (v === undefined || v === null) {
    if (required) throw new WalletError(400, `Missing required field '${name}'`);
    return undefined;
  }
  if (typeof v !== type || (type === 'number' && !Number.isInteger(v)))
    throw new WalletError(400, `Field '${name}' must be ${type === 'number' ? 'an integer' : `a ${type}`}`);
  return v as never;
}

/**
 * The answer body of each validator-app route, keyed `METHOD /path` as the route is registered (the Splice specs'
 * paths). Empty here, so the routes compile against `unknown`: test/unit/splice-spec-types.test.ts fills it, by
 * declaration merging, with the types openapi-typescript generates from the Splice OpenAPI files, and type-checks
 * every route's answer against the spec. The spec is the one source of the answer types.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging (see above)
export interface SpliceAnswers {}

/** The answer body of route `K` (`METHOD /path`), `unknown` for a route the merged spec types do not name. */
export type AnswerOf<K extends string> = K extends keyof SpliceAnswers ? SpliceAnswers[K] : unknown;

/** What a handler of route `K` returns: its JSON body typed by the spec, or a result without a JSON body. */
export type WalletResult<K extends string = string> = Exclude<HandlerResult, { json: unknown }> | { status: number; json: AnswerOf<K> };

export type WalletHandler<K extends string = string> = (ctx: RequestCtx) => Promise<WalletResult<K>> | WalletResult<K>;

/** Maps wallet, decode and ledger errors to the Splice `ErrorResponse` shape. */
export const wrap =
  (h: WalletHandler): Handler =>
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
