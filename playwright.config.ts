import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT || 3210);
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * End-to-end tests in Debian's Chromium against the real server with a seeded database.
 * Two projects: JavaScript on, and JavaScript off (every form must work without it).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'js', use: { browserName: 'chromium', javaScriptEnabled: true } },
    { name: 'no-js', use: { browserName: 'chromium', javaScriptEnabled: false } },
  ],
  webServer: {
    command: 'node tests/e2e/serve.js',
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { E2E_PORT: String(PORT) },
  },
});
