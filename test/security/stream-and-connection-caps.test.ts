/**
 * Issue #13 item 8: nothing bounded what other local clients could make the console hold — 300 idle sockets stayed
 * open, 1,000 WebSocket subscribers that never read grew the process to 1.26 GB. Now:
 * - the embedded simulator serves at most `maxStreams` (100) WebSocket streams at once (one more: 429
 *   MAXIMUM_NUMBER_OF_STREAMS, as Canton names it), and closes a stream whose request never arrives;
 * - host and simulator close connections that send no complete request head within 10 s / 15 s, and take a bounded
 *   number of connections at once;
 * - the browser host disconnects an IPC client that stops reading (close 1008) instead of buffering every event for
 *   it, and bounds subscriptions and calls per connection (LIMIT_REACHED).
 * Memory is the console process's resident set, read with `ps`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleProcess } from '../support/console-process.js';
import { IPC_LIMITS } from '../../src/host/server.js';
import { defaultSettings } from '../../src/simulator/settings.js';
import { bulkLoad } from '../../src/simulator/bulk.js';
import {
  clientFrame,
  closeCode,
  expectAlive,
  rawRequest,
  serverFrames,
  simulatorPort,
  startConsole,
  upgradeRequest,
} from './net-helpers.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

const MiB = 1024 * 1024;
const rssBytes = (pid: number): number =>
  Number(
    execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
      .toString()
      .trim(),
  ) * 1024;
const until = async (cond: () => boolean, timeoutMs: number): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
};

let proc: ConsoleProcess;
let dataDir: string;
beforeAll(async () => {
  // ledger volume, so that a subscriber that does not read has something to pile up: 20,000 transactions
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'caps-'));
  bulkLoad({ dataDir: path.join(dataDir, 'simulator'), partyHints: ['CapsBank', 'CapsAlice'], contracts: 20_000 });
  proc = await startConsole([], { dataDir });
}, 180_000);
afterAll(async () => {
  await ifAssigned(proc)?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Opens a simulator WebSocket stream of the whole ledger and never reads from it. */
async function nonReadingStream(port: number): Promise<{ status: number | null; body: string; socket?: Socket }> {
  const answer = await rawRequest(
    port,
    upgradeRequest('/v2/updates', { Host: `127.0.0.1:${port}`, 'Sec-WebSocket-Protocol': 'daml.ws.auth' }),
  );
  if (answer.status === 101) {
    const request = {
      beginExclusive: 0,
      updateFormat: {
        includeTransactions: { eventFormat: { filtersForAnyParty: {}, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
      },
    };
    must(answer.socket, 'answer.socket').write(clientFrame(0x1, Buffer.from(JSON.stringify(request))));
    must(answer.socket, 'answer.socket').pause();
    must(answer.socket, 'answer.socket').on('error', () => undefined);
  }
  return answer;
}

describe('simulator WebSocket streams', () => {
  it(`at most maxStreams (${defaultSettings().maxStreams}) at once: 300 subscribers that never read, memory stays bounded`, async () => {
    const port = simulatorPort(proc);
    const before = rssBytes(proc.pid);
    const opened: Socket[] = [];
    const refused: string[] = [];
    for (let i = 0; i < 300; i++) {
      const a = await nonReadingStream(port);
      if (a.socket) opened.push(a.socket);
      else refused.push(a.body);
      expect([101, 429]).toContain(a.status);
    }
    expect(opened).toHaveLength(defaultSettings().maxStreams);
    const err = JSON.parse(must(refused[0], 'refused[0]')) as { code: string; cause: string };
    expect(err.code).toBe('MAXIMUM_NUMBER_OF_STREAMS');
    expect(err.cause).toContain(`has reached or exceeded the limit (${defaultSettings().maxStreams})`);
    // every accepted stream has sent what its buffer takes; the process holds at most ~1 MiB per stream more
    await new Promise((r) => setTimeout(r, 3_000));
    const grown = rssBytes(proc.pid) - before;
    expect(grown, `grew by ${Math.round(grown / MiB)} MiB`).toBeLessThan(300 * MiB);
    for (const s of opened) s.destroy();
    // the slots come back once the other streams are gone
    let again: Awaited<ReturnType<typeof nonReadingStream>> | undefined;
    for (let i = 0; i < 100 && again?.status !== 101; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 100));
      again = await nonReadingStream(port);
    }
    expect(again?.status).toBe(101);
    again?.socket?.destroy();
    await expectAlive(proc);
  }, 120_000);

  it('a stream whose request message never arrives is ended with an error after streamRequestTimeoutMs', async () => {
    const port = simulatorPort(proc);
    const answer = await rawRequest(
      port,
      upgradeRequest('/v2/updates', { Host: `127.0.0.1:${port}`, 'Sec-WebSocket-Protocol': 'daml.ws.auth' }),
    );
    expect(answer.status).toBe(101);
    const socket = must(answer.socket, 'answer.socket');
    let buf = answer.rest;
    socket.on('data', (d: Buffer) => (buf = Buffer.concat([buf, d])));
    const started = Date.now();
    expect(await until(() => closeCode(serverFrames(buf)) !== undefined, defaultSettings().streamRequestTimeoutMs + 10_000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(defaultSettings().streamRequestTimeoutMs - 1_000);
    const text = must(
      serverFrames(buf).find((f) => f.opcode === 0x1),
      'serverFrames(buf) .find((f) => f.opcode === 0x1)',
    ).payload.toString();
    expect((JSON.parse(text) as { code: string }).code).toBe('INVALID_ARGUMENT');
    socket.destroy();
  }, 60_000);
});

describe('idle connections', () => {
  /** Opens `n` TCP connections that send `prefix` (maybe nothing) and then nothing more; resolves once all are connected. */
  async function idle(port: number, n: number, prefix = ''): Promise<{ sockets: Socket[]; closed: () => number }> {
    let closed = 0;
    const sockets = await Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<Socket>((resolve) => {
            const s = connect(port, '127.0.0.1', () => {
              if (prefix) s.write(prefix);
              resolve(s);
            });
            s.on('error', () => undefined);
            s.on('close', () => closed++);
            s.resume();
          }),
      ),
    );
    return { sockets, closed: () => closed };
  }

  it('300 idle and trickling connections to the host and to the simulator are closed within 40 s', async () => {
    const host = await idle(proc.port, 300);
    const hostTrickle = await idle(proc.port, 5, 'GET / HTTP/1.1\r\n');
    const sim = await idle(simulatorPort(proc), 300);
    const simTrickle = await idle(simulatorPort(proc), 5, 'POST /v2/parties HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const all = () => host.closed() + hostTrickle.closed() + sim.closed() + simTrickle.closed();
    // 10 s (host) / 15 s (simulator) plus the 2 s check interval; the backstop allows for a loaded machine, and is
    // still well below Node's defaults (60 s, checked every 30 s)
    const ok = await until(() => all() === 610, 40_000);
    expect(
      ok,
      `closed: host ${host.closed()}/300, host trickle ${hostTrickle.closed()}/5, ` +
        `simulator ${sim.closed()}/300, trickle ${simTrickle.closed()}/5`,
    ).toBe(true);
    await expectAlive(proc);
  }, 90_000);
});

describe('browser host IPC limits', () => {
  /** An authenticated IPC connection on a raw socket. */
  async function ipc(): Promise<{ socket: Socket; frames: () => Buffer; send: (msg: unknown) => void }> {
    const answer = await rawRequest(
      proc.port,
      upgradeRequest(`/ipc?token=${encodeURIComponent(proc.token)}`, { Host: `127.0.0.1:${proc.port}`, Origin: proc.origin }),
      60_000,
    );
    expect(answer.status).toBe(101);
    let buf = answer.rest;
    must(answer.socket, 'answer.socket').on('data', (d: Buffer) => (buf = Buffer.concat([buf, d])));
    must(answer.socket, 'answer.socket').on('error', () => undefined);
    return {
      socket: must(answer.socket, 'answer.socket'),
      frames: () => buf,
      send: (msg) => must(answer.socket, 'answer.socket').write(clientFrame(0x1, Buffer.from(JSON.stringify(msg)))),
    };
  }

  it('a client that subscribes and stops reading is disconnected (1008) instead of growing the host', async () => {
    const before = rssBytes(proc.pid);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(proc.pid) - before)), 250);
    const c = await ipc();
    try {
      c.socket.pause();
      let closed = false;
      c.socket.on('close', () => (closed = true));
      for (let i = 1; i <= 60; i++)
        c.send({
          type: 'subscribe',
          id: i,
          channel: 'updates.stream',
          params: { streamId: `nonreader-${i}`, filter: {}, beginExclusive: 0, backlog: 1_000_000 },
        });
      // the client keeps not reading until the host gives up on it (it says so in its log); a loaded machine only
      // makes that take longer, so the wait is on that condition
      const gaveUp = () => proc.output().includes('IPC connection closed: the client does not read its messages');
      expect(await until(gaveUp, 150_000)).toBe(true);
      // then the socket ends once the client reads what had been sent before
      c.socket.resume();
      expect(await until(() => closed, 30_000)).toBe(true);
    } finally {
      clearInterval(sampler);
      c.socket.destroy();
    }
    expect(peak, `grew by ${Math.round(peak / MiB)} MiB`).toBeLessThan(400 * MiB);
    await expectAlive(proc);
  }, 240_000);

  it(`at most ${IPC_LIMITS.subscriptions} subscriptions per connection (LIMIT_REACHED), and the connection keeps working`, async () => {
    const c = await ipc();
    try {
      for (let i = 1; i <= IPC_LIMITS.subscriptions + 2; i++)
        c.send({ type: 'subscribe', id: i, channel: 'dashboard.live', params: { intervalMs: 60_000 } });
      const limited = () =>
        serverFrames(c.frames())
          .filter((f) => f.opcode === 0x1)
          .map((f) => JSON.parse(f.payload.toString()) as { type: string; id?: number; error?: { code: string } })
          .filter((m) => m.type === 'subscriptionError' && m.error?.code === 'LIMIT_REACHED');
      expect(await until(() => limited().length === 2, 60_000)).toBe(true);
      expect(limited().map((m) => m.id)).toEqual([IPC_LIMITS.subscriptions + 1, IPC_LIMITS.subscriptions + 2]);
      for (let i = 1; i <= IPC_LIMITS.subscriptions; i++) c.send({ type: 'unsubscribe', id: i });
      c.send({ type: 'invoke', id: 9_999, channel: 'app.info', payload: {} });
      const answered = () => serverFrames(c.frames()).some((f) => f.opcode === 0x1 && f.payload.toString().includes('"id":9999'));
      expect(await until(answered, 60_000)).toBe(true);
    } finally {
      c.socket.destroy();
    }
  }, 180_000);
});
