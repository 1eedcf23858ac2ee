/**
 * Server CPU per request: starts the built server on a copy of a database and reads its CPU time
 * (/proc/<pid>/stat, user + system) around N sequential requests of each URL, after a warm-up.
 * Prints the CPU milliseconds per request, and each page's multiple of /healthz's.
 *
 *   npx tsx tests/bench/page-cpu.ts --db tests/.tmp/seeded.db [--n 200] [--port 3492]
 * Linux only (reads /proc); needs `npm run build` first.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SERVER_NODE_FLAGS } from '../../app/cli/server-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const SOURCE = arg('db') ?? path.join(root, 'tests/.tmp/seeded.db');
const N = Number(arg('n') ?? 200);
const PORT = Number(arg('port') ?? 3492);
const TICK_MS = 1000 / 100; // USER_HZ

function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-cpu-'));
  const file = path.join(dir, 'cpu.db');
  fs.copyFileSync(SOURCE, file);
  const db = new Database(file, { readonly: true });
  const pin = db.prepare('select id from pins order by created_at desc limit 1').get() as { id: string };
  db.close();
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'app/cli/server.js')], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: `file:${file}`, PORT: String(PORT), HOST: '127.0.0.1', LOG_REQUESTS: '0', SESSION_SECRET: 'bench-secret', IDENTIFY_WORKER: 'off' },
  });
  const base = `http://127.0.0.1:${PORT}`;
  try {
    for (let i = 0; ; i++) {
      const text = await fetch(`${base}/healthz`).then((r) => r.text(), () => '');
      if (text && (!text.includes('identification') || text.includes('"state":"ready"'))) break;
      if (i > 1200) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const html = await fetch(`${base}/`).then((r) => r.text());
    const chunk = [...html.matchAll(/\/build\/_shared\/[\w-]+\.js/g)].map((m) => m[0])[0];
    const urls: [string, string, Record<string, string>][] = [
      ['/healthz', '/healthz', {}],
      ['home', '/', { 'Accept-Encoding': 'gzip, br' }],
      ['browse', '/browse', { 'Accept-Encoding': 'gzip, br' }],
      ['pin detail', `/pins/${pin.id}`, { 'Accept-Encoding': 'gzip, br' }],
      ['a framework chunk (gzip)', chunk, { 'Accept-Encoding': 'gzip' }],
    ];
    const rows: { name: string; ms: number }[] = [];
    for (const [name, url, headers] of urls) {
      for (let i = 0; i < 30; i++) await fetch(base + url, { headers }).then((r) => r.arrayBuffer());
      const before = cpuMs(server.pid!);
      for (let i = 0; i < N; i++) await fetch(base + url, { headers }).then((r) => r.arrayBuffer());
      rows.push({ name, ms: (cpuMs(server.pid!) - before) / N });
    }
    const health = rows[0].ms;
    for (const r of rows) console.log(`${r.name.padEnd(26)} ${r.ms.toFixed(2).padStart(6)} ms CPU per request  (${(r.ms / health).toFixed(1)}x /healthz)`);
    console.log(`load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  } finally {
    server.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
