/**
 * Issue #13 items 4 and 8, DAR uploads: 8 small DAR bombs froze the console for 21.7 s (DARs were decoded on the event
 * loop; the decoding now runs in a worker thread), and 3 parallel 200 MB uploads grew it to 1.3 GB (bodies of up to
 * 256 MiB, all read at once, copied once more to concatenate). Now the embedded simulator refuses a DAR larger than the
 * console ever uploads (64 MiB) — from its Content-Length before reading it, else as soon as the body passes the
 * limit — and reads one upload at a time, the others waiting unread. The process must stay responsive and small.
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleProcess } from '../support/console-process.js';
import { simulatorUrl } from '../support/e2e.js';
import { MAX_DAR_BYTES } from '../../src/ipc/channels/packages.js';
import { expectAlive, httpOnce, simulatorPort, startConsole } from './net-helpers.js';
import { ifAssigned } from '../support/if-assigned.js';

const MiB = 1024 * 1024;
const rssBytes = (pid: number): number =>
  Number(
    execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
      .toString()
      .trim(),
  ) * 1024;

let proc: ConsoleProcess;
beforeAll(async () => {
  proc = await startConsole();
}, 60_000);
afterAll(async () => {
  await ifAssigned(proc)?.stop();
});

/** POSTs `total` bytes to /v2/dars in 1 MiB pieces (with or without a Content-Length); resolves with the status. */
function upload(total: number, withLength: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const piece = Buffer.alloc(MiB, 0x50);
    const trail: string[] = [];
    let answered = false;
    const req = request(
      `${simulatorUrl(proc)}/v2/dars`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', ...(withLength ? { 'content-length': String(total) } : {}) },
      },
      (res) => {
        answered = true;
        trail.push(`answer ${res.statusCode} after ${sent} bytes`);
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', (e) => reject(new Error(`answer cut: ${e.message} (${trail.join(', ')})`)));
      },
    );
    // the simulator answers and closes before taking the whole body: the rest of the write fails, as expected
    req.on('error', (e) => trail.push(`request error ${(e as NodeJS.ErrnoException).code ?? e.message} after ${sent} bytes`));
    req.on('close', () => {
      if (!answered) reject(new Error(`the connection closed without an answer (${trail.join(', ')})`));
    });
    let sent = 0;
    const pump = (): void => {
      while (sent < total && !req.destroyed) {
        const n = Math.min(piece.length, total - sent);
        sent += n;
        if (!req.write(n === piece.length ? piece : piece.subarray(0, n))) return void req.once('drain', pump);
      }
      if (sent >= total) req.end();
    };
    pump();
  });
}

/** A small zip whose one DALF entry, named in the manifest, inflates to `size` bytes of zeros. */
function darBomb(size: number): Buffer {
  const data = deflateRawSync(Buffer.alloc(size), { level: 9 });
  const crc = crc32(Buffer.alloc(size));
  const manifest = Buffer.from(
    'Manifest-Version: 1.0\r\nMain-Dalf: bomb.dalf\r\nDalfs: bomb.dalf\r\nFormat: daml-lf\r\nEncryption: non-encrypted\r\n',
  );
  const entries = [
    { name: 'META-INF/MANIFEST.MF', method: 0, body: manifest, crc: crc32(manifest), size: manifest.length },
    { name: 'bomb.dalf', method: 8, body: data, crc, size },
  ];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.body.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.body.length, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.body);
    centrals.push(central, name);
    offset += 30 + name.length + e.body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** POSTs a DAR on a connection of its own (building a bomb stalls this process: see `httpOnce`). */
const postDar = (dar: Buffer) =>
  httpOnce('POST', `${simulatorUrl(proc)}/v2/dars`, new Uint8Array(dar), { 'content-type': 'application/octet-stream' });

/** Polls /v2/version every 50 ms while `work` runs; returns the slowest answer in ms. */
async function slowestAnswerDuring(work: Promise<unknown>): Promise<number> {
  const progress = { done: false };
  void work.finally(() => (progress.done = true));
  let slowest = 0;
  while (!progress.done) {
    const t = performance.now();
    await fetch(`${simulatorUrl(proc)}/v2/version`);
    slowest = Math.max(slowest, performance.now() - t);
    await new Promise((r) => setTimeout(r, 50));
  }
  return slowest;
}

describe('DAR uploads to the embedded simulator', () => {
  it('3 parallel 200 MB uploads with a Content-Length are refused before they are read', async () => {
    const before = rssBytes(proc.pid);
    const answers = await Promise.all([0, 1, 2].map(() => upload(200 * MiB, true)));
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(JSON.parse(a.body)).toMatchObject({ code: 'ZIP_BOMB', cause: `The DAR exceeds ${MAX_DAR_BYTES} bytes` });
    }
    expect(rssBytes(proc.pid) - before).toBeLessThan(100 * MiB);
    await expectAlive(proc);
  }, 120_000);

  it('3 parallel 200 MB uploads without a Content-Length: read one at a time and cut at the limit, memory stays small', async () => {
    const before = rssBytes(proc.pid);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(proc.pid) - before)), 100);
    try {
      const answers = await Promise.all([0, 1, 2].map(() => upload(200 * MiB, false)));
      for (const a of answers) expect(a.status).toBe(400);
    } finally {
      clearInterval(sampler);
    }
    expect(peak, `peak growth ${Math.round(peak / MiB)} MiB`).toBeLessThan(MAX_DAR_BYTES + 150 * MiB);
    await expectAlive(proc);
  }, 180_000);

  it('a DAR bomb beyond what the embedded simulator reads out of a DAR (64 MiB per entry) is refused before inflating', async () => {
    const bomb = darBomb(256 * MiB);
    expect(bomb.length).toBeLessThan(2 * MiB);
    const t = performance.now();
    const r = await postDar(bomb);
    expect(r.status).toBe(400);
    const body = JSON.parse(r.text) as { code: string; cause: string };
    expect(body.code).toBe('ZIP_BOMB');
    expect(body.cause).toContain('above the 67108864-byte limit');
    expect(performance.now() - t).toBeLessThan(5_000);
  }, 60_000);

  it('8 DAR bombs within the limits in parallel: refused, and the simulator keeps answering within a second meanwhile', async () => {
    const bomb = darBomb(60 * MiB);
    expect(bomb.length).toBeLessThan(MiB);
    const uploads = Promise.all(
      Array.from({ length: 8 }, () => postDar(bomb).then((r) => ({ status: r.status, body: JSON.parse(r.text) as { code: string } }))),
    );
    const slowest = await slowestAnswerDuring(uploads);
    for (const a of await uploads) {
      expect(a.status).toBe(400);
      expect(['ZIP_BOMB', 'DAR_PARSE_ERROR', 'INVALID_DAR']).toContain(a.body.code);
    }
    expect(slowest, `slowest /v2/version answer ${Math.round(slowest)} ms`).toBeLessThan(1_000);
    expect(simulatorPort(proc)).toBeGreaterThan(0);
    await expectAlive(proc);
  }, 180_000);
});
