/**
 * Every test file gets its own freshly migrated database file, on the driver named by DB_DRIVER
 * (better-sqlite3 by default; `DB_DRIVER=libsql` runs the same tests on @libsql/client).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, setDatabase, type DbHandle } from '~/db/client.server';

let handle: DbHandle | undefined;
let dir: string | undefined;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-test-'));
  handle = openDatabase(`file:${path.join(dir, 'test.db')}`, { durable: false });
  await handle.migrate();
  setDatabase(handle);
});

afterAll(() => {
  handle?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});
