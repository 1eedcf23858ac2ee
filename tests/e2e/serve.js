/**
 * Starts the built server for the end-to-end tests on a fresh, seeded database in tests/.tmp.
 * The seed is made once and copied, so repeated runs start in a second.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

const child = spawn(process.execPath, [path.join(root, 'app/cli/server.js')], {
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
  },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
