import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { dataUrl, phonePhoto, pinArtwork } from '../support/identify';
import { identificationReady } from '../support/server-ready';
import { isNoJs } from './support';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Stopping the server (Fly sends SIGTERM before it replaces a machine) while a photo is being
 * identified: the answer still arrives, and the photo, stored with the answer, is kept.
 * A server of its own, on a copy of the seeded database, so that the worker's server keeps running.
 */
test('a photo sent while the server is stopping is answered and kept', async () => {
  test.skip(isNoJs(test.info().project.name), 'no browser involved: run once');
  const tmp = path.join(root, 'tests/.tmp');
  const file = path.join(tmp, `shutdown-${process.pid}.db`);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  fs.copyFileSync(path.join(tmp, 'seeded.db'), file);
  const port = Number(process.env.E2E_PORT || 3210) + 7;
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(root, 'app/cli/server.js')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: `file:${file}`, PORT: String(port), HOST: '127.0.0.1', LOG_REQUESTS: '0', SESSION_SECRET: 'shutdown-test-secret-shutdown-test-secret' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout.on('data', (d) => (output += d));
  server.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  try {
    // the web answers at once; identification waits for the index ('warming up' until then)
    await expect.poll(() => identificationReady(base), { timeout: 60_000 }).toBe(true);
    const photo = async (seed: number) => dataUrl(await phonePhoto(await pinArtwork(seed, 'STOPPING', 2026)));
    // one connection per request, closed with the answer, as a phone's request often is
    const identify = (imageData: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const body = JSON.stringify({ imageData });
        const req = http.request(
          `${base}/api/identify`,
          { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Origin: base } },
          (res) => {
            let text = '';
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const seed = Math.floor(Math.random() * 1e9) + 1;
    const [first, second] = [await photo(seed), await photo(seed + 1)];
    // a first photo loads the visual index; the second is being matched when the server is told to stop
    expect((await identify(first)).status).toBe(200);
    const answer = identify(second);
    await new Promise((resolve) => setTimeout(resolve, 60));
    server.kill('SIGTERM');
    const response = await answer;
    expect(response.status).toBe(200);
    const result = JSON.parse(response.body) as { imageId: string; identificationId: string };
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM: finishing the requests in flight');
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT id FROM identifications WHERE id = ?').get(result.identificationId)).toBeTruthy();
      expect(db.prepare('SELECT id FROM images WHERE id = ?').get(result.imageId)).toBeTruthy();
    } finally {
      db.close();
    }
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  }
});
