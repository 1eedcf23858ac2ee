/**
 * Checkout and orders on a real libSQL server (sqld on 127.0.0.1), the README's path past one
 * machine: the state machine, and no oversell with two app processes checking out 100 buyers for
 * a stock of 10 at once.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, setDatabase, type DbHandle } from '~/db/client.server';
import { db } from '~/db/index.server';
import { cartItems, marketplacePins, orders } from '~/db/schema';
import { addToCart } from '~/services/cart.server';
import { cancelOrder, changeOrderStatus, checkout, fulfilOrder } from '~/services/orders.server';
import { createUser } from '../support/factories';
import { createListing, createVendor } from '../support/marketplace';
import { sqldAvailable, startSqld, type SqldServer } from '../support/sqld';

const run = promisify(execFile);
let sqld: SqldServer | undefined;
let handle: DbHandle | undefined;

// Its own sqld whatever the driver: `npm test` runs it once, in its libSQL pass, not again in the
// better-sqlite3 pass (15 s each, two app processes); a plain `npx vitest run` runs it.
describe.skipIf(!sqldAvailable() || process.env.DB_DRIVER === 'better-sqlite3')('orders on a libSQL server', () => {
  beforeAll(async () => {
    sqld = await startSqld();
    handle = openDatabase(sqld.url);
    await handle.migrate();
    setDatabase(handle);
  }, 300_000);

  afterAll(async () => {
    handle?.close();
    await sqld?.stop();
  });

  const stockOf = async (id: string) => (await db().select().from(marketplacePins).where(eq(marketplacePins.id, id)).get())?.stockQuantity;

  it('places, pays, ships, delivers and cancels with stock kept right', async () => {
    expect(handle?.driver).toBe('libsql');
    const v = await createVendor();
    const listing = await createListing(v.vendor.id, { stockQuantity: 5, priceCents: 700 });
    const buyer = await createUser();
    await addToCart(buyer, { marketplacePinId: listing.id, quantity: 2 });
    const [order] = (await checkout(buyer, {})).orders;
    expect(await stockOf(listing.id)).toBe(3);
    await changeOrderStatus(v.user, order.id, { status: 'paid' });
    await fulfilOrder(v.user, order.id);
    const done = await changeOrderStatus(v.user, order.id, { status: 'delivered' });
    expect(done.timeline.map((m) => m.to)).toEqual(['pending', 'paid', 'shipped', 'delivered']);
    await addToCart(buyer, { marketplacePinId: listing.id, quantity: 3 });
    const [second] = (await checkout(buyer, {})).orders;
    expect(await stockOf(listing.id)).toBe(0);
    await cancelOrder(buyer, second.id, { reason: 'Changed my mind' });
    expect(await stockOf(listing.id)).toBe(3);
  });

  it('two app processes, 100 buyers, a stock of 10: exactly 10 sold, 90 told so', async () => {
    const v = await createVendor();
    const listing = await createListing(v.vendor.id, { stockQuantity: 10, priceCents: 500 });
    const buyers = [];
    for (let i = 0; i < 100; i++) buyers.push(await createUser());
    await db()
      .insert(cartItems)
      .values(buyers.map((b) => ({ userId: b.id, marketplacePinId: listing.id, quantity: 1, seenPriceCents: 500 })));
    const halves = [buyers.slice(0, 50), buyers.slice(50)];
    const outputs = await Promise.all(
      halves.map((half) =>
        run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'tests/support/sqld-buyers.ts'], {
          env: { ...process.env, DATABASE_URL: sqld!.url, DB_DRIVER: 'libsql', BUYERS: half.map((b) => b.id).join(',') },
          timeout: 120_000,
        }),
      ),
    );
    const results = outputs.map((o) => JSON.parse(o.stdout) as { sold: number; refused: number; messages: string[]; unexpected: string[] });
    expect(results.flatMap((r) => r.unexpected)).toEqual([]);
    expect(results.reduce((n, r) => n + r.sold, 0)).toBe(10);
    expect(results.reduce((n, r) => n + r.refused, 0)).toBe(90);
    for (const m of results.flatMap((r) => r.messages)) expect(m).toMatch(/sold out|Only \d+ left/);
    expect(await stockOf(listing.id)).toBe(0);
    expect(await db().select().from(orders).where(eq(orders.vendorId, v.vendor.id))).toHaveLength(10);
  }, 180_000);
});
