/**
 * Issue #13, proof: a seeded fuzz of WebSocket upgrade requests and frames against the browser host (IPC at /ipc) and
 * the embedded simulator (its stream channels), 6,000 cases, 24 at a time. Upgrade cases mutate the request line and
 * headers (Host, Origin, key, version, subprotocols, tokens), truncate them, send raw bytes, and end with a read, a
 * FIN or an RST. Frame cases open a valid connection and send 1–6 mutated frames: reserved bits and opcodes, unmasked
 * or fragmented frames, lying lengths, invalid UTF-8, control frames with long payloads, close frames with any code,
 * binary IPC frames with broken headers, and JSON messages mutated from valid IPC and stream requests. The console
 * must not crash, and must answer normally afterwards. FUZZ_SEED replays a run.
 */
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleProcess } from '../support/console-process.js';
import { clientFrame, expectAlive, simulatorPort, startConsole } from './net-helpers.js';
import { ifAssigned } from '../support/if-assigned.js';

const SEED = Number(process.env.FUZZ_SEED ?? 0x13c0ffee);
const CASES = 6_000;
const PARALLEL = 24;

/** mulberry32: a small seeded PRNG, so a failing run can be replayed with its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const int = (r: Rand, n: number): number => Math.floor(r() * n);
function pick<T>(r: Rand, xs: readonly T[]): T {
  const i = int(r, xs.length);
  if (i >= xs.length) throw new Error(`picked index ${i} of ${xs.length} values`);
  return xs[i] as T; // an element of the list, which may itself be null
}
const chance = (r: Rand, p: number): boolean => r() < p;
const bytes = (r: Rand, n: number): Buffer => Buffer.from(Array.from({ length: n }, () => int(r, 256)));

const WEIRD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'é',
  '💥',
  '%00',
  '../../etc/passwd',
  'a'.repeat(9000),
  '{"',
  '\\',
  '\r\n',
  'null',
  '-1',
  '1e309',
];
const weird = (r: Rand): string => (chance(r, 0.5) ? pick(r, WEIRD_STRINGS) : bytes(r, int(r, 40)).toString('latin1'));

/** Mutates a JSON value: replaces, deletes or adds fields, changes types, nests it, truncates its text. */
function mutate(r: Rand, v: unknown, depth = 0): unknown {
  if (depth > 4 || chance(r, 0.15)) return pick(r, [null, true, -1, 2 ** 53, 1e308, 'x', weird(r), [], {}, [[[[]]]]] as unknown[]);
  if (Array.isArray(v)) {
    const items: unknown[] = v;
    return chance(r, 0.3) ? [] : items.map((x) => (chance(r, 0.3) ? mutate(r, x, depth + 1) : x));
  }
  if (typeof v === 'object' && v !== null) {
    const o: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    for (const k of Object.keys(o)) if (chance(r, 0.3)) o[k] = mutate(r, o[k], depth + 1);
    if (chance(r, 0.2)) Reflect.deleteProperty(o, pick(r, Object.keys(o).concat('x')));
    if (chance(r, 0.2)) o[weird(r)] = mutate(r, 0, depth + 1);
    if (chance(r, 0.05)) o.__proto__ = { polluted: true };
    return o;
  }
  return chance(r, 0.5) ? v : mutate(r, {}, depth + 1);
}

function jsonText(r: Rand, v: unknown): Buffer {
  // JSON.stringify(undefined) is undefined, whatever its declared type says
  const text = v === undefined ? 'null' : JSON.stringify(v);
  if (chance(r, 0.1)) return Buffer.from(text.slice(0, int(r, text.length)));
  if (chance(r, 0.05)) return Buffer.from('['.repeat(int(r, 100_000)));
  return Buffer.from(text);
}

const IPC_MESSAGES = [
  { type: 'invoke', id: 1, channel: 'app.info', payload: {} },
  { type: 'invoke', id: 2, channel: 'profiles.list', payload: {} },
  { type: 'invoke', id: 3, channel: 'dashboard.snapshot', payload: {} },
  { type: 'invoke', id: 4, channel: 'parties.list', payload: { filter: '' } },
  { type: 'invoke', id: 5, channel: 'updates.range', payload: { beginExclusive: 0, endInclusive: 5, filter: {} } },
  { type: 'subscribe', id: 6, channel: 'dashboard.live', params: { intervalMs: 60_000 } },
  { type: 'subscribe', id: 7, channel: 'updates.stream', params: { streamId: 'fuzz-stream-1', filter: {}, beginExclusive: 0 } },
  { type: 'unsubscribe', id: 6 },
  { type: 'cancel', id: 5 },
  { type: 'invoke', id: 8, channel: '__proto__', payload: {} },
];
const STREAM_REQUESTS: [string, unknown][] = [
  [
    '/v2/updates',
    {
      beginExclusive: 0,
      updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
    },
  ],
  ['/v2/updates/flats', { beginExclusive: 0, endInclusive: 3, filter: { filtersByParty: {} }, verbose: true }],
  ['/v2/state/active-contracts', { activeAtOffset: 0, eventFormat: { filtersForAnyParty: {} } }],
  ['/v2/commands/completions', { beginExclusive: 0, parties: [] }],
];

let proc: ConsoleProcess;
beforeAll(async () => {
  proc = await startConsole();
}, 60_000);
afterAll(async () => {
  await ifAssigned(proc)?.stop();
});

interface Target {
  port: number;
  host: string;
  validUpgrade: (r: Rand) => string;
  message: (r: Rand) => Buffer;
}

function upgradeText(path: string, headers: [string, string][]): string {
  return [`GET ${path} HTTP/1.1`, ...headers.map(([k, v]) => `${k}: ${v}`)].join('\r\n') + '\r\n\r\n';
}

function baseHeaders(host: string): [string, string][] {
  return [
    ['Host', host],
    ['Connection', 'Upgrade'],
    ['Upgrade', 'websocket'],
    ['Sec-WebSocket-Version', '13'],
    ['Sec-WebSocket-Key', randomBytes(16).toString('base64')],
  ];
}

/** An upgrade request with 1–4 mutations of its parts. */
function fuzzedUpgrade(r: Rand, t: Target): Buffer {
  if (chance(r, 0.05)) return bytes(r, int(r, 2000));
  let text = t.validUpgrade(r);
  for (let m = 1 + int(r, 4); m > 0; m--) {
    const lines = text.split('\r\n');
    switch (int(r, 8)) {
      case 0:
        lines[0] =
          `${pick(r, ['GET', 'POST', 'OPTIONS', 'GE T', weird(r)])} ` +
          `${pick(r, ['/ipc', '/v2/updates', '/', '*', weird(r), '/' + 'a'.repeat(int(r, 20_000))])} ` +
          pick(r, ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2', weird(r)]);
        break;
      case 1:
        lines.splice(1 + int(r, Math.max(1, lines.length - 3)), 1);
        break;
      case 2:
        lines.splice(
          1,
          0,
          pick(r, [
            'Host',
            'Origin',
            'Sec-WebSocket-Key',
            'Sec-WebSocket-Version',
            'Sec-WebSocket-Protocol',
            'Authorization',
            'Sec-Fetch-Site',
            'Upgrade',
            'Connection',
            'Content-Length',
            'Transfer-Encoding',
            weird(r),
          ]) + `: ${weird(r)}`,
        );
        break;
      case 3:
        lines.splice(
          1,
          0,
          'Sec-WebSocket-Protocol: daml.ws.auth, jwt.token.' +
            pick(r, ['', 'x', 'a.b.c', `e30.${Buffer.from(weird(r)).toString('base64url')}.x`, weird(r)]),
        );
        break;
      case 4:
        lines.splice(
          1,
          0,
          'Authorization: ' +
            pick(r, [
              'Bearer',
              'Bearer ',
              'Basic x',
              `Bearer ${weird(r)}`,
              `Bearer a.${Buffer.from('{"sub":' + JSON.stringify(weird(r)) + '}').toString('base64url')}.c`,
            ]),
        );
        break;
      case 5:
        lines.splice(1, 0, `X-Fuzz: ${'v'.repeat(int(r, 70_000))}`);
        break;
      case 6:
        text = lines.join('\r\n');
        text = text.slice(0, int(r, text.length));
        continue;
      default:
        lines.splice(
          1,
          0,
          `Sec-WebSocket-Extensions: ${pick(r, ['permessage-deflate', 'permessage-deflate; client_max_window_bits=1', weird(r)])}`,
        );
    }
    text = lines.join('\r\n');
  }
  return Buffer.from(text, 'latin1');
}

/** 1–6 frames, most of them broken in some way. */
function fuzzedFrames(r: Rand, t: Target): Buffer[] {
  const frames: Buffer[] = [];
  for (let n = 1 + int(r, 6); n > 0; n--) {
    const payload = chance(r, 0.6) ? t.message(r) : bytes(r, int(r, 300));
    switch (int(r, 10)) {
      case 0:
        frames.push(clientFrame(pick(r, [0x3, 0x4, 0x5, 0x6, 0x7, 0xb, 0xc, 0xf]), payload));
        break;
      case 1:
        frames.push(clientFrame(0x1, payload, { rsv: 1 + int(r, 7) }));
        break;
      case 2: {
        // unmasked: a client frame without the mask bit
        const f = clientFrame(0x1, Buffer.alloc(0));
        frames.push(
          Buffer.from([f.readUInt8(0), payload.length < 126 ? payload.length : 0]),
          payload.length < 126 ? payload : Buffer.alloc(0),
        );
        break;
      }
      case 3:
        frames.push(
          clientFrame(0x1, payload, { declaredLength: pick(r, [2 ** 31, 2 ** 53, 70_000, 17 * 1024 * 1024, payload.length + 5]) }),
        );
        break;
      case 4:
        frames.push(clientFrame(0x1, Buffer.concat([payload, Buffer.from([0xc3, 0x28, 0xff])])));
        break;
      case 5:
        frames.push(clientFrame(pick(r, [0x8, 0x9, 0xa]), bytes(r, pick(r, [0, 1, 2, 125, 126, 200]))));
        break;
      case 6:
        frames.push(
          clientFrame(0x1, payload.subarray(0, payload.length >> 1), { fin: false }),
          clientFrame(pick(r, [0x0, 0x1, 0x9]), payload.subarray(payload.length >> 1), { fin: chance(r, 0.7) }),
        );
        break;
      case 7:
        frames.push(
          clientFrame(0x2, chance(r, 0.5) ? bytes(r, int(r, 200)) : Buffer.concat([Buffer.from([0, 0, 0, int(r, 255)]), payload])),
        );
        break;
      default:
        frames.push(clientFrame(0x1, payload));
    }
  }
  if (chance(r, 0.3)) frames.push(Buffer.from(bytes(r, int(r, 50))));
  return frames;
}

/** Runs one case on a fresh connection: writes `chunks` (pieces at random), then reads, FINs or RSTs. */
function runCase(r: Rand, port: number, chunks: Buffer[]): Promise<'answered' | 'closed' | 'reset' | 'timeout'> {
  const ending = int(r, 3);
  const waitMs = 30 + int(r, 150);
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answered = false;
    const timer = setTimeout(() => {
      if (ending === 2) socket.resetAndDestroy();
      else socket.destroy();
      resolve(answered ? 'answered' : 'timeout');
    }, waitMs);
    socket.on('data', () => (answered = true));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answered ? 'answered' : 'closed');
    });
    socket.on('connect', () => {
      for (const c of chunks) if (!socket.destroyed) socket.write(c);
      if (ending === 1) socket.end();
      else if (ending === 2 && chance(r, 0.5)) {
        clearTimeout(timer);
        socket.resetAndDestroy();
        resolve('reset');
      }
    });
  });
}

describe(`seeded WebSocket fuzz (seed ${SEED.toString(16)}, ${CASES} cases)`, () => {
  it('the console neither crashes nor stops answering', async () => {
    const hostTarget: Target = {
      port: proc.port,
      host: `127.0.0.1:${proc.port}`,
      validUpgrade: () =>
        upgradeText(`/ipc?token=${encodeURIComponent(proc.token)}`, [...baseHeaders(`127.0.0.1:${proc.port}`), ['Origin', proc.origin]]),
      message: (r) => jsonText(r, chance(r, 0.8) ? mutate(r, pick(r, IPC_MESSAGES)) : pick(r, IPC_MESSAGES)),
    };
    const simPort = simulatorPort(proc);
    const simTarget: Target = {
      port: simPort,
      host: `127.0.0.1:${simPort}`,
      validUpgrade: (r) =>
        upgradeText(pick(r, STREAM_REQUESTS)[0], [...baseHeaders(`127.0.0.1:${simPort}`), ['Sec-WebSocket-Protocol', 'daml.ws.auth']]),
      message: (r) => {
        const [, req] = pick(r, STREAM_REQUESTS);
        return jsonText(r, chance(r, 0.8) ? mutate(r, req) : req);
      },
    };
    const outcomes: Record<string, number> = {};
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < CASES; i = next++) {
        const r = prng(SEED ^ Math.imul(i + 1, 0x9e3779b1));
        const t = i % 2 === 0 ? hostTarget : simTarget;
        const frameCase = chance(r, 0.5);
        const request = frameCase ? Buffer.from(t.validUpgrade(r)) : fuzzedUpgrade(r, t);
        const chunks = frameCase ? [request, ...fuzzedFrames(r, t)] : [request];
        const outcome = await runCase(r, t.port, chunks);
        const key = `${t === hostTarget ? 'host' : 'sim'} ${frameCase ? 'frames' : 'upgrade'} ${outcome}`;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
        if (i % 250 === 0 && !proc.running())
          throw new Error(`the console exited after case ${i} (seed ${SEED}):\n${proc.output().slice(-3000)}`);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, () => worker()));
    const total = Object.values(outcomes).reduce((a, b) => a + b, 0);
    expect(total).toBe(CASES);
    expect(proc.running(), proc.output().slice(-3000)).toBe(true);
    await expectAlive(proc);
    expect(proc.output()).not.toMatch(/uncaught|unhandled/i);
    process.stdout.write(`ws fuzz seed ${SEED.toString(16)}: ${JSON.stringify(outcomes)}\n`);
  }, 600_000);
});
