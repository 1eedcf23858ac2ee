/**
 * Checkout and orders: one order per vendor at the price of the moment, stock taken by one
 * conditional statement (no oversell with 100 concurrent buyers), the guarded state machine with
 * its timeline, inventory written on payment, stock returned on cancellation and on expiry.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { db } from '~/db/index.server';
import { marketplacePins, orders, orderStatusHistory, userInventory } from '~/db/schema';
import { addToCart, getCart, setCartQuantity } from '~/services/cart.server';
import { cancelOrder, changeOrderStatus, checkout, expireStaleOrders, fulfilOrder, getOrder, listMyOrders, listVendorOrders } from '~/services/orders.server';
import { listInventory } from '~/services/inventory.server';
import { createUser } from '../support/factories';
import { createListing, createVendor } from '../support/marketplace';

const stockOf = async (id: string) => (await db().select({ s: marketplacePins.stockQuantity }).from(marketplacePins).where(eq(marketplacePins.id, id)).get())?.s;

describe('checkout', () => {
  it('places one order per vendor with the prices of the moment and empties the cart', async () => {
    const a = await createVendor({ businessName: 'Alpha Pins' });
    const b = await createVendor({ businessName: 'Bravo Pins' });
    const la = await createListing(a.vendor.id, { priceCents: 1250, stockQuantity: 5 });
    const lb = await createListing(b.vendor.id, { priceCents: 300, stockQuantity: 2 });
    const buyer = await createUser();
    await addToCart(buyer, { marketplacePinId: la.id, quantity: 2 });
    await addToCart(buyer, { marketplacePinId: lb.id });
    const cart = await getCart(buyer);
    expect(cart.groups.map((g) => [g.vendor.businessName, g.subtotal])).toEqual([['Alpha Pins', '25.00'], ['Bravo Pins', '3.00']]);
    expect(cart.total).toBe('28.00');
    const result = await checkout(buyer, { expected: cart.expected });
    expect(result.provider).toBe('offline');
    expect(result.redirectUrl).toBeNull();
    expect(result.orders.map((o) => [o.vendor.businessName, o.status, o.totalAmount, o.checkoutId])).toEqual([
      ['Alpha Pins', 'pending', '25.00', result.checkoutId],
      ['Bravo Pins', 'pending', '3.00', result.checkoutId],
    ]);
    expect(result.orders[0].number).toBe(result.orders[0].id.slice(-8));
    expect(await stockOf(la.id)).toBe(3);
    expect(await stockOf(lb.id)).toBe(1);
    expect((await getCart(buyer)).groups).toEqual([]);
    await expect(checkout(buyer, {})).rejects.toMatchObject({ status: 400, message: 'Your cart is empty' });
  });

  it('refuses a cart that changed since it was shown, and a line asking for more than is left, writing nothing', async () => {
    const { vendor } = await createVendor();
    const listing = await createListing(vendor.id, { priceCents: 1000, stockQuantity: 3 });
    const buyer = await createUser();
    await addToCart(buyer, { marketplacePinId: listing.id, quantity: 2 });
    const shown = await getCart(buyer);
    await db().update(marketplacePins).set({ priceCents: 1500 }).where(eq(marketplacePins.id, listing.id));
    await expect(checkout(buyer, { expected: shown.expected })).rejects.toMatchObject({ status: 409 });
    const again = await getCart(buyer);
    expect(again.groups[0].lines[0]).toMatchObject({ unitPrice: '15.00', previousPriceCents: 1000 });
    expect(again.priceChanges).toBe(1);
    await db().update(marketplacePins).set({ stockQuantity: 1 }).where(eq(marketplacePins.id, listing.id));
    const short = await getCart(buyer);
    expect(short.groups[0].lines[0].problem).toBe('short');
    await expect(checkout(buyer, { expected: short.expected })).rejects.toMatchObject({ status: 409, message: expect.stringContaining('Only 1 left') });
    expect(await db().select().from(orders).where(eq(orders.userId, buyer.id))).toEqual([]);
    expect(await stockOf(listing.id)).toBe(1);
  });

  it('with 100 concurrent buyers for a stock of 10, exactly 10 pieces are sold and the others get a clear message', async () => {
    const { vendor } = await createVendor();
    const listing = await createListing(vendor.id, { stockQuantity: 10, priceCents: 500 });
    const buyers = await Promise.all(Array.from({ length: 100 }, () => createUser()));
    // each buyer puts one in the cart while there is stock for all of them to see
    for (const b of buyers) await db().insert((await import('~/db/schema')).cartItems).values({ userId: b.id, marketplacePinId: listing.id, quantity: 1, seenPriceCents: 500 });
    const results = await Promise.allSettled(buyers.map((b) => checkout(b, {})));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(90);
    for (const r of refused) {
      expect(r.reason.status).toBe(409);
      expect(r.reason.message).toMatch(/sold out|Only \d+ left/);
    }
    expect(await stockOf(listing.id)).toBe(0);
    const sold = await db().select().from(orders).where(eq(orders.vendorId, vendor.id));
    expect(sold).toHaveLength(10);
  });
});

describe('the order state machine', () => {
  async function placed() {
    const v = await createVendor();
    const listing = await createListing(v.vendor.id, { priceCents: 800, stockQuantity: 4 });
    const buyer = await createUser();
    await addToCart(buyer, { marketplacePinId: listing.id, quantity: 2 });
    const [order] = (await checkout(buyer, {})).orders;
    return { ...v, listing, buyer, order };
  }

  it('pending -> paid -> shipped -> delivered by the vendor; inventory on payment; each move in the timeline', async () => {
    const { user: vendorUser, listing, buyer, order } = await placed();
    const stranger = await createUser();
    const otherVendor = (await createVendor()).user;
    await expect(fulfilOrder(vendorUser, order.id)).rejects.toMatchObject({ status: 409, message: 'Only a paid order can be fulfilled. Mark it paid first.' });
    await expect(changeOrderStatus(buyer, order.id, { status: 'paid' })).rejects.toMatchObject({ status: 403 });
    await expect(changeOrderStatus(otherVendor, order.id, { status: 'paid' })).rejects.toMatchObject({ status: 404 });
    await expect(changeOrderStatus(stranger, order.id, { status: 'paid' })).rejects.toMatchObject({ status: 404 });
    await expect(changeOrderStatus(null, order.id, { status: 'paid' })).rejects.toMatchObject({ status: 401 });
    await expect(changeOrderStatus(vendorUser, order.id, { status: 'delivered' })).rejects.toMatchObject({ status: 409 });
    await expect(changeOrderStatus(vendorUser, order.id, { status: 'lost' })).rejects.toMatchObject({ status: 400 });

    const paid = await changeOrderStatus(vendorUser, order.id, { status: 'paid' });
    expect(paid.status).toBe('paid');
    expect((await listInventory(buyer)).stats).toMatchObject({ items: 1, pieces: 2, spent: '16.00', recent: 1 });
    const shipped = await fulfilOrder(vendorUser, order.id);
    expect(shipped.status).toBe('shipped');
    await expect(fulfilOrder(vendorUser, order.id)).rejects.toMatchObject({ status: 409 });
    const delivered = await changeOrderStatus(vendorUser, order.id, { status: 'delivered' });
    expect(delivered.timeline.map((m) => [m.from, m.to])).toEqual([[null, 'pending'], ['pending', 'paid'], ['paid', 'shipped'], ['shipped', 'delivered']]);
    expect(delivered.timeline.every((m) => m.at && m.by)).toBe(true);
    await expect(cancelOrder(vendorUser, order.id, { reason: 'Too late' })).rejects.toMatchObject({ status: 409 });
    expect(await stockOf(listing.id)).toBe(2);
    const vendorView = await listVendorOrders(vendorUser, { status: 'delivered' });
    expect(vendorView.orders.map((o) => o.id)).toEqual([order.id]);
    expect((await listVendorOrders(vendorUser, { status: 'active' })).orders).toEqual([]);
    await expect(listVendorOrders(buyer)).rejects.toMatchObject({ status: 403 });
  });

  it('the buyer cancels a pending order with a reason and the stock returns; a paid order only its vendor cancels', async () => {
    const { user: vendorUser, listing, buyer, order } = await placed();
    await expect(cancelOrder(buyer, order.id, { reason: '' })).rejects.toMatchObject({ status: 400 });
    const cancelled = await cancelOrder(buyer, order.id, { reason: 'Changed my mind' });
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.timeline.at(-1)).toMatchObject({ from: 'pending', to: 'cancelled', reason: 'Changed my mind' });
    expect(await stockOf(listing.id)).toBe(4);
    await expect(cancelOrder(buyer, order.id, { reason: 'again' })).rejects.toMatchObject({ status: 409 });
    expect(await stockOf(listing.id)).toBe(4);

    const second = await placed();
    await changeOrderStatus(second.user, second.order.id, { status: 'paid' });
    await expect(cancelOrder(second.buyer, second.order.id, { reason: 'Changed my mind' })).rejects.toMatchObject({ status: 403 });
    await cancelOrder(second.user, second.order.id, { reason: 'Out of stock at the booth' });
    expect(await db().select().from(userInventory).where(eq(userInventory.userId, second.buyer.id))).toEqual([]);
    expect(await stockOf(second.listing.id)).toBe(4);
    expect(vendorUser).toBeTruthy();
  });

  it('a pending order past its hold is cancelled by the system and its stock returns', async () => {
    const { listing, buyer, order } = await placed();
    expect(await stockOf(listing.id)).toBe(2);
    expect(await expireStaleOrders({ now: new Date(Date.now() + 29 * 60_000), force: true })).toBe(0);
    expect(await expireStaleOrders({ now: new Date(Date.now() + 31 * 60_000), force: true })).toBeGreaterThanOrEqual(1);
    expect(await stockOf(listing.id)).toBe(4);
    const after = await getOrder(buyer, order.id);
    expect(after.status).toBe('cancelled');
    expect(after.timeline.at(-1)).toMatchObject({ to: 'cancelled', by: null });
    const history = await db().select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, order.id));
    expect(history).toHaveLength(2);
    expect((await listMyOrders(buyer)).orders[0].status).toBe('cancelled');
  });

  it('the cart refuses negative and oversized quantities, a vendor’s own listing, and someone else’s line', async () => {
    const { user: vendorUser, vendor } = await createVendor();
    const listing = await createListing(vendor.id, { stockQuantity: 3 });
    const buyer = await createUser();
    await expect(addToCart(null, { marketplacePinId: listing.id })).rejects.toMatchObject({ status: 401 });
    await expect(addToCart(buyer, { marketplacePinId: listing.id, quantity: -1 })).rejects.toMatchObject({ status: 400 });
    await expect(addToCart(buyer, { marketplacePinId: listing.id, quantity: 1.5 })).rejects.toMatchObject({ status: 400 });
    await expect(addToCart(buyer, { marketplacePinId: listing.id, quantity: 4 })).rejects.toMatchObject({ status: 409, message: expect.stringContaining('Only 3 left') });
    await expect(addToCart(vendorUser, { marketplacePinId: listing.id })).rejects.toMatchObject({ status: 403 });
    await expect(addToCart(buyer, { marketplacePinId: 'nope' })).rejects.toMatchObject({ status: 404 });
    await addToCart(buyer, { marketplacePinId: listing.id });
    await expect(setCartQuantity(await createUser(), listing.id, { quantity: 2 })).rejects.toMatchObject({ status: 404 });
    await expect(setCartQuantity(buyer, listing.id, { quantity: 0 })).rejects.toMatchObject({ status: 400 });
    expect(await setCartQuantity(buyer, listing.id, { quantity: 3 })).toEqual({ quantity: 3 });
  });
});
