/**
 * What the end-to-end tests run against: the seeded database (made once, then copied), the built
 * server (`app/cli/server.js`, one per Playwright worker, each on its own copy of the database) and
 * a local OAuth2 / OpenID Connect provider (oauth2-mock-server, one for the whole run).
 *
 * Ports, from E2E_PORT (default 3210): +1 the OAuth provider (or E2E_OAUTH_PORT), +7 the server of
 * shutdown.spec.ts, +10+n the server of the n-th parallel worker.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCookie } from '@remix-run/node';
import Database from 'better-sqlite3';
import { SERVER_NODE_FLAGS } from '../../app/cli/server-flags.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const tmpDir = path.join(root, 'tests/.tmp');
export const seededDb = path.join(tmpDir, 'seeded.db');

/** The server's session secret in the tests; the session fixture signs its cookies with it. */
export const SESSION_SECRET = 'e2e-secret';

/** The server's session cookie: its name, options and secret (app/auth/session.server.ts). */
export const SESSION_COOKIE = '__pindex_session';
const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;
const sessionCookie = createCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secrets: [SESSION_SECRET], maxAge: SESSION_MAX_AGE_SECONDS });

/**
 * A session for `userId` written into `db` as the server's sign-in writes it, without the sign-in
 * form: its cookie's value (signed as the server signs it) and when it expires (ms).
 */
export async function createSession(db: Database.Database, userId: string): Promise<{ value: string; expires: number }> {
  const sid = randomBytes(24).toString('base64url');
  const now = Date.now();
  const expires = now + SESSION_MAX_AGE_SECONDS * 1000;
  db.prepare('INSERT INTO sessions (sid, sess, expire, user_id) VALUES (?, ?, ?, ?)').run(sid, JSON.stringify({ userId, refreshedAt: now }), expires, userId);
  const header = await sessionCookie.serialize(sid);
  return { value: header.slice(`${SESSION_COOKIE}=`.length, header.indexOf(';')), expires };
}

export const basePort = () => Number(process.env.E2E_PORT || 3210);
export const oauthPort = () => Number(process.env.E2E_OAUTH_PORT || basePort() + 1);
export const workerPort = (parallelIndex: number) => basePort() + 10 + parallelIndex;

const dbFiles = (file: string) => [file, `${file}-wal`, `${file}-shm`];
export const removeDb = (file: string) => dbFiles(file).forEach((f) => fs.rmSync(f, { force: true }));

/** Seeds tests/.tmp/seeded.db with drizzle/seed.ts when it is missing or `reseed` is set (E2E_RESEED=1). */
export function ensureSeed(reseed: boolean) {
  fs.mkdirSync(tmpDir, { recursive: true });
  if (fs.existsSync(seededDb) && !reseed) return;
  removeDb(seededDb);
  execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'drizzle/seed.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: `file:${seededDb}`, SEED_QUIET: '1' },
  });
  // everything in the main file, so that copying it alone copies the whole database
  const db = new Database(seededDb);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** A fresh copy of the seeded database at `file`. */
export function copySeed(file: string) {
  removeDb(file);
  fs.copyFileSync(seededDb, file);
}

/**
 * The OAuth provider for oauth.spec.ts. Its login is automatic: the e-mail of the signed-in
 * identity is the `login_hint` the app passes through (default oauth-user@pindex.test); a hint
 * starting with "unverified" gets email_verified=false.
 */
export async function startOAuthMock(port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const { OAuth2Server } = await import('oauth2-mock-server');
  const oauth = new OAuth2Server();
  await oauth.issuer.keys.generate('RS256');
  await oauth.start(port, '127.0.0.1');
  oauth.issuer.url = `http://127.0.0.1:${port}`;
  const hintByCode = new Map<string | null, string>();
  oauth.service.on('beforeAuthorizeRedirect', (redirectUri: { url: URL }, req: { url: string }) => {
    const hint = new URL(req.url, oauth.issuer.url).searchParams.get('login_hint');
    hintByCode.set(redirectUri.url.searchParams.get('code'), hint || 'oauth-user@pindex.test');
  });
  oauth.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }, req: { body?: { code?: string } }) => {
    const email = hintByCode.get(req.body?.code ?? null) ?? 'oauth-user@pindex.test';
    token.payload.sub = `mock|${email}`;
    token.payload.email = email;
  });
  oauth.service.on('beforeUserinfo', (userinfo: { body: unknown }, req: { headers: Record<string, string | undefined> }) => {
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const claims = JSON.parse(Buffer.from(bearer.split('.')[1] ?? '', 'base64url').toString() || '{}');
    const email = String(claims.email ?? 'oauth-user@pindex.test');
    userinfo.body = {
      sub: claims.sub ?? `mock|${email}`,
      email: email.replace(/^unverified\+?/, ''),
      email_verified: !email.startsWith('unverified'),
      given_name: 'Olivia',
      family_name: 'Auth',
    };
  });
  return { url: oauth.issuer.url, stop: () => oauth.stop() };
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dbFile: string;
  pid: number;
  /** SIGTERM, as Fly stops it; SIGKILL when it has not exited after 10 s. */
  stop: () => Promise<void>;
}

/**
 * Starts the built server on `dbFile` and resolves once /healthz answers with the identification
 * index ready. A port still held by a
 * server that is stopping (the worker before, in the same slot) is waited for.
 */
export async function startServer(opts: { port: number; dbFile: string; oauthIssuer?: string; label: string }): Promise<RunningServer> {
  const { port, dbFile, oauthIssuer, label } = opts;
  for (let waited = 0; !(await portIsFree(port)); waited += 250) {
    if (waited > 20_000) throw new Error(`${label}: port ${port} is in use (set E2E_PORT to another base port)`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'app/cli/server.js')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: `file:${dbFile}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_REQUESTS: '0',
      SESSION_SECRET,
      PINDEX_E2E: '1',
      ...(oauthIssuer
        ? {
            OAUTH_ISSUER: oauthIssuer,
            OAUTH_CLIENT_ID: 'pindex-e2e',
            OAUTH_CLIENT_SECRET: 'pindex-e2e-secret',
            OAUTH_SCOPES: 'openid email profile',
            OAUTH_LABEL: 'PinDex Test ID',
          }
        : {}),
    },
  });
  let output = '';
  child.stdout!.on('data', (d) => (output = (output + d).slice(-20_000)));
  // errors are worth seeing at once, whichever test is running
  child.stderr!.on('data', (d) => {
    output = (output + d).slice(-20_000);
    process.stderr.write(String(d).replace(/^(?=.)/gm, `[${label}] `));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${label}: the server exited (${child.exitCode ?? child.signalCode}) before answering:\n${output}`);
    }
    // ready for the tests: the web answers and the identification index is built (identify would
    // answer 503 "warming up" before that)
    const health = await fetch(`${url}/healthz`).then(
      async (r) => ({ status: r.status, index: ((await r.json().catch(() => null)) as { identification?: { state?: string } } | null)?.identification?.state }),
      () => ({ status: 0, index: undefined }),
    );
    if (health.status === 200 && (health.index === 'ready' || health.index === 'failed')) break;
    if (Date.now() - started > 90_000) {
      await stop();
      throw new Error(`${label}: no answer from ${url}/healthz after 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, dbFile, pid: child.pid!, stop };
}
