import { defineConfig } from '@playwright/test';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// the servers the tests start read no settings file (.env) of the developer's
process.env.ENV_FILE = 'off';

/**
 * End-to-end tests in Debian's Chromium against the real server with a seeded database.
 * Two projects: JavaScript on, and JavaScript off (every form must work without it).
 * The global setup seeds the database once (anew with E2E_RESEED=1) and starts the OAuth provider;
 * each worker then starts a server of its own on its own copy of the database (tests/e2e/support.ts:
 * import `test` from there), on E2E_PORT + 10 + its parallel index (tests/e2e/servers.ts).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    // recording a trace screencasts every page: on two cores that made the whole run about a third
    // slower (two spec files: 161 s with it, 102 s without). CI records it for a test's retry only.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'js', use: { browserName: 'chromium', javaScriptEnabled: true } },
    { name: 'no-js', use: { browserName: 'chromium', javaScriptEnabled: false } },
  ],
});
