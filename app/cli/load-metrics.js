/**
 * Where the server's time goes, for the load benchmark (tests/bench/load.ts): with
 * PINDEX_METRICS=1 the server counts requests, CPU time, event-loop delay and the time spent inside
 * SQLite calls (better-sqlite3 runs them on the main thread, so that time is exact), and answers
 * GET /__metrics with the figures since the last POST /__metrics (which starts a new window).
 * Off by default: nothing is patched and no route is added.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';

/** Wraps better-sqlite3's statement and exec calls to add up the time they take. */
function timeSqlite(totals) {
  const probe = new Database(':memory:');
  const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  const wrap = (proto, name) => {
    const original = proto[name];
    proto[name] = function timed(...args) {
      // a commit: COMMIT, or a write statement outside a transaction (each is its own)
      const database = this instanceof Database ? this : this.database;
      const commits = name === 'exec' ? /^\s*COMMIT/i.test(String(args[0])) : !this.reader && !database.inTransaction;
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        totals.dbNs += process.hrtime.bigint() - started;
        totals.dbCalls += 1;
        if (commits) totals.commits += 1;
      }
    };
  };
  for (const name of ['run', 'get', 'all']) wrap(Statement, name);
  wrap(Database.prototype, 'exec');
}

/** Express middleware that counts and answers /__metrics. */
export function loadMetrics() {
  const totals = { requests: 0, dbNs: 0n, dbCalls: 0, commits: 0 };
  timeSqlite(totals);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let windowStart = { cpu: process.cpuUsage(), at: process.hrtime.bigint(), requests: 0, dbNs: 0n, dbCalls: 0, commits: 0 };
  const ms = (ns) => Number(ns) / 1e6;
  return (req, res, next) => {
    if (req.path !== '/__metrics') {
      totals.requests += 1;
      return next();
    }
    if (req.method === 'POST') {
      loop.reset();
      windowStart = { cpu: process.cpuUsage(), at: process.hrtime.bigint(), requests: totals.requests, dbNs: totals.dbNs, dbCalls: totals.dbCalls, commits: totals.commits };
      return res.json({ ok: true });
    }
    const cpu = process.cpuUsage(windowStart.cpu);
    const requests = totals.requests - windowStart.requests;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const dbMs = ms(totals.dbNs - windowStart.dbNs);
    res.json({
      seconds: ms(process.hrtime.bigint() - windowStart.at) / 1000,
      requests,
      cpuMs,
      cpuMsPerRequest: requests ? cpuMs / requests : 0,
      dbMs,
      dbMsPerRequest: requests ? dbMs / requests : 0,
      dbCalls: totals.dbCalls - windowStart.dbCalls,
      commits: totals.commits - windowStart.commits,
      eventLoopDelayMs: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
      rssMb: process.memoryUsage().rss / 1048576,
    });
  };
}
