/**
 * Standalone simulator: `npm run sim -- --port 0 --data DIR [--reset] [--seed-demo] [--static-time] [--host H]`
 * plus the auth flags (default: no authentication, demo mode):
 * `--auth-hs256-secret S | --auth-hs256-secret-file F | --auth-jwks FILE`, `[--auth-audience A] [--auth-issuer I]`,
 * and `--fault-inject-prepare kind[,kind…]` (tampered prepare answers for tests and demos, see simulator/fault-injection.ts).
 * First stdout line: `listening on http://127.0.0.1:PORT`.
 */
import { readFileSync } from 'node:fs';
import { loadJwksFile } from '../simulator/auth-jwt.js';
import { parseTamperKinds } from '../simulator/fault-injection.js';
import { startSimulator } from '../simulator/index.js';
import { bundleCacheDir } from './bundle-cache.js';
import type { SimAuthConfig, SimulatorOptions } from '../simulator/index.js';

const USAGE =
  'usage: sim --data DIR [--port N] [--host H] [--reset] [--seed-demo] [--static-time] [--http-list-max-elements-limit N]\n' +
  '           [--auth-hs256-secret S | --auth-hs256-secret-file F | --auth-jwks FILE] [--auth-audience A] [--auth-issuer I]\n' +
  '           [--fault-inject-prepare kind[,kind...]]';

interface AuthFlags {
  secret?: string;
  secretFile?: string;
  jwks?: string;
  audience?: string;
  issuer?: string;
}

/** The auth config the flags ask for; each misuse fails with its own message (secrets are never echoed). */
function authConfigOf(f: AuthFlags): SimAuthConfig | undefined {
  const keySources = [
    f.secret !== undefined && '--auth-hs256-secret',
    f.secretFile !== undefined && '--auth-hs256-secret-file',
    f.jwks !== undefined && '--auth-jwks',
  ].filter((x): x is string => typeof x === 'string');
  if (keySources.length > 1) fail(`${keySources.join(' and ')} are mutually exclusive`);
  const extras = { ...(f.audience !== undefined ? { audience: f.audience } : {}), ...(f.issuer !== undefined ? { issuer: f.issuer } : {}) };
  if (keySources.length === 0) {
    if (f.audience !== undefined) fail('--auth-audience needs --auth-hs256-secret, --auth-hs256-secret-file or --auth-jwks');
    if (f.issuer !== undefined) fail('--auth-issuer needs --auth-hs256-secret, --auth-hs256-secret-file or --auth-jwks');
    return undefined;
  }
  if (f.audience === '') fail('--auth-audience must not be empty');
  if (f.issuer === '') fail('--auth-issuer must not be empty');
  if (f.jwks !== undefined) {
    try {
      loadJwksFile(f.jwks);
    } catch (e) {
      fail(`--auth-jwks: ${(e as Error).message}`);
    }
    return { mode: 'rs256', jwksFile: f.jwks, ...extras };
  }
  let secret = f.secret;
  if (f.secretFile !== undefined) {
    try {
      // a trailing newline is an artefact of how the file was written, not part of the secret
      secret = readFileSync(f.secretFile, 'utf8').replace(/\r?\n$/, '');
    } catch (e) {
      fail(`--auth-hs256-secret-file: cannot read '${f.secretFile}': ${(e as Error).message}`);
    }
  }
  if (secret === undefined || secret === '')
    fail(f.secretFile !== undefined ? '--auth-hs256-secret-file: the file is empty' : '--auth-hs256-secret must not be empty');
  return { mode: 'hs256', secret, ...extras };
}

function fail(msg: string): never {
  process.stderr.write(`sim: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

export function parseArgs(argv: string[]): SimulatorOptions {
  const opts: Partial<SimulatorOptions> = {};
  const auth: AuthFlags = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const [flag, inline] =
      a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
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
      case '--auth-hs256-secret':
        auth.secret = value();
        break;
      case '--auth-hs256-secret-file':
        auth.secretFile = value();
        break;
      case '--auth-jwks':
        auth.jwks = value();
        break;
      case '--auth-audience':
        auth.audience = value();
        break;
      case '--auth-issuer':
        auth.issuer = value();
        break;
      case '--fault-inject-prepare': {
        const v = value();
        try {
          opts.faultInjection = { prepare: parseTamperKinds(v) };
        } catch (e) {
          fail(`--fault-inject-prepare: ${(e as Error).message}`);
        }
        break;
      }
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
  const authConfig = authConfigOf(auth);
  return { port: 0, ...opts, dataDir: opts.dataDir, ...(authConfig ? { auth: authConfig } : {}) };
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  let sim;
  try {
    const archiveCacheDir = bundleCacheDir(import.meta.url);
    sim = await startSimulator(archiveCacheDir !== undefined ? { ...opts, archiveCacheDir } : opts);
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
