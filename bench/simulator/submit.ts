/** Part 1: sequential submit-and-wait against a bare node:http server doing one WAL insert (synchronous=FULL). */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { startSimulator } from '../../src/simulator/index.js';
import { N, fmt, post, report } from './common.js';

async function baselineServer(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const db = new Database(path.join(dir, 'baseline.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS commands (offset INTEGER PRIMARY KEY, command_id TEXT NOT NULL, payload TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO commands (command_id, payload) VALUES (?, ?)');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(text) as { commandId: string };
      const info = insert.run(body.commandId, text);
      const out = JSON.stringify({ updateId: body.commandId, completionOffset: Number(info.lastInsertRowid) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
        db.close();
      }),
  };
}

export async function benchSubmit(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-bench-submit-'));
  const sim = await startSimulator({ dataDir: path.join(dir, 'sim'), port: 0 });
  const base = await baselineServer(dir);
  try {
    const party = ((await post(`${sim.url}/v2/parties`, { partyIdHint: 'Bench' })) as { partyDetails: { party: string } }).partyDetails
      .party;
    let i = 0;
    const body = () => ({
      commandId: `bench-${++i}`,
      actAs: [party],
      commands: [
        {
          CreateCommand: {
            templateId: '#simulator-demo:Demo.Iou:Iou',
            createArguments: { issuer: party, owner: party, currency: 'USD', amount: '1', observers: [] },
          },
        },
      ],
    });
    const run = async (url: string, count: number): Promise<number> => {
      const t = performance.now();
      for (let k = 0; k < count; k++) await post(url, body());
      return performance.now() - t;
    };
    await run(`${sim.url}/v2/commands/submit-and-wait`, 20); // warm-up
    await run(`${base.url}/submit`, 20);
    let simMs = 0;
    let baseMs = 0;
    const rounds = 3;
    for (let r = 0; r < rounds; r++) {
      baseMs += await run(`${base.url}/submit`, Math.ceil(N / rounds));
      simMs += await run(`${sim.url}/v2/commands/submit-and-wait`, Math.ceil(N / rounds));
    }
    const count = Math.ceil(N / rounds) * rounds;
    const simRate = (count * 1000) / simMs;
    const baseRate = (count * 1000) / baseMs;
    report({
      figure: `submit-and-wait (create), sequential, ${count} commands`,
      value: `${fmt(simRate)} cmd/s (${fmt(simMs / count, 2)} ms)`,
      baseline: `${fmt(baseRate)} req/s (${fmt(baseMs / count, 2)} ms) bare http + 1 WAL insert, synchronous=FULL`,
      ratio: `${fmt(simRate / baseRate, 2)}×`,
      target: '≥ 0.5×',
      pass: simRate / baseRate >= 0.5,
    });
  } finally {
    await sim.close();
    await base.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
