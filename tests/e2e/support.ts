import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { copySeed, createSession, removeDb, SESSION_COOKIE, startServer, tmpDir, workerPort, type RunningServer } from './servers';

/** Demo accounts from the seed (drizzle/seed.ts); one password for all. */
export const DEMO_PASSWORD = 'pindex-demo-2026';
export const DEMO = {
  player: 'player@pindex.test',
  manager: 'manager@pindex.test',
  coach: 'coach@pindex.test',
  vendor: 'vendor@pindex.test',
  admin: 'admin@pindex.test',
  superAdmin: 'superadmin@pindex.test',
} as const;
export type Role = keyof typeof DEMO;

/** The worker's own server, on the worker's own copy of the seeded database. */
export interface WorkerServer extends RunningServer {
  /** A connection to the worker's database (the server runs SQLite in WAL mode: a second one is fine). */
  db: () => Database.Database;
}

export interface SignedIn {
  id: string;
  email: string;
}


/**
 * Signs `context` in as `who` without the sign-in form: a session row for the user in the worker's
 * database, as the server's sign-in writes it, and its id in the session cookie, signed as the
 * server signs it. Replaces the context's session, if it had one.
 */
async function signInContext(server: WorkerServer, context: BrowserContext, who: Role | { email: string }): Promise<SignedIn> {
  const email = typeof who === 'string' ? DEMO[who] : who.email;
  const db = server.db();
  const user = db.prepare('SELECT id, email FROM users WHERE lower(email) = lower(?)').get(email) as SignedIn | undefined;
  if (!user) throw new Error(`signInAs: no user ${email} in the worker's database`);
  const { value, expires } = await createSession(db, user.id);
  await context.addCookies([{ name: SESSION_COOKIE, value, url: server.url, httpOnly: true, sameSite: 'Lax', expires: Math.floor(expires / 1000) }]);
  return { id: user.id, email: user.email };
}

interface Fixtures {
  /** Signs every test of the file (or describe block) in as this demo account: `test.use({ role: 'manager' })`. */
  role: Role | undefined;
  /**
   * Signs the test's context (or the page's or context given) in as a demo account (`'vendor'`) or any
   * user of the worker's database (`{ email }`), at once and without the form; the page needs a
   * navigation (or reload) to show it. Resolves to the user's id and e-mail.
   */
  signInAs: (who: Role | { email: string }, target?: Page | BrowserContext) => Promise<SignedIn>;
}

// Fixtures name their callback `provide`, not `use`: the lint's React rules take `use` for React's hook.
export const test = base.extend<Fixtures, { server: WorkerServer }>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
    async ({}, provide, workerInfo) => {
      const dbFile = path.join(tmpDir, `e2e-worker-${workerInfo.workerIndex}.db`);
      const pidFile = dbFile.replace(/\.db$/, '.pid');
      copySeed(dbFile);
      const running = await startServer({
        port: workerPort(workerInfo.parallelIndex),
        dbFile,
        oauthIssuer: process.env.E2E_OAUTH_ISSUER,
        label: `server ${workerInfo.parallelIndex}`,
      });
      // for the global teardown, should this worker end without its own
      fs.writeFileSync(pidFile, String(running.pid));
      let db: Database.Database | undefined;
      const open = () => {
        db = new Database(dbFile);
        db.pragma('busy_timeout = 5000');
        return db;
      };
      try {
        await provide({ ...running, db: () => db ?? open() });
      } finally {
        db?.close();
        await running.stop();
        fs.rmSync(pidFile, { force: true });
        removeDb(dbFile);
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ server }, provide) => provide(server.url),
  role: [undefined, { option: true }],
  context: async ({ context, role, server }, provide) => {
    if (role) await signInContext(server, context, role);
    await provide(context);
  },
  signInAs: async ({ context, server }, provide) => {
    await provide((who, target) => signInContext(server, !target ? context : 'context' in target ? target.context() : target, who));
  },
});

export { expect };

/**
 * Signs in through the real sign-in form (works with JavaScript on and off). For the tests of that
 * form; every other test signs in with the `signInAs` fixture.
 */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/api/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  // Checking the password is meant to be slow (scrypt), and beside the server's other work on two
  // busy cores the redirect has taken longer than the default 7 s wait.
  await expect(page).not.toHaveURL(/\/api\/login/, { timeout: 15_000 });
}

/**
 * How long a test waits for the answer to a photo it sent. Alone, the server answers one in well under
 * a second; but the end-to-end tests run side by side with the server on the machine's two cores, and
 * under that load an answer has taken longer than the default 7 s wait for an assertion.
 */
export const ANSWERED = { timeout: 20_000 };

export const isNoJs = (projectName: string) => projectName === 'no-js';

/**
 * The photo the page posts to POST /api/identify (JSON `{ imageData }`) while `act` runs: the data
 * URL's media type and the decoded bytes.
 */
export async function postedPhoto(page: Page, act: () => Promise<unknown>): Promise<{ type: string; bytes: Buffer }> {
  const request = page.waitForRequest((r) => r.url().endsWith('/api/identify') && r.method() === 'POST');
  await act();
  const { imageData = '' } = JSON.parse((await request).postData() ?? '{}') as { imageData?: string };
  const [, type = '', base64 = ''] = /^data:([^;,]*);base64,(.*)$/s.exec(imageData) ?? [];
  return { type, bytes: Buffer.from(base64, 'base64') };
}
