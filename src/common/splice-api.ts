/**
 * The Splice validator app's operations, keyed `METHOD /path` as the Splice OpenAPI files name them (`{param}`
 * segments included), each with its 2xx JSON `answer` and, when it has one, its JSON `request` body. The map is empty
 * here, so the simulator's routes and the console's validator client compile against `unknown`:
 * test/unit/splice-spec-types.test.ts fills it, by declaration merging, with the types openapi-typescript generates
 * from the Splice OpenAPI files and type-checks both sides against them. The spec is the one source of these types
 * (there is no published package with them).
 */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging (see above)
export interface SpliceOperations {}

/** The answer body of route `K`, `unknown` for a route the merged spec types do not name. */
export type AnswerOf<K extends string> = K extends keyof SpliceOperations ? Field<SpliceOperations[K], 'answer'> : unknown;

type Field<O, F extends string> = O extends Record<F, infer T> ? T : unknown;
type Key = Extract<keyof SpliceOperations, string>;
/** The operations with a request body. */
type WithRequest = { [S in Key]: SpliceOperations[S] extends { request: unknown } ? S : never }[Key];

/** A spec path with its `{param}` segments as `${string}`, so a built path (`/x/${id}/y`) finds its operation. */
type PathPattern<S extends string> = S extends `${infer A}{${string}}${infer B}` ? `${A}${string}${PathPattern<B>}` : S;

/** The spec operations among `Keys` that a built key `K` (its query string left out) is an instance of. */
type Matching<K extends string, Keys extends Key> = {
  [S in Keys]: (K extends `${infer P}?${string}` ? P : K) extends PathPattern<S> ? S : never;
}[Keys];

/** The operation key(s) of `K`: itself when it is one, else the operations it is an instance of (never if none). */
type OperationOf<K extends string, Keys extends Key> = K extends Keys ? K : Matching<K, Keys>;

/**
 * The request body of route `K` (an operation key, or one built with `${string}` for its parameters); `unknown` for
 * an operation without a request body, or one the merged spec types do not name.
 */
export type RequestOf<K extends string> = [OperationOf<K, WithRequest>] extends [never]
  ? unknown
  : Field<SpliceOperations[OperationOf<K, WithRequest>], 'request'>;

/** The answer body at a built key `K` (as `RequestOf`), `unknown` for one the merged spec types do not name. */
export type AnswerAt<K extends string> = [OperationOf<K, Key>] extends [never]
  ? unknown
  : Field<SpliceOperations[OperationOf<K, Key>], 'answer'>;
