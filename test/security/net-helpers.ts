/**
 * Raw-socket helpers for the security suite (issue #13): HTTP upgrade requests written byte by byte, a minimal
 * WebSocket client that can send frames no well-behaved library would (invalid UTF-8, lying lengths, reserved
 * opcodes), TCP resets, and the liveness check every test ends with.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { simulatorUrl } from '../support/e2e.js';
import { withConsoleClient } from '../support/console-ipc.js';

export interface RawAnswer {
  /** Status code of the HTTP answer, or null when the server closed without answering. */
  status: number | null;
  head: string;
  body: string;
  /** The socket after a 101 (still open), for frame-level tests. */
  socket?: Socket;
  /** Bytes that arrived after the head (already frames when status is 101). */
  rest: Buffer;
}

/** Connects, writes `request`, and resolves with the answer head (and body, until close or `timeoutMs`). */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let settled = false;
    const finish = (keepOpen: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const text = buf.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const head = end < 0 ? text : text.slice(0, end);
      const rest = end < 0 ? Buffer.alloc(0) : buf.subarray(end + 4);
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      const status = m ? Number(m[1]) : null;
      if (!keepOpen) socket.destroy();
      resolve({ status, head, body: rest.toString('utf8'), rest, ...(keepOpen ? { socket } : {}) });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const text = buf.toString('latin1');
      if (/^HTTP\/1\.1 101 /.test(text) && text.includes('\r\n\r\n')) {
        socket.removeAllListeners('data');
        finish(true);
      }
    });
    socket.on('end', () => finish(false));
    socket.on('close', () => finish(false));
    socket.on('error', (e) => (settled ? undefined : buf.length > 0 ? finish(false) : reject(e)));
    socket.write(request);
  });
}

/** An HTTP/1.1 WebSocket upgrade request. */
export function upgradeRequest(path: string, headers: Record<string, string>): string {
  const lines = [
    `GET ${path} HTTP/1.1`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return lines.join('\r\n') + '\r\n\r\n';
}

/** A client frame (always masked, as RFC 6455 requires of clients); `declaredLength` may lie about the payload. */
export function clientFrame(opcode: number, payload: Buffer, opts: { fin?: boolean; rsv?: number; declaredLength?: number } = {}): Buffer {
  const len = opts.declaredLength ?? payload.length;
  const first = ((opts.fin ?? true) ? 0x80 : 0) | ((opts.rsv ?? 0) << 4) | (opcode & 0x0f);
  let header: Buffer;
  if (len < 126) header = Buffer.from([first, 0x80 | len]);
  else if (len < 65536) {
    header = Buffer.alloc(4);
    header[0] = first;
    header[1] = 0x80 | 126;
    header.writeUInt16BE(len, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(len), 2);
  }
  const mask = randomBytes(4);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++) masked[i] = masked.readUInt8(i) ^ mask.readUInt8(i % 4);
  return Buffer.concat([header, mask, masked]);
}

/** Server frames parsed from a buffer (unmasked); incomplete trailing bytes are ignored. */
export function serverFrames(buf: Buffer): { opcode: number; payload: Buffer }[] {
  const out: { opcode: number; payload: Buffer }[] = [];
  let off = 0;
  while (off + 2 <= buf.length) {
    const opcode = buf.readUInt8(off) & 0x0f;
    let len = buf.readUInt8(off + 1) & 0x7f;
    let p = off + 2;
    if (len === 126) {
      if (p + 2 > buf.length) break;
      len = buf.readUInt16BE(p);
      p += 2;
    } else if (len === 127) {
      if (p + 8 > buf.length) break;
      len = Number(buf.readBigUInt64BE(p));
      p += 8;
    }
    if (p + len > buf.length) break;
    out.push({ opcode, payload: buf.subarray(p, p + len) });
    off = p + len;
  }
  return out;
}

/** Collects what the server sends on an upgraded socket until it closes (or `timeoutMs`). */
export function readUntilClosed(
  socket: Socket,
  initial: Buffer,
  timeoutMs = 10_000,
): Promise<{ frames: { opcode: number; payload: Buffer }[]; closed: boolean }> {
  return new Promise((resolve) => {
    let buf = initial;
    const done = (closed: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ frames: serverFrames(buf), closed });
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('data', (d: Buffer) => (buf = Buffer.concat([buf, d])));
    socket.on('error', () => undefined);
    socket.once('close', () => done(true));
  });
}

/** The close code of the first close frame, if any. */
export function closeCode(frames: { opcode: number; payload: Buffer }[]): number | undefined {
  const c = frames.find((f) => f.opcode === 0x8);
  return c && c.payload.length >= 2 ? c.payload.readUInt16BE(0) : undefined;
}

/** Connects, writes `request`, and resets the connection (RST, not FIN) right after. */
export function writeThenReset(port: number, request: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(request, () => {
        socket.resetAndDestroy();
        resolve();
      });
    });
    socket.on('error', () => resolve());
  });
}

/** The real console (browser host + embedded simulator) as a child process, once both servers have printed their URLs. */
export async function startConsole(
  extraArgs: string[] = [],
  opts: { dataDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ConsoleProcess> {
  const proc = await startConsoleProcess(extraArgs, opts);
  const deadline = Date.now() + 30_000;
  // the simulator's URL line can follow "Console ready" on the other stream
  while (!/Embedded simulator \(demo mode\)/.test(proc.output())) {
    if (Date.now() > deadline || !proc.running()) throw new Error(`no embedded simulator URL:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return proc;
}

export const simulatorPort = (proc: ConsoleProcess): number => Number(new URL(simulatorUrl(proc)).port);

/**
 * One HTTP request on a connection of its own. A pooled keep-alive connection (fetch's) can be closed by the server's
 * keep-alive timeout just as it is reused when this process was stalled for a few seconds (a loaded machine, a test
 * that builds a large buffer synchronously): the request then fails on the client side although the server is fine.
 */
export function httpOnce(
  method: string,
  url: string,
  body?: Uint8Array,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent: false, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The console process is still running and both its servers answer. */
export async function expectAlive(proc: ConsoleProcess): Promise<void> {
  if (!proc.running()) throw new Error(`the console process exited:\n${proc.output().slice(-4000)}`);
  const sim = await httpOnce('GET', `${simulatorUrl(proc)}/v2/version`);
  if (sim.status !== 200) throw new Error(`the simulator answered /v2/version with ${sim.status}`);
  // the host answers over its IPC WebSocket, as the renderer uses it
  const info = await withConsoleClient(proc, (client) => client.call('app.info', {}));
  if (info.name === '') throw new Error('app.info answered without a name');
}
