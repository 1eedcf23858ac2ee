/**
 * Starts the built server for the end-to-end tests on a fresh, seeded database in tests/.tmp.
 * The seed is made once and copied, so repeated runs start in a second.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../app/cli/server-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = path.join(root, 'tests/.tmp');
fs.mkdirSync(tmp, { recursive: true });
const seeded = path.join(tmp, 'seeded.db');
const live = path.join(tmp, 'e2e.db');

if (!fs.existsSync(seeded) || process.env.E2E_RESEED === '1') {
  for (const f of [seeded, `${seeded}-wal`, `${seeded}-shm`]) fs.rmSync(f, { force: true });
  execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'drizzle/seed.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: `file:${seeded}`, SEED_QUIET: '1' },
  });
}
for (const f of [live, `${live}-wal`, `${live}-shm`]) fs.rmSync(f, { force: true });
fs.copyFileSync(seeded, live);

// A local OAuth2 / OpenID Connect provider (oauth2-mock-server) for tests/e2e/oauth.spec.ts, on a
// fixed port next to the app's. Its login is automatic: the e-mail of the signed-in identity is
// the `login_hint` the app passes through (default oauth-user@pindex.test); a hint starting with
// "unverified" gets email_verified=false.
const { OAuth2Server } = await import('oauth2-mock-server');
const oauthPort = Number(process.env.E2E_OAUTH_PORT || Number(process.env.E2E_PORT || 3210) + 1);
const oauth = new OAuth2Server();
await oauth.issuer.keys.generate('RS256');
await oauth.start(oauthPort, '127.0.0.1');
oauth.issuer.url = `http://127.0.0.1:${oauthPort}`;
const hintByCode = new Map();
oauth.service.on('beforeAuthorizeRedirect', (redirectUri, req) => {
  const hint = new URL(req.url, oauth.issuer.url).searchParams.get('login_hint');
  hintByCode.set(redirectUri.url.searchParams.get('code'), hint || 'oauth-user@pindex.test');
});
oauth.service.on('beforeTokenSigning', (token, req) => {
  const email = hintByCode.get(req.body?.code) ?? 'oauth-user@pindex.test';
  token.payload.sub = `mock|${email}`;
  token.payload.email = email;
});
oauth.service.on('beforeUserinfo', (userinfo, req) => {
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

const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'app/cli/server.js')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: `file:${live}`,
    PORT: process.env.E2E_PORT || '3210',
    HOST: '127.0.0.1',
    LOG_REQUESTS: '0',
    SESSION_SECRET: 'e2e-secret',
    PINDEX_E2E: '1',
    OAUTH_ISSUER: oauth.issuer.url,
    OAUTH_CLIENT_ID: 'pindex-e2e',
    OAUTH_CLIENT_SECRET: 'pindex-e2e-secret',
    OAUTH_SCOPES: 'openid email profile',
    OAUTH_LABEL: 'PinDex Test ID',
  },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => oauth.stop().finally(() => process.exit(code ?? 0)));
