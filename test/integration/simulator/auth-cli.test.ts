/**
 * `npm run sim` auth flags: each misuse exits 2 with its own message (never echoing a secret); a secret
 * file starts the simulator in HS256 mode, which then refuses requests without a valid token.
 */
import { spawn, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, hsToken, SECRET, send } from './auth-helpers.js';
import { makeTempDir, repoRoot } from './helpers.js';

/** `npm run sim`'s command: the prebuilt bundle (test/support/global-setup.ts built it). */
const cli = path.join(repoRoot, 'scripts/run.cjs');
const run = (args: string[]) => spawnSync(process.execPath, [cli, 'sim', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 20_000 });

describe('sim CLI auth flags', () => {
  const dir = makeTempDir('sim-auth-cli-');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects bad combinations and values with exit code 2 and a specific message', () => {
    const secretFile = path.join(dir, 'secret');
    writeFileSync(secretFile, `${SECRET}\n`);
    const emptyFile = path.join(dir, 'empty');
    writeFileSync(emptyFile, '');
    const badJwks = path.join(dir, 'bad-jwks.json');
    writeFileSync(badJwks, '{"keys": "nope"}');
    const data = ['--data', path.join(dir, 'never')];
    const cases: [string[], RegExp][] = [
      [['--auth-hs256-secret', 'topsecret-value', '--auth-jwks', badJwks], /mutually exclusive/],
      [['--auth-hs256-secret', 'topsecret-value', '--auth-hs256-secret-file', secretFile], /mutually exclusive/],
      [['--auth-audience', 'aud'], /--auth-audience needs/],
      [['--auth-issuer', 'iss'], /--auth-issuer needs/],
      [['--auth-hs256-secret', ''], /must not be empty/],
      [['--auth-hs256-secret-file', emptyFile], /file is empty/],
      [['--auth-hs256-secret-file', path.join(dir, 'missing')], /cannot read/],
      [['--auth-jwks', path.join(dir, 'missing.json')], /cannot read JWKS file/],
      [['--auth-jwks', badJwks], /not a JWK set/],
      [['--auth-hs256-secret', 'topsecret-value', '--auth-audience', ''], /--auth-audience must not be empty/],
    ];
    for (const [args, message] of cases) {
      const r = run([...data, ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain('topsecret-value');
      expect(r.stdout).toBe('');
    }
  }, 120_000); // ten CLI start-ups on a shared machine

  it('starts in HS256 mode from a secret file and enforces tokens', async () => {
    const secretFile = path.join(dir, 'secret2');
    writeFileSync(secretFile, `${SECRET}\n`);
    const child = spawn(
      process.execPath,
      [cli, 'sim', '--port', '0', '--data', path.join(dir, 'data'), '--auth-hs256-secret-file', secretFile],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const t = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /^listening on (\S+)$/m.exec(out);
          if (m?.[1]) {
            clearTimeout(t);
            resolve(m[1]);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      expect((await send(url, 'GET', '/v2/state/ledger-end')).status).toBe(401);
      expect((await send(url, 'GET', '/v2/state/ledger-end', { headers: bearer(await hsToken('participant_admin')) })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 60_000);
});
