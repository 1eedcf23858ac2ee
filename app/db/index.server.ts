import { getDatabase, type Db } from './client.server';

/** The database of the current process (services call this per operation). */
export function db(): Db {
  return getDatabase().db;
}

/** Runs multi-step writes atomically on either driver. The body holds database work only. */
export function transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
  return getDatabase().transaction(fn);
}

/**
 * A query built once per database handle instead of on every call: `build` returns a drizzle
 * query ending in `.prepare()` whose varying values are `sql.placeholder('name')`s, and the
 * service runs it with `.all({ name })` / `.get({ name })`. On better-sqlite3 the SQL statement
 * is compiled once too; on libSQL the SQL text and its mapping are reused. Tests that point the
 * process at another database get their own copy.
 */
export function prepared<T>(build: (db: Db) => T): () => T {
  const byDb = new WeakMap<Db, T>();
  return () => {
    const conn = db();
    let query = byDb.get(conn);
    if (query === undefined) {
      query = build(conn);
      byDb.set(conn, query);
    }
    return query;
  };
}

/**
 * A read whose answer changes only when the database does (the home tab counts, browse's years
 * and organizations): kept per database handle until anything is written to it, by this process
 * or another (`changeStamp`), and for at most REMOTE_TTL_MS on a remote libSQL server, which
 * cannot tell. The value is shared between callers: they must not change it.
 */
export function cachedUntilWrite<T>(load: () => Promise<T>): () => Promise<T> {
  const kept = cachedUntilWriteBy(() => '', load, 1);
  return () => kept(undefined);
}

/**
 * `cachedUntilWrite` for a read with an argument (a page of browse's list): the answers are kept
 * per `key(arg)`, at most `max` of them (the oldest goes first), all until the next write.
 */
export function cachedUntilWriteBy<A, T>(key: (arg: A) => string, load: (arg: A) => PromiseLike<T>, max: number): (arg: A) => Promise<T> {
  const byDb = new WeakMap<Db, { stamp: string | null; at: number; values: Map<string, Promise<T>> }>();
  return async (arg) => {
    const handle = getDatabase();
    // read before the load: a write while it runs makes the next call read again
    const stamp = await handle.changeStamp();
    let kept = byDb.get(handle.db);
    if (!kept || kept.stamp !== stamp || (stamp === null && Date.now() - kept.at >= REMOTE_TTL_MS)) {
      kept = { stamp, at: Date.now(), values: new Map() };
      byDb.set(handle.db, kept);
    }
    const k = key(arg);
    const hit = kept.values.get(k);
    if (hit) return hit;
    const value = settledOnce(load(arg));
    if (kept.values.size >= max) kept.values.delete(kept.values.keys().next().value as string);
    const { values } = kept;
    values.set(k, value);
    value.catch(() => values.get(k) === value && values.delete(k));
    return value;
  };
}
const REMOTE_TTL_MS = 5_000;

/**
 * A read kept for the rest of one request (`owner`: the Request) while nothing is written to the
 * database: the same key asked again by that request, with no write in between by this process or
 * another (`changeStamp`), gets the answer already read. Any write, the request's own included (a
 * sign-out, a role change, an action before the loaders), makes the next call read afresh; on a
 * remote libSQL server, which cannot tell, every call reads. For what each of a page's loaders
 * reads again (the session, the signed-in user). The value is shared: callers must not change it.
 */
export function keptForRequest<K, V>(load: (key: K) => PromiseLike<V>): (owner: object, key: K) => Promise<V> {
  const byOwner = new WeakMap<object, { db: Db; key: K; stamp: string; value: Promise<V> }>();
  return async (owner, key) => {
    const handle = getDatabase();
    const stamp = await handle.changeStamp();
    const kept = byOwner.get(owner);
    if (kept && stamp !== null && kept.stamp === stamp && kept.key === key && kept.db === handle.db) return kept.value;
    const value = settledOnce(load(key));
    if (stamp === null) byOwner.delete(owner);
    else byOwner.set(owner, { db: handle.db, key, stamp, value });
    value.catch(() => byOwner.get(owner)?.value === value && byOwner.delete(owner));
    return value;
  };
}

/**
 * A promise of the load's answer, run once. A drizzle query is a lazy thenable that runs its SQL
 * again each time it is awaited: kept as it is, every caller would read the database anew.
 */
function settledOnce<T>(loaded: PromiseLike<T>): Promise<T> {
  return Promise.resolve(loaded);
}

export type { Db } from './client.server';
export * as schema from './schema';
