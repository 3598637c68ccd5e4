/** Starts the real browser host (console + embedded simulator) as a child process, like `npm start` does. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ConsoleProcess {
  url: string;
  origin: string;
  port: number;
  token: string;
  dataDir: string;
  keychainService: string;
  output: () => string;
  /** The process has not exited (a crash ends it). */
  running: () => boolean;
  pid: number;
  stop(): Promise<void>;
}

export async function startConsoleProcess(
  extraArgs: string[] = [],
  opts: { dataDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ConsoleProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'console-e2e-'));
  const keychainService = `canton-console-test-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const child = spawn(
    process.execPath,
    ['scripts/run.cjs', 'host', '--port', '0', '--data', dataDir, '--keychain-service', keychainService, ...extraArgs],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...(opts.env ? { env: opts.env } : {}) },
  );
  let out = '';
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`console did not start within 30 s:\n${out}`)), 30_000);
    const rl = createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      out += line + '\n';
      const m = /^Console ready: (\S+)$/.exec(line);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`console exited with ${code}:\n${out}`));
    });
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    port: Number(parsed.port),
    token: new URLSearchParams(parsed.hash.slice(1)).get('token') ?? '',
    dataDir,
    keychainService,
    output: () => out,
    running: () => child.exitCode === null && child.signalCode === null,
    pid: child.pid ?? 0,
    async stop() {
      const running = () => child.exitCode === null && child.signalCode === null;
      if (running()) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (running()) child.kill('SIGKILL');
      }
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
