/**
 * Standalone simulator: `npm run sim -- --port 0 --data DIR [--reset] [--seed-demo] [--static-time] [--host H]`.
 * First stdout line: `listening on http://127.0.0.1:PORT`.
 */
import { startSimulator } from '../simulator/index.js';
import type { SimulatorOptions } from '../simulator/index.js';

const USAGE =
  'usage: sim --data DIR [--port N] [--host H] [--reset] [--seed-demo] [--static-time] [--http-list-max-elements-limit N]';

function fail(msg: string): never {
  process.stderr.write(`sim: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

export function parseArgs(argv: string[]): SimulatorOptions {
  const opts: Partial<SimulatorOptions> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === undefined && v.startsWith('--'))) fail(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--port': {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) > 65535) fail(`--port must be an integer 0..65535, got '${v}'`);
        opts.port = Number(v);
        break;
      }
      case '--data':
        opts.dataDir = value();
        break;
      case '--host':
        opts.host = value();
        break;
      case '--reset':
        opts.reset = true;
        break;
      case '--seed-demo':
        opts.seedDemo = true;
        break;
      case '--http-list-max-elements-limit': {
        const v = value();
        if (!/^\d{1,9}$/.test(v) || Number(v) < 1) fail(`--http-list-max-elements-limit must be a positive integer, got '${v}'`);
        opts.settings = { ...opts.settings, httpListMaxElementsLimit: Number(v) };
        break;
      }
      case '--static-time':
        opts.staticTime = true;
        break;
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`);
        process.exit(0);
        break;
      default:
        fail(`unknown argument '${a}'`);
    }
  }
  if (!opts.dataDir) fail('--data DIR is required');
  return { port: 0, ...opts, dataDir: opts.dataDir };
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  let sim;
  try {
    sim = await startSimulator(opts);
  } catch (e) {
    process.stderr.write(`sim: failed to start: ${(e as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write(`listening on ${sim.url}\n`);
  process.stdout.write(`participant ${sim.participantId}\n`);
  let closing = false;
  const shutdown = (sig: string): void => {
    if (closing) return;
    closing = true;
    process.stderr.write(`sim: ${sig} received, closing\n`);
    sim
      .close()
      .then(() => process.exit(0))
      .catch((e: unknown) => {
        process.stderr.write(`sim: error while closing: ${(e as Error).message}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

void main();
