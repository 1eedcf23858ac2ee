/**
 * The settings file (.env): the server and the operator's commands read it, the environment wins
 * over it, ENV_FILE chooses another or none, and `.env.example` copied unchanged does not start a
 * production server on its published secret.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadEnvFile } from '../../app/cli/env-file.js';

const root = path.resolve(__dirname, '../..');
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-env-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
/** A command run in `dir` with only PATH and `env` in its environment (no ENV_FILE: the file is read). */
const runIn = (args: string[], env: Record<string, string> = {}) => {
  const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '', ...env };
  return spawnSync(process.execPath, args, { cwd: dir, env: childEnv as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 60_000 });
};

describe('the settings file', () => {
  it('sets what the environment does not, with comments and quotes as .env.example writes them', () => {
    write('.env', ['# a comment', 'PORT=4000', 'SESSION_SECRET=s3cret   # rotate with a comma', 'MAIL_FROM="PinDex <pins@example.org>"', 'HOST=0.0.0.0', ''].join('\n'));
    const env: Record<string, string | undefined> = { HOST: '127.0.0.1' };
    const read = loadEnvFile(env, dir);
    expect(read?.file).toBe(path.join(dir, '.env'));
    expect(read?.keys.sort()).toEqual(['MAIL_FROM', 'PORT', 'SESSION_SECRET']);
    expect(env).toEqual({ HOST: '127.0.0.1', PORT: '4000', SESSION_SECRET: 's3cret', MAIL_FROM: 'PinDex <pins@example.org>' });
  });

  it('is optional, can be another file, and is not read with ENV_FILE=off', () => {
    expect(loadEnvFile({}, dir)).toBeNull();
    write('prod.env', 'PORT=5000\n');
    write('.env', 'PORT=4000\n');
    const other: Record<string, string | undefined> = { ENV_FILE: 'prod.env' };
    loadEnvFile(other, dir);
    expect(other.PORT).toBe('5000');
    const off: Record<string, string | undefined> = { ENV_FILE: 'off' };
    expect(loadEnvFile(off, dir)).toBeNull();
    expect(off.PORT).toBeUndefined();
    expect(() => loadEnvFile({ ENV_FILE: 'missing.env' }, dir)).toThrow('cannot read the settings file missing.env (ENOENT)');
  });

  it('the server reads .env from where it is started: .env.example copied unchanged is refused', () => {
    fs.copyFileSync(path.join(root, '.env.example'), path.join(dir, '.env'));
    const run = runIn([path.join(root, 'app/cli/server.js')], { NODE_ENV: 'production' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("PinDex will not start: SESSION_SECRET is still .env.example's example");
  });

  it('a settings file named but missing stops the server with the reason', () => {
    const run = runIn([path.join(root, 'app/cli/server.js')], { NODE_ENV: 'production', ENV_FILE: 'nowhere.env' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PinDex will not start: cannot read the settings file nowhere.env (ENOENT)');
  });

  it("the operator's commands use the database .env names", () => {
    write('.env', 'DATABASE_URL=file:./from-env-file.db\n');
    const run = runIn([path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'app/cli/migrate.ts')]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Database migrated (better-sqlite3: file:./from-env-file.db)');
    expect(fs.statSync(path.join(dir, 'from-env-file.db')).size).toBeGreaterThan(0);
  });
});
