import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { isNoJs } from './support';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A self-hoster copies `.env.example` to `.env`, fills it in and runs `npm start`: the server takes
 * its database, port and secret from the file alone. A server of its own, started in a folder of
 * its own with nothing but the file, on a copy of the seeded database.
 */
test('the server takes its settings from .env where it is started', async () => {
  test.skip(isNoJs(test.info().project.name), 'no browser involved: run once');
  const dir = path.join(root, 'tests/.tmp', `settings-file-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(root, 'tests/.tmp/seeded.db'), path.join(dir, 'pins.db'));
  const db = new Database(path.join(dir, 'pins.db'), { readonly: true });
  const pin = db.prepare(`SELECT name FROM pins WHERE name NOT GLOB '*[&<>"'']*' ORDER BY name LIMIT 1`).get() as { name: string };
  db.close();
  const port = Number(process.env.E2E_PORT || 3210) + 9;
  const example = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
  const settings = example
    .replace(/^PORT=.*$/m, `PORT=${port}`)
    .replace(/^# HOST=.*$/m, 'HOST=127.0.0.1')
    .replace(/^# LOG_REQUESTS=0.*$/m, 'LOG_REQUESTS=0')
    .replace(/^SESSION_SECRET=.*$/m, 'SESSION_SECRET=a-secret-of-this-install-only')
    .replace(/^DATABASE_URL=.*$/m, 'DATABASE_URL=file:./pins.db   # beside the settings');
  expect(settings).not.toBe(example);
  fs.writeFileSync(path.join(dir, '.env'), settings);
  const server = spawn(process.execPath, [path.join(root, 'app/cli/server.js')], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', IDENTIFY_WORKER: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout.on('data', (d) => (output += d));
  server.stderr.on('data', (d) => (output += d));
  try {
    const base = `http://127.0.0.1:${port}`;
    await expect
      .poll(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status, { timeout: 30_000, message: 'the server answers on the port .env gives' })
      .toBe(200);
    const page = await fetch(`${base}/browse?q=${encodeURIComponent(pin.name)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(pin.name);
  } catch (error) {
    console.error(output);
    throw error;
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode === null ? server.on('exit', resolve) : resolve(null)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
