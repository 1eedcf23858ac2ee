import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '~': path.resolve(__dirname, 'app') } },
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['tests/support/setup-db.ts'],
    pool: 'forks',
    // Vitest's default is one fork fewer than the CPUs: a single fork on a 2-core machine (CI's),
    // which left one core idle for the whole run. Each file has its own database, so files run
    // side by side safely.
    maxWorkers: os.availableParallelism(),
    testTimeout: 30_000,
    // the commands and servers the tests start read no settings file (.env) of the developer's
    env: { ENV_FILE: 'off' },
    hookTimeout: 60_000,
  },
});
