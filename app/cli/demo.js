/**
 * `npm run demo`: a fresh demo database (data/demo.db unless DATABASE_URL is set), seeded,
 * then the server on http://localhost:3000 (PORT honoured). Expects `npm run build` before it.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const url = process.env.DATABASE_URL || 'file:./data/demo.db';
if (url.startsWith('file:') && !process.env.DATABASE_URL) {
  const file = path.resolve(root, url.slice('file:'.length));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
}
execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'drizzle/seed.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: url },
});
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'app/cli/server.js')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: url, NODE_ENV: process.env.NODE_ENV || 'production', PINDEX_ALLOW_DEV_SECRET: process.env.PINDEX_ALLOW_DEV_SECRET || '1' },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
