/**
 * The checks `npm test` runs (scripts/test.sh: `npm run lint:layers`, `npm run lint`) fail on a planted
 * violation: a throw-away tree under the temp dir breaks each layer rule of .dependency-cruiser.cjs once,
 * next to allowed imports that must stay quiet, and a file with a lint finding fails scripts/lint.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lint } from '../../scripts/lint.js';
import { REPO_ROOT } from '../support/console-process.js';

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    types: [],
  },
  include: ['src', 'electron', 'renderer', 'test'],
});

function plant(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lint-rules-'));
  for (const [rel, text] of Object.entries({ 'tsconfig.json': TSCONFIG, ...files })) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const CruiseResult = z.object({
  summary: z.object({
    violations: z.array(z.object({ rule: z.object({ name: z.string() }), from: z.string(), to: z.string() })),
  }),
});

describe('layer rules (dependency-cruiser)', () => {
  it('fail each planted violation, and only those', () => {
    const dir = plant({
      // Allowed: these must not be reported.
      'node_modules/electron/package.json': JSON.stringify({ name: 'electron', main: 'index.js' }),
      'node_modules/electron/index.js': 'module.exports = {};\n',
      'src/ipc/contract.ts': 'export const channels = {};\n',
      'src/ipc/router.ts': "import { channels } from './contract.js';\nexport const router = channels;\n",
      'src/daml-lf/index.ts': 'export const lf = 1;\n',
      'src/common/ids.ts': 'export const short = (s: string): string => s;\n',
      'src/common/uses.ts': "import { short } from './ids.js';\nexport const uses = short;\n",
      'src/services/profiles.ts': "import { channels } from '../ipc/contract.js';\nexport const profiles = channels;\n",
      'src/simulator/index.ts': "import { lf } from '../daml-lf/index.js';\nexport const sim = lf;\n",
      'src/app/console-app.ts':
        "import { profiles } from '../services/profiles.js';\n" +
        "import { sim } from '../simulator/index.js';\nexport const app = [profiles, sim];\n",
      'src/cli/host.ts': "import { app } from '../app/console-app.js';\nexport const host = app;\n",
      'electron/main.ts':
        "import electron from 'electron';\nimport { app } from '../src/app/console-app.js';\nexport const main = [electron, app];\n",
      'renderer/src/main.ts':
        "import { channels } from '../../src/ipc/contract.js';\n" +
        "import { short } from '../../src/common/ids.js';\nexport const view = [channels, short];\n",
      'src/simulator/short.ts': "import { short } from '../common/ids.js';\nexport const s = short;\n",
      'src/dar-reader/reader.ts': "import { lf } from '../daml-lf/index.js';\nexport const reader = lf;\n",
      'src/services/short.ts': "import { short } from '../common/ids.js';\nexport const s = short;\n",
      'renderer/src/Tree.svelte':
        '<script lang="ts">\n  import Tree from \'./Tree.svelte\';\n  let { depth }: { depth: number } = $props();\n</script>\n' +
        '{#if depth > 0}<Tree depth={depth - 1} />{/if}\n',
      'test/helper.ts': 'export const helper = 1;\n',
      // Violations, one per rule.
      'src/simulator/bad.ts': "import { profiles } from '../services/profiles.js';\nexport const bad = profiles;\n",
      'src/daml-lf/bad.ts': "import { sim } from '../simulator/index.js';\nexport const bad = sim;\n",
      'src/dar-reader/bad.ts': "import { sim } from '../simulator/index.js';\nexport const bad = sim;\n",
      'src/common/bad.ts': "import { profiles } from '../services/profiles.js';\nexport const bad = profiles;\n",
      'src/common/node.ts': "import { Buffer } from 'node:buffer';\nexport const B = Buffer;\n",
      'src/platform/bad.ts': "import { profiles } from '../services/profiles.js';\nexport const bad = profiles;\n",
      'src/daml-lf/node.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      'renderer/src/bad.ts': "import { router } from '../../src/ipc/router.js';\nexport const bad = router;\n",
      'renderer/src/node.ts': "import path from 'node:path';\nexport const join = path.join;\n",
      'renderer/src/Node.svelte': '<script lang="ts">\n  import { sep } from \'node:path\';\n</script>\n<p>{sep}</p>\n',
      'src/ipc/bad.ts': "import { profiles } from '../services/profiles.js';\nexport const bad = profiles;\n",
      'src/ipc/node.ts': "import { randomUUID } from 'node:crypto';\nexport const id = randomUUID;\n",
      'src/services/bad.ts': "import { app } from '../app/console-app.js';\nexport const bad = app;\n",
      'src/app/bad.ts': "import { host } from '../cli/host.js';\nexport const bad = host;\n",
      'src/host/bad.ts': "import { host } from '../cli/host.js';\nexport const bad = host;\n",
      'src/cli/electron.ts': "import electron from 'electron';\nexport const bad = electron;\n",
      'electron/bad.ts': "import { helper } from '../test/helper.js';\nexport const bad = helper;\n",
      'src/services/cycle-a.ts': "import { b } from './cycle-b.js';\nexport const a = (): number => b() + 1;\n",
      'src/services/cycle-b.ts': "import { a } from './cycle-a.js';\nexport const b = (): number => a() - 1;\n",
    });
    dirs.push(dir);
    const cruise = (outputType: string) =>
      spawnSync(
        path.join(REPO_ROOT, 'node_modules/.bin/depcruise'),
        ['src', 'electron', 'renderer', 'test', '--config', path.join(REPO_ROOT, '.dependency-cruiser.cjs'), '--output-type', outputType],
        { cwd: dir, encoding: 'utf8', timeout: 60_000 },
      );
    // As npm test runs it: the default reporter exits non-zero.
    const check = cruise('err');
    expect(check.status, check.stdout + check.stderr).not.toBe(0);
    expect(check.stdout).toMatch(/dependency violations/);
    const report = cruise('json');
    expect(report.status, report.stderr).toBe(0);
    const found = CruiseResult.parse(JSON.parse(report.stdout))
      .summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)
      .sort();
    expect(found).toEqual(
      [
        'common-isolated: src/common/bad.ts → src/services/profiles.ts',
        'common-isomorphic: src/common/node.ts → buffer',
        'composition-below-shells: src/app/bad.ts → src/cli/host.ts',
        'daml-lf-isolated: src/daml-lf/bad.ts → src/simulator/index.ts',
        'dar-reader-isolated: src/dar-reader/bad.ts → src/simulator/index.ts',
        'daml-lf-isomorphic: src/daml-lf/node.ts → fs',
        'electron-only-in-electron: src/cli/electron.ts → node_modules/electron/index.js',
        'host-no-other-shell: src/host/bad.ts → src/cli/host.ts',
        'ipc-contract-no-node: src/ipc/node.ts → crypto',
        'ipc-contract-self-contained: src/ipc/bad.ts → src/services/profiles.ts',
        'no-circular: src/services/cycle-a.ts → src/services/cycle-b.ts',
        'product-not-on-tests: electron/bad.ts → test/helper.ts',
        'platform-isolated: src/platform/bad.ts → src/services/profiles.ts',
        'renderer-no-node: renderer/src/Node.svelte → path',
        'renderer-no-node: renderer/src/node.ts → path',
        'renderer-only-ipc-client: renderer/src/bad.ts → src/ipc/router.ts',
        'services-below-composition: src/services/bad.ts → src/app/console-app.ts',
        'simulator-independent: src/simulator/bad.ts → src/services/profiles.ts',
      ].sort(),
    );
  });
});

describe('lint (ESLint, strict-type-checked)', () => {
  it('reports a planted finding and passes a clean file', async () => {
    const dir = plant({
      'src/cli/bad.ts': 'export const first = (xs: string[]): string => xs[0]!;\n',
      'src/cli/good.ts': "export const first = (xs: string[]): string => xs[0] ?? '';\n",
    });
    dirs.push(dir);
    const findings = await lint(['src/cli'], dir);
    expect(findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual(['src/cli/bad.ts:1 @typescript-eslint/no-non-null-assertion']);
  });

  it('reports a line over 140 characters in code, and not in prose inside Svelte markup', async () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${String(i)}`).join(' ');
    const dir = plant({
      'src/cli/long.ts': `export const message = '${words}';\n`,
      'src/cli/short.ts': `export const message =\n  '${words.slice(0, 70)}' +\n  '${words.slice(70)}';\n`,
      'renderer/src/Prose.svelte': `<p>\n  ${words} and the end.\n</p>\n`,
      'renderer/src/Code.svelte': `<script lang="ts">\n  export const message = '${words}';\n</script>\n`,
    });
    dirs.push(dir);
    const findings = await lint(['src/cli', 'renderer/src'], dir);
    expect(findings.map((f) => `${f.file}:${f.line} ${f.rule}`).sort()).toEqual([
      'renderer/src/Code.svelte:2 max-len',
      'src/cli/long.ts:1 max-len',
    ]);
  });
});
