import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';

const run = (args: string[]) =>
  spawnSync(process.execPath, [path.join(repoRoot, 'scripts/run.cjs'), 'sim', ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 20_000,
  });

describe('sim CLI argument handling', () => {
  it('rejects unknown flags and bad values with exit code 2 and a message on stderr', () => {
    for (const args of [['--bogus'], ['--port', 'abc', '--data', '/tmp/x'], ['--port', '0'], ['--data']]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^sim: /);
      expect(r.stdout).toBe('');
    }
  });
});
