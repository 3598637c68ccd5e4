/**
 * The vitest files of one worker share its modules (vitest.config.ts): a file that changes process-wide state or mocks
 * a module must run in a module graph of its own (`ISOLATED`), or it leaks into whichever file runs next.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../../vitest.config.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** This file: its examples below are strings, not changes. */
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url));

/** What a test file must not do beside other files: mock modules, stub globals, set the environment, umask or cwd. */
const PROCESS_WIDE = [
  /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(/,
  /\bprocess\.env(\.\w+|\[[^\]]+\])\s*=(?!=)/,
  /\bdelete\s+process\.env\b/,
  /\bprocess\.(umask|chdir)\(/,
];

function changesProcessState(source: string): boolean {
  return PROCESS_WIDE.some((re) => re.test(source));
}

function testFiles(): string[] {
  return readdirSync(path.join(ROOT, 'test'), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .sort();
}

describe('test files that change process-wide state run isolated', () => {
  it('recognises each kind of change, and leaves reads and comparisons alone', () => {
    expect(changesProcessState("vi.mock('../../src/daml-lf/dar.js')")).toBe(true);
    expect(changesProcessState("vi.stubEnv('HOME', '/tmp')")).toBe(true);
    expect(changesProcessState("process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/x'")).toBe(true);
    expect(changesProcessState("process.env['HOME'] = '/tmp'")).toBe(true);
    expect(changesProcessState('delete process.env.VITEST;')).toBe(true);
    expect(changesProcessState('process.umask(0o022)')).toBe(true);
    expect(changesProcessState("process.chdir('/tmp')")).toBe(true);
    expect(changesProcessState('const was = process.env.VITEST;')).toBe(false);
    expect(changesProcessState("if (process.env.CI === 'true') {}")).toBe(false);
    expect(changesProcessState('spawn(cmd, { env: { ...process.env, HOME: dir } })')).toBe(false);
  });

  it('every such file is listed in ISOLATED, and every listed file exists', () => {
    const changing = testFiles().filter((f) => f !== SELF && changesProcessState(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(changing.length).toBeGreaterThan(0);
    expect(changing.filter((f) => !ISOLATED.includes(f))).toEqual([]);
    expect(ISOLATED.filter((f) => !existsSync(path.join(ROOT, f)))).toEqual([]);
  });
});
