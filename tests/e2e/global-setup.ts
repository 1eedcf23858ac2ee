/**
 * Once per run, before the workers start: the seeded database (made anew with E2E_RESEED=1, else
 * only when missing; each worker's server runs on a copy of it) and the OAuth provider that every
 * worker's server signs in with (its address goes to the workers as E2E_OAUTH_ISSUER).
 * The function it returns runs after the last worker: it stops the provider and any worker's
 * server left running (a worker that was killed cannot stop its own).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureSeed, oauthPort, removeDb, startOAuthMock, tmpDir } from './servers';

const leftovers = () =>
  fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir).filter((f) => /^e2e-worker-\d+\.(db|pid)$/.test(f)).map((f) => path.join(tmpDir, f)) : [];

export default async function globalSetup() {
  // files of a run that was stopped short (no process is killed on their word: its pid may be reused)
  for (const file of leftovers()) removeDb(file);
  ensureSeed(process.env.E2E_RESEED === '1');
  const oauth = await startOAuthMock(oauthPort());
  process.env.E2E_OAUTH_ISSUER = oauth.url;

  return async () => {
    for (const file of leftovers()) {
      if (file.endsWith('.pid')) {
        const pid = Number(fs.readFileSync(file, 'utf8'));
        try {
          process.kill(pid, 'SIGKILL');
          console.warn(`global teardown: killed a worker's server left running (pid ${pid})`);
        } catch {
          // already gone
        }
      }
      removeDb(file);
    }
    await oauth.stop();
  };
}
