/**
 * `npm run demo`: the demo database (data/demo.db unless DATABASE_URL is set), seeded, then the
 * server on http://localhost:3000 (PORT honoured). Expects `npm run build` before it.
 * data/demo.db is reused when the seed's sources and the migrations are those it was seeded
 * from (a hash of them is kept beside it, data/demo.db.seed-hash); otherwise, or with
 * DEMO_RESEED=1, it is deleted and seeded afresh. A DATABASE_URL of your own is seeded every time.
 */
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A hash of what the demo database is made from: the seed's sources and the migrations. */
function seedHash() {
  const hash = crypto.createHash('sha256');
  for (const dir of ['drizzle/seed.ts', 'drizzle/seed-data', 'drizzle/migrations']) {
    const full = path.join(root, dir);
    if (!fs.existsSync(full)) continue;
    const files = fs.statSync(full).isDirectory()
      ? fs.readdirSync(full, { recursive: true }).map(String).sort().map((rel) => path.join(full, rel))
      : [full];
    for (const file of files) {
      if (!fs.statSync(file).isFile()) continue;
      hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

const url = process.env.DATABASE_URL || 'file:./data/demo.db';
let seed = true;
if (url.startsWith('file:') && !process.env.DATABASE_URL) {
  const file = path.resolve(root, url.slice('file:'.length));
  const hashFile = `${file}.seed-hash`;
  const hash = seedHash();
  const kept = fs.existsSync(file) && fs.existsSync(hashFile) && fs.readFileSync(hashFile, 'utf8').trim() === hash;
  if (kept && process.env.DEMO_RESEED !== '1') {
    seed = false;
    console.log('Reusing the demo database (seed and migrations unchanged; DEMO_RESEED=1 seeds it afresh).');
  } else {
    for (const f of [file, `${file}-wal`, `${file}-shm`, hashFile]) fs.rmSync(f, { force: true });
    const started = Date.now();
    execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'drizzle/seed.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, DATABASE_URL: url } });
    // written only once the seed succeeded: a failed seed is not reused
    fs.writeFileSync(hashFile, `${hash}\n`);
    seed = false;
    console.log(`Demo database seeded in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  }
}
if (seed) {
  execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'drizzle/seed.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: url },
  });
}
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'app/cli/server.js')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: url, NODE_ENV: process.env.NODE_ENV || 'production', PINDEX_ALLOW_DEV_SECRET: process.env.PINDEX_ALLOW_DEV_SECRET || '1', ENV_FILE: 'off' },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
