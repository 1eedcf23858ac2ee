import { getDatabase, type Db } from './client.server';

/** The database of the current process (services call this per operation). */
export function db(): Db {
  return getDatabase().db;
}

/** Runs multi-step writes atomically on either driver. The body holds database work only. */
export function transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
  return getDatabase().transaction(fn);
}

export type { Db } from './client.server';
export * as schema from './schema';
