/**
 * One database client for the process, on one of two drivers:
 * - better-sqlite3 (default): an embedded SQLite file, WAL, foreign keys, busy timeout;
 * - @libsql/client: a libsql://, http(s):// or ws(s):// URL (Turso, a libSQL server), or any URL
 *   when DB_DRIVER=libsql (also local files, which the test matrix uses).
 *
 * Services see one type (`Db`) and always `await` their queries, so the same code runs on both:
 * better-sqlite3 queries resolve at once, libSQL ones asynchronously.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createClient, type Client } from '@libsql/client';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzleLibsql, type LibSQLDatabase } from 'drizzle-orm/libsql';
import { migrate as migrateLibsql } from 'drizzle-orm/libsql/migrator';
import * as schema from './schema';

export type Db = LibSQLDatabase<typeof schema>;
export type DriverName = 'better-sqlite3' | 'libsql';

export interface DbHandle {
  db: Db;
  driver: DriverName;
  url: string;
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Changes when anything was written to the database since the last call, by this process or
   * another: SQLite's data_version (other connections' commits) and total_changes() (this
   * connection's). Null for a remote libSQL server, which cannot tell.
   */
  changeStamp(): Promise<string | null>;
  migrate(): Promise<void>;
  close(): void;
}

const DEFAULT_URL = 'file:./data/pindex.db';
const CHANGE_STAMP_SQL = 'select (select data_version from pragma_data_version) as other, total_changes() as own';

function migrationsFolder(): string {
  // works from the sources (tsx, vitest: app/db/) and from the server build (build/index.js), from
  // any working directory (a server started elsewhere with its own .env)
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.resolve(process.cwd(), 'drizzle/migrations'),
    path.resolve(here, '../../drizzle/migrations'),
    path.resolve(here, '../drizzle/migrations'),
  ];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'meta/_journal.json')));
  if (!found) throw new Error('Database migrations not found (drizzle/migrations)');
  return found;
}

export function chooseDriver(url: string, explicit = process.env.DB_DRIVER): DriverName {
  // a server URL can only be opened by libSQL, whatever DB_DRIVER says (it chooses for files)
  if (/^(libsql|https?|wss?):\/\//.test(url)) return 'libsql';
  if (explicit === 'libsql' || explicit === 'better-sqlite3') return explicit;
  return 'better-sqlite3';
}

function filePathOf(url: string): string {
  const p = url.startsWith('file:') ? url.slice('file:'.length) : url;
  return p.replace(/^\/\/(?=\/)/, '');
}

/** A tiny FIFO lock: one write transaction at a time on the embedded connection. */
function createLock() {
  let tail: Promise<unknown> = Promise.resolve();
  return function withLock<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * `durable` (the default): every commit is on disk before it is answered (synchronous = FULL, an
 * fsync of the WAL per commit, about 3 ms here), so an acknowledged write survives a power cut, not
 * only a killed process. Throwaway databases (tests, benchmarks) pass `durable: false`.
 */
export function openDatabase(url = process.env.DATABASE_URL || DEFAULT_URL, opts: { durable?: boolean } = {}): DbHandle {
  const driver = chooseDriver(url);
  const current = new AsyncLocalStorage<Db>();

  if (driver === 'better-sqlite3') {
    const file = filePathOf(url);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new Database(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma(`synchronous = ${opts.durable === false ? 'NORMAL' : 'FULL'}`);
    const db = drizzleSqlite(sqlite, { schema }) as unknown as Db;
    const withLock = createLock();
    let stamp: Database.Statement<[], { other: number; own: number }> | null = null;
    return {
      db,
      driver,
      url,
      // better-sqlite3 is synchronous, so a transaction whose body awaits only database work runs
      // to its end before any other request gets the event loop; the lock keeps it so even if a
      // body awaits something else. Nested calls join the outer transaction.
      transaction(fn) {
        const outer = current.getStore();
        if (outer) return fn(outer);
        return withLock(async () => {
          sqlite.exec('BEGIN IMMEDIATE');
          try {
            const result = await current.run(db, () => fn(db));
            sqlite.exec('COMMIT');
            return result;
          } catch (error) {
            if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
            throw error;
          }
        });
      },
      async changeStamp() {
        stamp ??= sqlite.prepare(CHANGE_STAMP_SQL);
        const row = stamp.get();
        return row ? `${row.other}:${row.own}` : null;
      },
      async migrate() {
        migrateSqlite(drizzleSqlite(sqlite), { migrationsFolder: migrationsFolder() });
      },
      close() {
        sqlite.close();
      },
    };
  }

  let client: Client;
  if (/^file:/.test(url)) {
    fs.mkdirSync(path.dirname(path.resolve(filePathOf(url))), { recursive: true });
    client = createClient({ url, timeout: 5000 });
  } else {
    client = createClient({ url, authToken: process.env.DATABASE_AUTH_TOKEN || undefined });
  }
  const db = drizzleLibsql(client, { schema });
  let walDone = false;
  // A local file is opened through a synchronous binding whose busy wait blocks the event loop, so
  // two overlapping write transactions in one process deadlock until SQLITE_BUSY: queue them here
  // (remote servers arbitrate concurrency themselves).
  const withLock = /^file:/.test(url) ? createLock() : <T>(fn: () => Promise<T>) => fn();
  return {
    db,
    driver,
    url,
    transaction(fn) {
      const outer = current.getStore();
      if (outer) return fn(outer);
      return withLock(() =>
        db.transaction((tx) => current.run(tx as unknown as Db, () => fn(tx as unknown as Db)), {
          behavior: 'immediate',
        }),
      );
    },
    async changeStamp() {
      if (!/^file:/.test(url)) return null;
      const row = (await client.execute(CHANGE_STAMP_SQL)).rows[0];
      return row ? `${row.other}:${row.own}` : null;
    },
    async migrate() {
      if (!walDone && url.startsWith('file:')) {
        await client.execute('PRAGMA journal_mode = WAL');
        walDone = true;
      }
      await migrateLibsql(db, { migrationsFolder: migrationsFolder() });
    },
    close() {
      client.close();
    },
  };
}

// One handle per process, kept across development rebuilds.
const globalForDb = globalThis as unknown as { __pindexDb?: DbHandle; __pindexMigrated?: Promise<void> };

export function getDatabase(): DbHandle {
  if (!globalForDb.__pindexDb) globalForDb.__pindexDb = openDatabase();
  return globalForDb.__pindexDb;
}

/** Applies pending migrations once per process (the server calls this before serving). */
export function ensureMigrated(): Promise<void> {
  if (!globalForDb.__pindexMigrated) globalForDb.__pindexMigrated = getDatabase().migrate();
  return globalForDb.__pindexMigrated;
}

/** Replaces the process handle (tests point services at their own database file). */
export function setDatabase(handle: DbHandle): void {
  globalForDb.__pindexDb = handle;
  globalForDb.__pindexMigrated = Promise.resolve();
}
