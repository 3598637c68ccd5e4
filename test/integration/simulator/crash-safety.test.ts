/**
 * Crash safety under group commit: a real simulator process is SIGKILLed at 20 points while 16 clients submit
 * concurrently (so commands are grouped, one transaction and one fsync per group), some of them commands that fail
 * inside their group. After the restarts every acknowledged command is on the ledger exactly once, no failed one is,
 * and the offsets are gap-free and strictly increasing.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { call, createIou, exercise, IOU, makeTempDir, repoRoot, wildcard } from './helpers.js';

const KILLS = 20;
const CLIENTS = 16;

function startProcess(dataDir: string): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [path.join(repoRoot, 'scripts/run.cjs'), 'sim', '--port', '0', '--data', dataDir], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => reject(new Error(`simulator did not start: ${stderr}`)), 60_000);
    const rl = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
    rl.once('line', (line) => {
      clearTimeout(timer);
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (!m || !m[1]) reject(new Error(`unexpected first line: ${line}`));
      else resolve({ proc, url: m[1] });
    });
    proc.once('exit', (code) => reject(new Error(`simulator exited early (${code}): ${stderr}`)));
  });
}

const killed = (proc: ChildProcess): Promise<void> =>
  new Promise((r) => (proc.exitCode !== null || proc.signalCode !== null ? r() : proc.once('exit', () => r())));

describe('crash safety (SIGKILL during concurrent, group-committed submissions)', () => {
  const dir = makeTempDir('sim-crash-');
  const procs: ChildProcess[] = [];
  afterAll(async () => {
    for (const p of procs)
      if (p.exitCode === null && p.signalCode === null) {
        p.kill('SIGKILL');
        await killed(p);
      }
    rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged command exactly once with gap-free offsets across ${KILLS} kills`, async () => {
    let current = await startProcess(dir);
    procs.push(current.proc);
    const alloc = await call(current.url, 'POST', '/v2/parties', { body: { partyIdHint: 'Crash' } });
    const party = (alloc.json as { partyDetails: { party: string } }).partyDetails.party;

    const acknowledged = new Map<string, number>(); // command id → completion offset
    const attempted = new Set<string>();
    const mustFail = new Set<string>();
    const unexpected: string[] = [];
    let n = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const { url, proc } = current;
      let stop = false;
      let acksThisRound = 0;
      const worker = async (): Promise<void> => {
        while (!stop) {
          const k = ++n;
          const commandId = `crash-${k}`;
          // every 5th command fails inside its group (an exercise on a contract that does not exist)
          const failing = k % 5 === 0;
          (failing ? mustFail : attempted).add(commandId);
          const command = failing
            ? exercise(IOU, `00${'ab'.repeat(32)}`, 'Iou_Transfer', { newOwner: party })
            : createIou(party, party, '1');
          try {
            const res = await fetch(`${url}/v2/commands/submit-and-wait`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ commandId, actAs: [party], commands: [command] }),
            });
            const text = await res.text();
            if (res.status === 200 && !failing) {
              acknowledged.set(commandId, (JSON.parse(text) as { completionOffset: number }).completionOffset);
              acksThisRound++;
            } else if (res.status !== 404 || !failing) unexpected.push(`${commandId}: ${res.status} ${text.slice(0, 200)}`);
          } catch {
            return; // connection died with the process
          }
        }
      };
      const workers = Array.from({ length: CLIENTS }, worker);
      // kill points spread over the first groups of a run: after 1..37 acknowledgments
      const killAfter = 1 + ((kill * 11) % 37);
      while (acksThisRound < killAfter) await new Promise((r) => setTimeout(r, 1));
      proc.kill('SIGKILL');
      stop = true;
      await killed(proc);
      await Promise.all(workers);
      current = await startProcess(dir);
      procs.push(current.proc);
      // everything acknowledged before the kill is below the ledger end after the restart
      const end = ((await call(current.url, 'GET', '/v2/state/ledger-end')).json as { offset: number }).offset;
      expect(end).toBeGreaterThanOrEqual(Math.max(...acknowledged.values()));
    }

    expect(unexpected).toEqual([]); // creates succeed, the failing command fails (404) and only it
    const { url } = current;
    const end = ((await call(url, 'GET', '/v2/state/ledger-end')).json as { offset: number }).offset;
    const updates: { update: Record<string, { value: { offset: number; commandId?: string } }> }[] = [];
    let token: string | undefined;
    do {
      const r = await call(url, 'POST', '/v2/updates/get-updates-page', {
        body: {
          maxPageSize: 200,
          // with an end, the last page has no token (without one, every page has one: "to tail the ledger")
          endOffsetInclusive: end,
          ...(token ? { pageToken: token } : {}),
          updateFormat: {
            includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(party) },
            includeTopologyEvents: { includeParticipantAuthorizationEvents: {} },
          },
        },
      });
      const body = r.json as { updates: typeof updates; nextPageToken?: string };
      updates.push(...body.updates);
      token = body.nextPageToken;
    } while (token);
    const offsets = updates.map((u) => (Object.values(u.update)[0] as { value: { offset: number } }).value.offset);
    expect(offsets).toEqual(Array.from({ length: end }, (_, i) => i + 1)); // gap-free, strictly increasing, no duplicates
    const byCommand = new Map<string, number>();
    for (const u of updates) {
      const tx = u.update.Transaction?.value;
      if (!tx?.commandId) continue;
      expect(byCommand.has(tx.commandId)).toBe(false); // at most once
      byCommand.set(tx.commandId, tx.offset);
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILLS);
    for (const [id, offset] of acknowledged) expect(byCommand.get(id)).toBe(offset); // acknowledged ⇒ durable, where acknowledged
    for (const id of byCommand.keys()) expect(attempted.has(id)).toBe(true); // nothing failed or invented
    for (const id of mustFail) expect(byCommand.has(id)).toBe(false);

    // resubmitting an acknowledged command is a duplicate
    const some = [...acknowledged.keys()][0] as string;
    const dup = await call(url, 'POST', '/v2/commands/submit-and-wait', {
      body: { commandId: some, actAs: [party], commands: [createIou(party, party, '1')] },
    });
    expect(dup.status).toBe(409);
    current.proc.kill('SIGTERM');
    await killed(current.proc);
    expect(current.proc.exitCode).toBe(0);
  }, 300_000);
});
