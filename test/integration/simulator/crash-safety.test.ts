/**
 * Crash safety: a real simulator process is SIGKILLed while commands are being submitted. After a
 * restart every acknowledged command is on the ledger exactly once, and offsets are gap-free.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { call, createIou, makeTempDir, repoRoot, wildcard } from './helpers.js';

function startProcess(dataDir: string): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [path.join(repoRoot, 'scripts/run.mjs'), 'sim', '--port', '0', '--data', dataDir], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => reject(new Error(`simulator did not start: ${stderr}`)), 20_000);
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

describe('crash safety (SIGKILL during submissions)', () => {
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

  it('keeps every acknowledged command exactly once with gap-free offsets', async () => {
    const first = await startProcess(dir);
    procs.push(first.proc);
    const alloc = await call(first.url, 'POST', '/v2/parties', { body: { partyIdHint: 'Crash' } });
    const party = (alloc.json as { partyDetails: { party: string } }).partyDetails.party;

    const acknowledged = new Set<string>();
    const attempted = new Set<string>();
    let stop = false;
    let n = 0;
    const worker = async (): Promise<void> => {
      while (!stop) {
        const commandId = `crash-${++n}`;
        attempted.add(commandId);
        try {
          const res = await fetch(`${first.url}/v2/commands/submit-and-wait`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ commandId, actAs: [party], commands: [createIou(party, party, '1')] }),
          });
          if (res.status === 200) acknowledged.add(commandId);
          else await res.text();
        } catch {
          return; // connection died with the process
        }
      }
    };
    const workers = [worker(), worker(), worker(), worker()];
    while (acknowledged.size < 40) await new Promise((r) => setTimeout(r, 5));
    first.proc.kill('SIGKILL');
    stop = true;
    await killed(first.proc);
    await Promise.all(workers);

    const second = await startProcess(dir);
    procs.push(second.proc);
    const end = ((await call(second.url, 'GET', '/v2/state/ledger-end')).json as { offset: number }).offset;
    const pages: { update: Record<string, { value: { offset: number; commandId?: string } }> }[] = [];
    let token: string | undefined;
    do {
      const r = await call(second.url, 'POST', '/v2/updates/get-updates-page', {
        body: {
          maxPageSize: 100,
          ...(token ? { pageToken: token } : {}),
          updateFormat: {
            includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(party) },
            includeTopologyEvents: { includeParticipantAuthorizationEvents: {} },
          },
        },
      });
      const body = r.json as { updates: typeof pages; nextPageToken?: string };
      pages.push(...body.updates);
      token = body.nextPageToken;
    } while (token);
    const offsets = pages.map((u) => (Object.values(u.update)[0] as { value: { offset: number } }).value.offset);
    expect(offsets).toEqual(Array.from({ length: end }, (_, i) => i + 1)); // gap-free, strictly increasing
    const commandIds = pages.flatMap((u) => (u.update.Transaction?.value.commandId ? [u.update.Transaction.value.commandId] : []));
    expect(new Set(commandIds).size).toBe(commandIds.length); // at most once
    for (const id of acknowledged) expect(commandIds).toContain(id); // acknowledged ⇒ durable
    for (const id of commandIds) expect(attempted.has(id)).toBe(true);

    // resubmitting an acknowledged command is a duplicate
    const some = [...acknowledged][0] as string;
    const dup = await call(second.url, 'POST', '/v2/commands/submit-and-wait', {
      body: { commandId: some, actAs: [party], commands: [createIou(party, party, '1')] },
    });
    expect(dup.status).toBe(409);
    second.proc.kill('SIGTERM');
    await killed(second.proc);
    expect(second.proc.exitCode).toBe(0);
  }, 60_000);
});
