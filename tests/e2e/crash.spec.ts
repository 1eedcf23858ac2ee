import http from 'node:http';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { dataUrl, phonePhoto, pinArtwork } from '../support/identify';
import { basePort, copySeed, createSession, removeDb, SESSION_COOKIE, startServer, tmpDir } from './servers';
import { DEMO, isNoJs } from './support';

/**
 * Killing the server (kill -9: an out-of-memory kill, a crash) while it writes: every write it
 * answered 2xx is in the database afterwards, and an identification's photo is there with the row
 * that names it, even when the kill comes the moment the answer leaves. A server of its own on a
 * copy of the seeded database, killed and started again several times.
 */

interface Answer {
  status: number;
  body: string;
}

/** One request on its own connection; `onHeaders` runs the moment the answer's head arrives. */
function send(base: string, method: string, url: string, cookie: string, json: unknown, onHeaders?: () => void) {
  return new Promise<Answer>((resolve, reject) => {
    const body = JSON.stringify(json);
    const req = http.request(
      `${base}${url}`,
      { method, agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Origin: base, Cookie: cookie } },
      (res) => {
        onHeaders?.();
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('writes answered 2xx survive kill -9, an identification photo included', async () => {
  test.skip(isNoJs(test.info().project.name), 'no browser involved: run once');
  test.setTimeout(240_000);
  const file = path.join(tmpDir, `crash-${process.pid}.db`);
  copySeed(file);
  const port = basePort() + 8;

  // a session for the demo player, written as the server's sign-in writes it
  const setup = new Database(file);
  const player = setup.prepare('SELECT id FROM users WHERE email = ?').get(DEMO.player) as { id: string };
  const pinIds = (setup.prepare('SELECT id FROM pins ORDER BY id LIMIT 6').all() as { id: string }[]).map((p) => p.id);
  const cookie = `${SESSION_COOKIE}=${(await createSession(setup, player.id)).value}`;
  setup.close();

  const photos = await Promise.all([1, 2, 3, 4].map(async (i) => dataUrl(await phonePhoto(await pinArtwork(Date.now() % 1e6 + i, 'KILLED', 2026)))));
  // what the server answered 2xx: the last note written per pin, the identifications and their photos
  const lastNote = new Map<string, number>();
  const identified: { identificationId: string; imageId: string }[] = [];
  let seq = 0;

  for (let round = 0; round < 3; round++) {
    const server = await startServer({ port, dbFile: file, label: `crash-${round}` });
    const kill = () => {
      try {
        process.kill(server.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    let dead = false;
    const writers = pinIds.map(async (pinId) => {
      while (!dead) {
        const n = ++seq;
        const answer = await send(server.url, 'POST', '/api/collections', cookie, { pinId, status: 'owned', notes: `write ${n}` }).catch(() => null);
        if (answer && answer.status >= 200 && answer.status < 300) lastNote.set(pinId, Math.max(lastNote.get(pinId) ?? 0, n));
        else if (answer) throw new Error(`collection write answered ${answer.status}: ${answer.body}`);
        else return;
      }
    });
    // the kill comes the moment an identification's answer leaves the server
    const photo = photos[round % photos.length];
    const answer = await send(server.url, 'POST', '/api/identify', cookie, { imageData: photo }, () => {
      dead = true;
      kill();
    }).catch((error: Error) => ({ status: 0, body: error.message }));
    if (answer.status === 200) {
      const result = JSON.parse(answer.body) as { identificationId: string; imageId: string };
      identified.push({ identificationId: result.identificationId, imageId: result.imageId });
    }
    dead = true;
    kill();
    await Promise.all(writers);
    await server.stop();
  }
  expect(identified.length, 'the answers that arrived before each kill').toBeGreaterThan(0);
  expect(lastNote.size).toBe(pinIds.length);

  // the database after the kills: whole, and everything answered is in it
  const server = await startServer({ port, dbFile: file, label: 'crash-after' });
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    for (const { identificationId, imageId } of identified) {
      expect(db.prepare('SELECT image_data FROM identifications WHERE id = ?').get(identificationId)).toEqual({ image_data: imageId });
      const image = await fetch(`${server.url}/images/${imageId}?s=thumb`);
      expect(image.status, `the photo of identification ${identificationId}`).toBe(200);
    }
    for (const [pinId, n] of lastNote) {
      const row = db.prepare('SELECT notes FROM user_collections WHERE user_id = ? AND pin_id = ?').get(player.id, pinId) as { notes: string } | undefined;
      expect(Number(row?.notes.replace('write ', '')), `pin ${pinId}: write ${n} was answered`).toBeGreaterThanOrEqual(n);
    }
  } finally {
    db.close();
    await server.stop();
    removeDb(file);
  }
});
