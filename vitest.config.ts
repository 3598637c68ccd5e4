import os from 'node:os';
import { defineConfig } from 'vitest/config';

const ALL = ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/security/**/*.test.ts'];
/**
 * Files that change process-wide state another file in the same worker would see (the D-Bus address, the umask, an
 * environment variable) or need a fresh module instance (a vi.mock of a module others import): each runs in a module
 * graph of its own. test/unit/test-isolation.test.ts finds such files and fails when one is missing here.
 */
export const ISOLATED = [
  'test/integration/signing/keychain-session.test.ts',
  'test/security/file-modes.test.ts',
  'test/unit/signing/kdf-test-cost.test.ts',
  'test/unit/simulator-builtin-archives.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the CPUs: one on a 2-core machine, where most test files wait on
    // subprocesses, sockets and fsyncs rather than compute. Test files share no ports, keychain entries or directories.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/test-kdf-cost.ts'],
    projects: [
      // A worker keeps the modules it imported for the next file: importing the sources anew per file was 40 % of
      // the suite's time (147 of 360 s).
      { extends: true, test: { name: 'shared', include: ALL, exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
