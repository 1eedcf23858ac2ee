/**
 * Trade matches benchmark: 10,000 users and 100,000 collection entries (rows only, inserted
 * directly) over 5,000 pins in a temporary database; the time of the matches query
 * (`matchPartners`: the ranked partners of one page) and of the whole /trades matches list
 * (`listTradeMatches`: partners plus the pins each side) for users picked at random. Prints p50
 * and p95. Goal: p95 <= 100 ms.
 *
 *   npx tsx tests/bench/trade-matches.ts [--scale 1] [--repeat 50] [--ci]
 * --ci runs a tenth of the data with 20 users (a slice of npm test).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, setDatabase } from '../../app/db/client.server';
import { transaction } from '../../app/db/index.server';
import { organizations, pins, userCollections, users } from '../../app/db/schema';
import { listTradeMatches, matchPartners } from '../../app/services/trades.server';
import { createId } from '../../app/utils/ids';

const args = process.argv.slice(2);
const ci = args.includes('--ci');
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const SCALE = flag('scale', ci ? 0.1 : 1);
const REPEAT = Math.floor(flag('repeat', ci ? 20 : 50));
const N = { users: Math.round(10_000 * SCALE), entries: Math.round(100_000 * SCALE), pins: Math.max(100, Math.round(5_000 * SCALE)) };
const GOAL_MS = 100;

let seed = 11;
const rand = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 4294967296;
};

async function batches<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
}

/** Users, pins, and entries: popular pins are picked more often (a square skew), half owned, a quarter each wanted and trading. */
async function build(): Promise<string[]> {
  return transaction(async (tx) => {
    const userIds = Array.from({ length: N.users }, () => createId());
    await batches(userIds.map((id, i) => ({ id, email: `u${i}@bench.test`, nickname: `trader${i}`, firstName: 'Bench', lastName: `User ${i}` })), (c) => tx.insert(users).values(c));
    const orgId = createId();
    await tx.insert(organizations).values({ id: orgId, name: 'Bench League', description: 'bench' });
    const pinIds = Array.from({ length: N.pins }, () => createId());
    await batches(pinIds.map((id, i) => ({ id, name: `Bench Pin ${i}`, organizationId: orgId, totalQuantity: 100, availableQuantity: 50 })), (c) => tx.insert(pins).values(c));
    const seen = new Set<string>();
    const rows: (typeof userCollections.$inferInsert)[] = [];
    while (rows.length < N.entries) {
      const u = userIds[Math.floor(rand() * userIds.length)];
      const p = pinIds[Math.floor(rand() * rand() * pinIds.length)];
      const key = `${u}:${p}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const r = rand();
      rows.push({ id: createId(), userId: u, pinId: p, status: r < 0.5 ? 'owned' : r < 0.75 ? 'wanted' : 'trading', quantity: 1 });
    }
    await batches(rows, (c) => tx.insert(userCollections).values(c));
    return userIds;
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function time(fn: (userId: string) => Promise<unknown>, userIds: string[]) {
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const id = userIds[Math.floor(rand() * userIds.length)];
    const t = performance.now();
    await fn(id);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-trade-bench-'));
  const handle = openDatabase(`file:${path.join(dir, 'bench.db')}`);
  try {
    await handle.migrate();
    setDatabase(handle);
    const t0 = performance.now();
    const userIds = await build();
    console.log(`Built ${N.users.toLocaleString('en-US')} users, ${N.pins.toLocaleString('en-US')} pins, ${N.entries.toLocaleString('en-US')} collection entries in ${((performance.now() - t0) / 1000).toFixed(1)} s (${handle.driver}).`);
    // warm the page cache once
    await matchPartners(userIds[0]);
    let partners = 0;
    const query = await time(async (id) => {
      partners += (await matchPartners(id)).total;
    }, userIds);
    const page = await time((id) => listTradeMatches({ id, role: 'player' }), userIds);
    const fmt = (n: number) => `${n.toFixed(1)} ms`;
    console.log(`matches query (ranked partners, page 1)  p50 ${fmt(query.p50)}  p95 ${fmt(query.p95)}  (${Math.round(partners / REPEAT)} partners per user on average)`);
    console.log(`matches list (partners + pins each side)  p50 ${fmt(page.p50)}  p95 ${fmt(page.p95)}`);
    console.log(`goal: p95 <= ${GOAL_MS} ms: ${query.p95 <= GOAL_MS && page.p95 <= GOAL_MS ? 'met' : 'NOT met'}`);
    if (ci && (query.p50 > GOAL_MS || page.p50 > GOAL_MS)) process.exitCode = 1;
  } finally {
    handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
