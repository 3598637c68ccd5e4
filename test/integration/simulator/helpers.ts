/**
 * Test helpers: start a real simulator over HTTP in a temp dir, and validate responses against the
 * reference OpenAPI / AsyncAPI specification (schemas looked up from the spec's operation/response).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { startSimulator } from '../../../src/simulator/index.js';
import type { RunningSimulator, SimulatorOptions } from '../../../src/simulator/index.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const referenceDir = path.resolve(repoRoot, '../shared/reference');
export const openapiPath = path.join(referenceDir, 'canton-json-api/openapi.yaml');
export const asyncapiPath = path.join(referenceDir, 'canton-json-api/asyncapi.yaml');

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

type Json = Record<string, unknown>;

function makeAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  for (const f of ['int32', 'int64', 'double', 'float', 'binary', 'byte']) ajv.addFormat(f, true);
  return ajv;
}

export class SpecValidator {
  private readonly ajv = makeAjv();
  private readonly cache = new Map<string, ValidateFunction>();
  readonly doc: Json;

  constructor(file: string, id: string) {
    this.doc = parse(readFileSync(file, 'utf8')) as Json;
    const components = this.doc.components as Json;
    this.ajv.addSchema({ $id: id, components: { schemas: components.schemas } });
    this.id = id;
  }
  private readonly id: string;

  /** Validator for a component schema by name. */
  schema(name: string): ValidateFunction {
    return this.compile({ $ref: `${this.id}#/components/schemas/${name}` });
  }

  compile(schema: unknown): ValidateFunction {
    const key = JSON.stringify(schema);
    let v = this.cache.get(key);
    if (!v) {
      const rewritten = JSON.parse(key.replaceAll('"#/components/', `"${this.id}#/components/`)) as object;
      v = this.ajv.compile(rewritten);
      this.cache.set(key, v);
    }
    return v;
  }
}

let openapi: OpenApi | undefined;

export class OpenApi extends SpecValidator {
  constructor() {
    super(openapiPath, 'openapi.json');
  }

  /** The response schema the spec names for an operation and status ('default' if no exact match). */
  responseSchema(method: string, apiPath: string, status: number): { schema: unknown; contentType: string } {
    const paths = this.doc.paths as Record<string, Record<string, Json>>;
    const op = paths[apiPath]?.[method.toLowerCase()];
    if (!op) throw new Error(`spec has no operation ${method} ${apiPath}`);
    const responses = op.responses as Record<string, Json>;
    const resp = responses[String(status)] ?? responses.default;
    if (!resp) throw new Error(`spec has no response ${status} for ${method} ${apiPath}`);
    const content = resp.content as Record<string, { schema: unknown }> | undefined;
    if (!content) return { schema: undefined, contentType: '' };
    const [contentType, media] = Object.entries(content)[0] as [string, { schema: unknown }];
    return { schema: media.schema, contentType };
  }

  /** Throws with ajv errors unless `body` matches the spec's schema for that operation/status. */
  assertResponse(method: string, apiPath: string, status: number, body: unknown): void {
    const { schema } = this.responseSchema(method, apiPath, status);
    if (schema === undefined) return;
    const v = this.compile(schema);
    if (!v(body)) {
      throw new Error(
        `response of ${method} ${apiPath} (${status}) does not match spec: ${JSON.stringify(v.errors?.slice(0, 5))}\nbody: ${JSON.stringify(body).slice(0, 2000)}`,
      );
    }
  }
}

export function openApi(): OpenApi {
  openapi ??= new OpenApi();
  return openapi;
}

let asyncapi: SpecValidator | undefined;
export function asyncApi(): SpecValidator {
  asyncapi ??= new SpecValidator(asyncapiPath, 'asyncapi.json');
  return asyncapi;
}

export interface TestSim extends RunningSimulator {
  dataDir: string;
  /** Close the simulator (if still running) and delete its temp dir. */
  dispose(): Promise<void>;
}

export function makeTempDir(prefix = 'sim-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function startTestSim(opts: Partial<SimulatorOptions> = {}): Promise<TestSim> {
  const dataDir = opts.dataDir ?? makeTempDir();
  const sim = await startSimulator({ port: 0, ...opts, dataDir });
  let closed = false;
  return {
    ...sim,
    dataDir,
    async close() {
      if (!closed) {
        closed = true;
        await sim.close();
      }
    },
    async dispose() {
      if (!closed) {
        closed = true;
        await sim.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse {
  status: number;
  contentType: string;
  text: string;
  /** Parsed JSON body, or undefined when not JSON. */
  json: unknown;
}

/** Calls the simulator over real HTTP and (unless `validate: false`) checks the body against the spec. */
export async function call(
  base: string,
  method: string,
  specPath: string,
  opts: { path?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; validate?: boolean } = {},
): Promise<ApiResponse> {
  const url = base + (opts.path ?? specPath);
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  let json: unknown;
  if (contentType.includes('application/json')) json = JSON.parse(text);
  if (opts.validate !== false) {
    if (res.status === 400 && contentType.startsWith('text/plain')) {
      // the spec's 400 answer: a plain string
    } else if (json !== undefined) openApi().assertResponse(method, specPath, res.status, json);
  }
  return { status: res.status, contentType, text, json };
}

/** Asserts a JsCantonError body and returns it. */
export function cantonError(r: ApiResponse): { code: string; cause: string; errorCategory: number; grpcCodeValue?: number } {
  const v = openApi().schema('JsCantonError');
  if (!v(r.json)) throw new Error(`not a JsCantonError (${r.status}): ${r.text.slice(0, 500)}`);
  return r.json as { code: string; cause: string; errorCategory: number; grpcCodeValue?: number };
}
