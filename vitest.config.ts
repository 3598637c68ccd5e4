import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/security/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the CPUs: one on a 2-core machine, where most test files wait on
    // subprocesses, sockets and fsyncs rather than compute. Test files share no ports, keychain entries or directories.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/test-kdf-cost.ts'],
  },
});
