/**
 * Test helpers: start a real simulator over HTTP in a temp dir, and validate responses against the
 * reference OpenAPI / AsyncAPI specification (schemas looked up from the spec's operation/response).
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import fs, { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import Database from 'better-sqlite3';
import type { ValidateFunction } from 'ajv';
import type { RawData } from 'ws';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { openSimContext, startSimulator } from '../../../src/simulator/index.js';
import { LedgerWriter } from '../../../src/simulator/ledger.js';
import { DB_FILE } from '../../../src/simulator/store/open.js';
import type { SyncFile } from '../../../src/simulator/store/wal-checkpoints.js';
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

  /**
   * The response schema the spec names for an operation, status and content type. The spec declares
   * 400 as `text/plain` only; Canton also answers 400 with a JsCantonError JSON body (e.g. INVALID_ARGUMENT),
   * so when the status-specific response has no media type for the content type, `default` is used.
   */
  responseSchema(
    method: string,
    apiPath: string,
    status: number,
    contentType = 'application/json',
  ): { schema: unknown; contentType: string } {
    const paths = this.doc.paths as Record<string, Record<string, Json>>;
    const op = paths[apiPath]?.[method.toLowerCase()];
    if (!op) throw new Error(`spec has no operation ${method} ${apiPath}`);
    const responses = op.responses as Record<string, Json>;
    const mediaOf = (resp: Json | undefined): { schema: unknown } | undefined => {
      const content = resp?.content as Record<string, { schema: unknown }> | undefined;
      return content?.[contentType];
    };
    const exact = responses[String(status)];
    if (exact && !exact.content) return { schema: undefined, contentType: '' };
    const media = mediaOf(exact) ?? mediaOf(responses.default);
    if (!media) throw new Error(`spec has no ${contentType} response ${status} (or default) for ${method} ${apiPath}`);
    return { schema: media.schema, contentType };
  }

  /** Throws with ajv errors unless `body` matches the spec's schema for that operation/status. */
  assertResponse(method: string, apiPath: string, status: number, body: unknown): void {
    const { schema } = this.responseSchema(method, apiPath, status);
    if (schema === undefined) return;
    const v = this.compile(schema);
    if (!v(body)) {
      throw new Error(
        `response of ${method} ${apiPath} (${status}) does not match spec: ${JSON.stringify(v.errors?.slice(0, 5))}\n` +
          `body: ${JSON.stringify(body).slice(0, 2000)}`,
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

/**
 * A simulator context (no server) on a temp data dir, for commit-path tests: its ledger writer, party Alice, the
 * offsets of the 'commit' events it emits, and the ledger end as committed in the file, read over a second connection
 * as another process would (committed data only, durable or not). `dispose` closes both connections, deletes the dir.
 */
export function openCommitTestLedger(
  prefix: string,
  opts: Omit<Parameters<typeof openSimContext>[0], 'dataDir'> = {},
  ownCheckpoints = false,
) {
  const dataDir = makeTempDir(prefix);
  const { sim, db } = openSimContext({ ...opts, dataDir }, ownCheckpoints);
  const writer = new LedgerWriter(sim);
  const alice = writer.allocateParty({ partyIdHint: 'Alice' }).party;
  const commits: number[] = [];
  sim.events.on('commit', (offset: number) => commits.push(offset));
  const reader = new Database(path.join(dataDir, DB_FILE), { readonly: true });
  const endStmt = reader.prepare("SELECT value FROM meta WHERE key = 'ledger_end'").pluck();
  return {
    sim,
    dataDir,
    writer,
    alice,
    commits,
    committedEnd: (): number => Number(endStmt.get()),
    /** Closes the second connection (a test that closes the database itself, as the last connection, needs this). */
    closeReader: (): void => {
      reader.close();
    },
    dispose: (): void => {
      reader.close();
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A file sync (WAL or database file) the test releases (`release`) or fails (`fail`), one held call at a time. */
export function heldSync() {
  const held: Array<{ fd: number; done: (err: NodeJS.ErrnoException | null) => void }> = [];
  let calls = 0;
  let passing = false;
  const sync: SyncFile = (fd, done) => {
    calls++;
    if (passing) fs.fdatasync(fd, done);
    else held.push({ fd, done });
  };
  return {
    sync,
    /** From now on every sync runs at once (the held ones too). */
    passThrough(): void {
      passing = true;
      for (const h of held.splice(0)) fs.fdatasync(h.fd, h.done);
    },
    held: () => held.length,
    /** The file descriptors of the held syncs, oldest first. */
    heldFds: () => held.map((h) => h.fd),
    calls: () => calls,
    release(): void {
      for (const h of held.splice(0)) fs.fdatasync(h.fd, h.done);
    },
    /** Runs the sync held last (the others stay held). */
    releaseNewest(): void {
      const h = held.pop();
      if (h) fs.fdatasync(h.fd, h.done);
    },
    fail(): void {
      for (const h of held.splice(0)) h.done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    },
  };
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

// ---------------------------------------------------------------------------------------------
// Ledger helpers used by several test files
// ---------------------------------------------------------------------------------------------

export const DEMO_PKG = '#simulator-demo';
export const IOU = `${DEMO_PKG}:Demo.Iou:Iou`;
export const IOU_PROPOSAL = `${DEMO_PKG}:Demo.Iou:IouProposal`;
export const ACCOUNT = `${DEMO_PKG}:Demo.Account:Account`;
export const ASSET = `${DEMO_PKG}:Demo.Asset:Asset`;

export async function allocate(base: string, hint: string): Promise<string> {
  const r = await call(base, 'POST', '/v2/parties', { body: { partyIdHint: hint } });
  if (r.status !== 200) throw new Error(`allocate ${hint}: ${r.status} ${r.text}`);
  return (r.json as { partyDetails: { party: string } }).partyDetails.party;
}

let commandCounter = 0;
export const nextCommandId = (prefix = 'cmd'): string => `${prefix}-${process.pid}-${++commandCounter}`;

export interface TxResult {
  updateId: string;
  offset: number;
  events: Record<string, Record<string, unknown>>[];
  created: { contractId: string; templateId: string; createArgument: Record<string, unknown> }[];
}

/** submit-and-wait-for-transaction with LEDGER_EFFECTS for the submitters; throws on failure. */
export async function submitTx(base: string, actAs: string[], commands: unknown[], extra: Record<string, unknown> = {}): Promise<TxResult> {
  const r = await call(base, 'POST', '/v2/commands/submit-and-wait-for-transaction', {
    body: {
      commands: { commandId: nextCommandId(), actAs, commands, ...extra },
      transactionFormat: {
        transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
        eventFormat: { filtersByParty: Object.fromEntries(actAs.map((p) => [p, {}])) },
      },
    },
  });
  if (r.status !== 200) throw new Error(`submit failed ${r.status}: ${r.text}`);
  const tx = (r.json as { transaction: { updateId: string; offset: number; events: Record<string, Record<string, unknown>>[] } })
    .transaction;
  const created = tx.events.filter((e) => 'CreatedEvent' in e).map((e) => e.CreatedEvent as unknown as TxResult['created'][number]);
  return { updateId: tx.updateId, offset: tx.offset, events: tx.events, created };
}

/** Raw submit-and-wait (no throw); validated against the spec. */
export async function submitRaw(base: string, commands: Record<string, unknown>): Promise<ApiResponse> {
  return call(base, 'POST', '/v2/commands/submit-and-wait', { body: { commandId: nextCommandId(), ...commands } });
}

export const createIou = (issuer: string, owner: string, amount: string, currency = 'USD', observers: string[] = []) => ({
  CreateCommand: { templateId: IOU, createArguments: { issuer, owner, currency, amount, observers } },
});

export const exercise = (templateId: string, contractId: string, choice: string, choiceArgument: unknown = {}) => ({
  ExerciseCommand: { templateId, contractId, choice, choiceArgument },
});

export const wildcard = (...parties: string[]) => ({ filtersByParty: Object.fromEntries(parties.map((p) => [p, {}])) });

export async function ledgerEnd(base: string): Promise<number> {
  return ((await call(base, 'GET', '/v2/state/ledger-end')).json as { offset: number }).offset;
}

export async function acs(base: string, eventFormat: unknown, activeAtOffset?: number): Promise<Record<string, unknown>[]> {
  const at = activeAtOffset ?? (await ledgerEnd(base));
  const r = await call(base, 'POST', '/v2/state/active-contracts', { body: { activeAtOffset: at, eventFormat } });
  if (r.status !== 200) throw new Error(`acs failed ${r.status}: ${r.text}`);
  return r.json as Record<string, unknown>[];
}

/** Created events of the active contracts in an ACS answer. */
export function acsCreated(items: Record<string, unknown>[]): {
  contractId: string;
  templateId: string;
  createArgument: Record<string, unknown>;
  witnessParties: string[];
  interfaceViews?: { viewValue: unknown }[];
}[] {
  return items.flatMap((i) => {
    const entry = i.contractEntry as Record<string, { createdEvent: never }> | undefined;
    return entry?.JsActiveContract ? [entry.JsActiveContract.createdEvent] : [];
  });
}

export async function updates(base: string, req: Record<string, unknown>, path = '/v2/updates', query = ''): Promise<ApiResponse> {
  return call(base, 'POST', path, { path: path + query, body: req });
}

// ---------------------------------------------------------------------------------------------
// External parties (Ed25519 keys held by the test, as a wallet would)
// ---------------------------------------------------------------------------------------------

export interface ExternalKey {
  privateKey: KeyObject;
  spkiBase64: string;
  raw: Buffer;
  fingerprint: string;
}

export function newExternalKey(): ExternalKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const raw = spki.subarray(12);
  const purpose = Buffer.alloc(4);
  purpose.writeUInt32BE(12);
  const fingerprint = `1220${createHash('sha256')
    .update(Buffer.concat([purpose, raw]))
    .digest('hex')}`;
  return { privateKey, spkiBase64: spki.toString('base64'), raw, fingerprint };
}

export const signBase64 = (key: ExternalKey, messageBase64: string): string =>
  sign(null, Buffer.from(messageBase64, 'base64'), key.privateKey).toString('base64');

export async function onboardExternal(base: string, synchronizer: string, hint: string, key: ExternalKey): Promise<string> {
  const gen = await call(base, 'POST', '/v2/parties/external/generate-topology', {
    body: {
      synchronizer,
      partyHint: hint,
      publicKey: {
        format: 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO',
        keyData: key.spkiBase64,
        keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
      },
    },
  });
  if (gen.status !== 200) throw new Error(gen.text);
  const g = gen.json as { partyId: string; topologyTransactions: string[]; multiHash: string };
  const alloc = await call(base, 'POST', '/v2/parties/external/allocate', {
    body: {
      synchronizer,
      onboardingTransactions: g.topologyTransactions.map((transaction) => ({ transaction })),
      multiHashSignatures: [
        {
          format: 'SIGNATURE_FORMAT_RAW',
          signature: signBase64(key, g.multiHash),
          signedBy: key.fingerprint,
          signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
        },
      ],
    },
  });
  if (alloc.status !== 200) throw new Error(alloc.text);
  return (alloc.json as { partyId: string }).partyId;
}

/** A WebSocket message's text, whichever of its three shapes (Buffer, ArrayBuffer, fragments) ws delivers it in. */
export function wsText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
