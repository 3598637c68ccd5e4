/** The browser host: console services + embedded simulator + renderer served on loopback (entry: host-main.ts). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startConsoleApp } from '../app/console-app.js';
import { startHost } from '../host/server.js';
import { DownloadSink } from '../host/downloads.js';
import { parseFlags, usage, UsageError } from './args.js';
import { bundleCacheDir } from './bundle-cache.js';
import { defaultDataDir } from './data-dir.js';

const FLAGS = {
  port: { type: 'port', description: 'port to listen on (default 0 = any free port)' },
  data: { type: 'string', description: 'data directory (default: per-user app data, or $CONSOLE_DATA_DIR)' },
  'no-demo': { type: 'boolean', description: 'do not start the embedded simulator' },
  'keychain-service': { type: 'string', description: 'OS keychain service name for secrets (default canton-operator-console)' },
  help: { type: 'boolean', description: 'show this help' },
} as const;

export const RENDERER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/renderer');

const archiveCacheDirOption = (): { archiveCacheDir?: string } => {
  const dir = bundleCacheDir(import.meta.url);
  return dir !== undefined ? { archiveCacheDir: dir } : {};
};

export async function runHost(argv: string[]): Promise<void> {
  let flags;
  try {
    flags = parseFlags(argv, FLAGS);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n${usage('console-host', FLAGS)}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (flags.help) {
    process.stdout.write(usage('console-host', FLAGS) + '\n');
    return;
  }
  // Exports are delivered as downloads from the host: the app produces them, the host serves them.
  const downloads = new DownloadSink();
  const app = await startConsoleApp({
    exportSink: downloads,
    dataDir: flags.data ? path.resolve(flags.data) : defaultDataDir(),
    demo: !flags['no-demo'],
    transport: 'browser-host',
    ...archiveCacheDirOption(),
    ...(flags['keychain-service'] ? { keychainService: flags['keychain-service'] } : {}),
  });
  const host = await startHost({
    router: app.router,
    downloads,
    staticDir: RENDERER_DIR,
    port: flags.port ?? 0,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`Console ready: ${host.url}\n`);
  if (app.demoLedgerUrl) process.stdout.write(`Embedded simulator (demo mode): ${app.demoLedgerUrl}\n`);

  const shutdown = async () => {
    // A stuck close must not keep the process alive after the user asked it to stop.
    setTimeout(() => process.exit(0), 5_000).unref();
    await host.close();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}
