/**
 * Wallet test helpers: the Splice reference specs (wallet-external, wallet-internal, validator-internal, scan-proxy and
 * the common-* / scan files they reference, and the token-standard registry APIs, which the validator serves under
 * `/v0/scan-proxy/registry`) loaded into one ajv instance, and an HTTP caller for `/api/validator` that validates every
 * response body against the operation's response schema (ErrorResponse for errors).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { referenceDir } from './helpers.js';

export { startTestSim } from './helpers.js';
export type { TestSim } from './helpers.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const spliceDir = path.join(referenceDir, 'splice');
const FILES = [
  'common-external',
  'common-internal',
  'wallet-external',
  'wallet-internal',
  'validator-internal',
  'scan',
  'scan-proxy',
  'token-standard/token-metadata-v1',
  'token-standard/transfer-instruction-v1',
  'token-standard/allocation-instruction-v1',
  'token-standard/allocation-v1',
] as const;
/** The registry APIs are served under the validator's scan proxy. */
const REGISTRY_PREFIX = '/v0/scan-proxy';
type Json = Record<string, unknown>;

/**
 * Rewrites `$ref`s: local ones to the file's `$id`, cross-file ones (flat `./x.yaml` or the repo's `../../../../common/...`)
 * to that file's `$id`.
 */
function rewriteRefs(text: string, self: string): string {
  return text
    .replaceAll(/"(?:\.\.\/)+common\/src\/main\/openapi\/(common-[a-z]+)\.yaml#/g, '"$1.json#')
    .replaceAll(/"\.\/([a-z0-9-]+)\.yaml#/g, '"$1.json#')
    .replaceAll('"#/components/', `"${self}.json#/components/`);
}

/**
 * OpenAPI `discriminator` + `oneOf` (e.g. GetTransferOfferStatusResponse): the variants share their base, so plain
 * `oneOf` matches several; select the variant by the discriminator property's value, as OpenAPI tools do.
 */
function discriminated(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(discriminated);
  if (typeof node !== 'object' || node === null) return node;
  const o: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, discriminated(v)]));
  const d = o.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
  if (d?.mapping && Array.isArray(o.oneOf)) {
    const { discriminator: _d, oneOf: _o, ...rest } = o;
    return {
      ...rest,
      type: 'object',
      required: [d.propertyName],
      properties: { [d.propertyName]: { enum: Object.keys(d.mapping) } },
      allOf: Object.entries(d.mapping).map(([value, ref]) => ({
        if: { properties: { [d.propertyName]: { const: value } } },
        then: { $ref: ref },
      })),
    };
  }
  return o;
}

/**
 * A `oneOf` (without discriminator) one of whose variants requires nothing — e.g. TransferInstructionResultOutput,
 * whose `TransferInstructionFailed` is any object — matches every value twice, so JSON Schema's `oneOf` can never
 * accept a Pending or Completed output. Generated OpenAPI clients take the first variant that fits; `anyOf` is that.
 */
function lenientOneOf(components: Json): Json {
  const schemas = (components.schemas ?? {}) as Record<string, Json>;
  const target = (ref: unknown): Json | undefined =>
    typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? schemas[ref.slice(21)] : undefined;
  for (const s of Object.values(schemas)) {
    const variants = s.oneOf as { $ref?: string }[] | undefined;
    if (!Array.isArray(variants) || s.discriminator) continue;
    if (
      variants.some((v) => {
        const t = target(v.$ref);
        return t !== undefined && !Array.isArray(t.required);
      })
    ) {
      s.anyOf = variants;
      delete s.oneOf;
    }
  }
  return components;
}

class SpliceSpecs {
  readonly ajv: Ajv;
  readonly docs = new Map<string, Json>();
  private readonly cache = new Map<string, ValidateFunction>();
  constructor() {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, discriminator: false });
    addFormats(this.ajv);
    for (const f of ['int32', 'int64', 'double', 'float', 'binary', 'byte']) this.ajv.addFormat(f, true);
    for (const file of FILES) {
      const f = path.basename(file);
      const doc = parse(readFileSync(path.join(spliceDir, `${file}.yaml`), 'utf8')) as Json;
      this.docs.set(f, doc);
      const raw = lenientOneOf(JSON.parse(JSON.stringify((doc.components as Json | undefined) ?? {})) as Json);
      const components = discriminated(JSON.parse(rewriteRefs(JSON.stringify(raw), f))) as Json;
      this.ajv.addSchema({ $id: `${f}.json`, components });
    }
  }

  /** Statuses of the ajv-valid answers seen, per operation (`file METHOD /spec/path`). */
  readonly answered = new Map<string, Set<number>>();

  /** The operation (and its file) serving `method path` (path relative to /api/validator, e.g. `/v0/wallet/balance`). */
  operation(method: string, specPath: string): { file: string; op: Json; key: string } {
    const registryPath = specPath.startsWith(`${REGISTRY_PREFIX}/registry/`) ? specPath.slice(REGISTRY_PREFIX.length) : undefined;
    for (const [file, doc] of this.docs) {
      const paths = doc.paths as Record<string, Record<string, Json>> | undefined;
      const m = method.toLowerCase();
      const found = paths?.[specPath]?.[m] ? specPath : registryPath && paths?.[registryPath]?.[m] ? registryPath : undefined;
      const op = found === undefined ? undefined : paths?.[found]?.[m];
      if (op && found) return { file, op, key: `${file} ${method.toUpperCase()} ${found}` };
    }
    throw new Error(`no Splice spec operation ${method} ${specPath}`);
  }

  /** Every operation of a spec file, as `file METHOD /spec/path`. */
  operationsOf(file: string): string[] {
    const paths = (this.docs.get(file)?.paths ?? {}) as Record<string, Record<string, unknown>>;
    return Object.entries(paths).flatMap(([p, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => `${file} ${m.toUpperCase()} ${p}`),
    );
  }

  /** Throws unless `body` matches the spec's response schema for that operation and status. */
  assertResponse(method: string, specPath: string, status: number, body: unknown): void {
    const { file, op, key: opKey } = this.operation(method, specPath);
    const responses = op.responses as Record<string, Json>;
    let resp = responses[String(status)];
    if (!resp) {
      // statuses the operation does not list (e.g. 401/403): the common responses, all ErrorResponse
      if (status >= 400)
        resp = { content: { 'application/json': { schema: { $ref: './common-external.yaml#/components/schemas/ErrorResponse' } } } };
      else throw new Error(`spec has no response ${status} for ${method} ${specPath}`);
    }
    if (typeof resp.$ref === 'string') {
      const [refFile, pointer] = resp.$ref.split('#') as [string, string];
      const target = refFile === '' ? file : path.basename(refFile, '.yaml');
      resp = pointer
        .split('/')
        .filter(Boolean)
        .reduce<Json>((o, k) => o[k] as Json, this.docs.get(target) as Json);
      resp = JSON.parse(JSON.stringify(resp).replaceAll('"#/components/', `"./${target}.yaml#/components/`)) as Json;
    }
    const schema = (resp.content as Record<string, { schema: unknown }> | undefined)?.['application/json']?.schema;
    const seen = (): void => void this.answered.set(opKey, (this.answered.get(opKey) ?? new Set()).add(status));
    if (schema === undefined) {
      seen(); // e.g. `200: ok` without a body
      return;
    }
    const key = `${file}:${JSON.stringify(schema)}`;
    let v = this.cache.get(key);
    if (!v) {
      v = this.ajv.compile(JSON.parse(rewriteRefs(JSON.stringify(schema), file)) as object);
      this.cache.set(key, v);
    }
    if (!v(body))
      throw new Error(
        `response of ${method} ${specPath} (${status}) does not match the Splice spec: ${JSON.stringify(v.errors?.slice(0, 5))}\n` +
          `body: ${JSON.stringify(body).slice(0, 1500)}`,
      );
    seen();
  }
}

let specs: SpliceSpecs | undefined;
export const spliceSpecs = (): SpliceSpecs => (specs ??= new SpliceSpecs());

/** An unsigned demo-mode JWT for `sub` (the simulator decodes without verifying). */
export function jwtFor(sub: string): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub, aud: 'https://validator.example.com' })}.c2ln`;
}

export interface WalletResponse {
  status: number;
  json: Record<string, unknown>;
}

/** Calls `/api/validator` + path as `user` (undefined: no Authorization header) and validates the body against the Splice spec. */
export async function wcall(
  base: string,
  user: string | undefined,
  method: string,
  specPath: string,
  opts: { path?: string; body?: unknown } = {},
): Promise<WalletResponse> {
  const headers: Record<string, string> = {};
  if (user !== undefined) headers.authorization = `Bearer ${jwtFor(user)}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}/api/validator${opts.path ?? specPath}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('application/json'))
    throw new Error(`non-JSON answer ${res.status}: ${text.slice(0, 300)}`);
  const json = JSON.parse(text) as Record<string, unknown>;
  spliceSpecs().assertResponse(method, specPath, res.status, json);
  return { status: res.status, json };
}

/** Like `wcall` but throws unless the status is 200. */
export async function wok(
  base: string,
  user: string | undefined,
  method: string,
  specPath: string,
  opts: { path?: string; body?: unknown } = {},
): Promise<Record<string, unknown>> {
  const r = await wcall(base, user, method, specPath, opts);
  if (r.status !== 200) throw new Error(`${method} ${opts.path ?? specPath} as ${user}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

export const OPERATOR = 'validator-operator';

/** Onboards `name` (as the validator operator) and returns its party. */
export async function onboard(base: string, name: string): Promise<string> {
  const r = await wok(base, OPERATOR, 'POST', '/v0/admin/users', { body: { name } });
  return r.party_id as string;
}

export async function advance(base: string, seconds: number): Promise<void> {
  const r = await fetch(`${base}/simulator/admin/time/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seconds }),
  });
  if (r.status !== 200) throw new Error(`advance: ${r.status} ${await r.text()}`);
}

export async function nowMicros(base: string): Promise<number> {
  const r = (await (await fetch(`${base}/simulator/admin/time`)).json()) as { now: string };
  return Date.parse(r.now) * 1000;
}
