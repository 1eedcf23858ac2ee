/**
 * The marketplace, vendor, cart, checkout, order and inventory calls through their real route
 * modules: each by a visitor (401), the wrong role (403), the wrong owner (403/404) and with bad
 * input (400, nothing written).
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUserSession } from '~/auth/session.server';
import { db } from '~/db/index.server';
import { marketplacePins, orders, userCollections, vendorApplicationHistory, vendors, type Role } from '~/db/schema';
import { loader as pinsLoader, action as pinsAction } from '~/routes/api.marketplace.pins';
import { loader as pinLoader, action as pinAction } from '~/routes/api.marketplace.pins.$id';
import { action as vendorsAction } from '~/routes/api.vendors';
import { loader as vendorOrdersLoader } from '~/routes/api.vendor.orders';
import { loader as ordersLoader } from '~/routes/api.orders';
import { loader as orderLoader } from '~/routes/api.orders.$id';
import { action as fulfillAction } from '~/routes/api.orders.$id.fulfill';
import { action as cancelAction } from '~/routes/api.orders.$id.cancel';
import { action as statusAction } from '~/routes/api.orders.$id.status';
import { loader as cartLoader, action as cartAction } from '~/routes/api.cart';
import { action as cartLineAction } from '~/routes/api.cart.$listingId';
import { action as checkoutAction } from '~/routes/api.checkout';
import { loader as inventoryLoader } from '~/routes/api.inventory';
import { action as toCollectionAction } from '~/routes/api.inventory.$id.collection';
import { createPin, createUser } from '../support/factories';
import { createListing, createVendor } from '../support/marketplace';

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<Response>;

async function cookieFor(userId: string) {
  return (await createUserSession(new Request('http://localhost/'), userId)).split(';')[0];
}
async function session(role: Role = 'player') {
  const user = await createUser({ role });
  return { user, cookie: await cookieFor(user.id) };
}
async function vendorSession(opts: { approved?: boolean } = {}) {
  const v = await createVendor(opts);
  return { ...v, cookie: await cookieFor(v.user.id) };
}

function request(url: string, init: { method?: string; cookie?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set('Cookie', init.cookie);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return new Request(`http://localhost${url}`, { method: init.method ?? 'GET', headers, body });
}

async function call(handler: unknown, req: Request, params: Record<string, string> = {}) {
  const response = await (handler as Handler)({ request: req, params, context: {} });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe('GET/POST /api/marketplace/pins', () => {
  it('lists buyable listings with search, category and vendor filters; prices with 2 decimals', async () => {
    const v = await vendorSession();
    const hidden = await vendorSession({ approved: false });
    const pin = await createPin();
    const a = await createListing(v.vendor.id, { name: 'Harbor Hawks 12U trading pin', priceCents: 1250, category: 'Team', pinId: pin.id });
    await createListing(v.vendor.id, { name: 'Inactive Hawks', isActive: false });
    await createListing(hidden.vendor.id, { name: 'Unapproved Hawks' });
    const buyer = await session();
    const res = await call(pinsLoader, request('/api/marketplace/pins?search=hawks', { cookie: buyer.cookie }));
    expect(res.status).toBe(200);
    expect(res.body.pins.map((p: { id: string }) => p.id)).toEqual([a.id]);
    expect(res.body.pins[0]).toMatchObject({ price: '12.50', priceCents: 1250, stockQuantity: 10, vendor: { id: v.vendor.id } });
    expect((await call(pinsLoader, request(`/api/marketplace/pins?vendorId=${v.vendor.id}&category=Team`, { cookie: buyer.cookie }))).body.total).toBe(1);
    expect((await call(pinsLoader, request(`/api/marketplace/pins?pinId=${pin.id}`, { cookie: buyer.cookie }))).body.total).toBe(1);
    expect((await call(pinsLoader, request('/api/marketplace/pins?category=Vintage', { cookie: buyer.cookie }))).body.total).toBe(0);
    expect((await call(pinsLoader, request('/api/marketplace/pins'))).status).toBe(401);
  });

  it('an approved vendor lists a pin; visitor 401, player 403, unapproved vendor 403, bad prices 400 with nothing written', async () => {
    const v = await vendorSession();
    const pending = await vendorSession({ approved: false });
    const player = await session();
    const body = { name: 'Gold Glove', description: 'Die struck', price: '12.5', stockQuantity: '4', category: 'Tournament' };
    const created = await call(pinsAction, request('/api/marketplace/pins', { method: 'POST', cookie: v.cookie, json: body }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Gold Glove', price: '12.50', priceCents: 1250, stockQuantity: 4, isActive: true, vendorId: v.vendor.id });
    expect((await call(pinsAction, request('/api/marketplace/pins', { method: 'POST', json: body }))).status).toBe(401);
    expect((await call(pinsAction, request('/api/marketplace/pins', { method: 'POST', cookie: player.cookie, json: body }))).status).toBe(403);
    expect((await call(pinsAction, request('/api/marketplace/pins', { method: 'POST', cookie: pending.cookie, json: body }))).status).toBe(403);
    const before = (await db().select().from(marketplacePins).where(eq(marketplacePins.vendorId, v.vendor.id))).length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...body, name: '' }, 'name', 'Pin name is required'],
      [{ ...body, price: '' }, 'price', 'Price is required'],
      [{ ...body, stockQuantity: '' }, 'stockQuantity', 'Stock quantity is required'],
      [{ ...body, price: '12.345' }, 'price', 'Enter a price in dollars with at most 2 decimals, e.g. 12.50'],
      [{ ...body, price: '100000000.00' }, 'price', 'Price must be at most $99,999,999.99'],
      [{ ...body, price: '-1' }, 'price', 'Enter a price in dollars with at most 2 decimals, e.g. 12.50'],
      [{ ...body, stockQuantity: '-2' }, 'stockQuantity', 'Stock quantity must be a whole number from 0 to 100,000'],
      [{ ...body, category: 'Bogus' }, 'category', 'Choose a category from the list'],
      [{ ...body, pinId: 'nope' }, 'pinId', 'That catalogue pin does not exist'],
    ];
    for (const [input, field, message] of cases) {
      const res = await call(pinsAction, request('/api/marketplace/pins', { method: 'POST', cookie: v.cookie, json: input }));
      expect(res.status, field).toBe(400);
      expect(res.body.issues[field]).toEqual([message]);
    }
    expect((await call(pinsAction, request('/api/marketplace/pins', { method: 'POST', cookie: v.cookie, json: { ...body, price: '99999999.99' } }))).body.price).toBe('99999999.99');
    expect((await db().select().from(marketplacePins).where(eq(marketplacePins.vendorId, v.vendor.id))).length).toBe(before + 1);
    expect((await call(pinsAction, request('/api/marketplace/pins', { method: 'DELETE', cookie: v.cookie }))).status).toBe(405);
  });

  it('PATCH /api/marketplace/pins/{id}: its vendor toggles and edits; another vendor 403; bad input 400', async () => {
    const v = await vendorSession();
    const other = await vendorSession();
    const listing = await createListing(v.vendor.id);
    const off = await call(pinAction, request(`/api/marketplace/pins/${listing.id}`, { method: 'PATCH', cookie: v.cookie, json: { isActive: false, price: '3.00' } }), { id: listing.id });
    expect(off.body).toMatchObject({ isActive: false, price: '3.00' });
    const buyer = await session();
    expect((await call(pinLoader, request(`/api/marketplace/pins/${listing.id}`, { cookie: buyer.cookie }), { id: listing.id })).status).toBe(404);
    expect((await call(pinLoader, request(`/api/marketplace/pins/${listing.id}`, { cookie: v.cookie }), { id: listing.id })).status).toBe(200);
    expect((await call(pinAction, request(`/api/marketplace/pins/${listing.id}`, { method: 'PATCH', cookie: other.cookie, json: { price: '1' } }), { id: listing.id })).status).toBe(403);
    expect((await call(pinAction, request(`/api/marketplace/pins/${listing.id}`, { method: 'PATCH', cookie: buyer.cookie, json: { price: '1' } }), { id: listing.id })).status).toBe(403);
    expect((await call(pinAction, request(`/api/marketplace/pins/${listing.id}`, { method: 'PATCH', json: { price: '1' } }), { id: listing.id })).status).toBe(401);
    expect((await call(pinAction, request(`/api/marketplace/pins/${listing.id}`, { method: 'PATCH', cookie: v.cookie, json: { price: '1.001' } }), { id: listing.id })).status).toBe(400);
    expect((await call(pinAction, request('/api/marketplace/pins/nope', { method: 'PATCH', cookie: v.cookie, json: { price: '1' } }), { id: 'nope' })).status).toBe(404);
    const row = await db().select().from(marketplacePins).where(eq(marketplacePins.id, listing.id)).get();
    expect(row?.priceCents).toBe(300);
  });
});

describe('listing photos', () => {
  it('stores up to 5 photos through the image store; a sixth is refused and nothing is written', async () => {
    const sharp = (await import('sharp')).default;
    const png = await sharp({ create: { width: 60, height: 60, channels: 3, background: { r: 20, g: 90, b: 200 } } }).png().toBuffer();
    const v = await vendorSession();
    const form = (n: number) => {
      const f = new FormData();
      f.set('name', 'Photo pin');
      f.set('price', '4.00');
      f.set('stockQuantity', '3');
      for (let i = 0; i < n; i++) f.append('images', new Blob([new Uint8Array(png)], { type: 'image/png' }), `p${i}.png`);
      return f;
    };
    const ok = await call(pinsAction, request('/api/marketplace/pins', { method: 'POST', cookie: v.cookie, body: form(2) }));
    expect(ok.status).toBe(201);
    expect(ok.body.images).toHaveLength(2);
    expect(ok.body.thumbnail).toMatch(/^\/images\/[a-f0-9]{32}\?s=thumb$/);
    const before = (await db().select().from(marketplacePins).where(eq(marketplacePins.vendorId, v.vendor.id))).length;
    const tooMany = await call(pinsAction, request('/api/marketplace/pins', { method: 'POST', cookie: v.cookie, body: form(6) }));
    expect(tooMany).toMatchObject({ status: 400, body: { error: 'You can add up to 5 photos per pin.' } });
    const notImage = new FormData();
    notImage.set('name', 'Bad photo');
    notImage.set('price', '4.00');
    notImage.set('stockQuantity', '3');
    notImage.append('images', new Blob([new Uint8Array(Buffer.from('%PDF-1.4'))], { type: 'image/png' }), 'x.png');
    expect((await call(pinsAction, request('/api/marketplace/pins', { method: 'POST', cookie: v.cookie, body: notImage }))).status).toBe(415);
    expect((await db().select().from(marketplacePins).where(eq(marketplacePins.vendorId, v.vendor.id))).length).toBe(before);
  });
});

describe('POST /api/vendors', () => {
  it('a user applies once (pending, with history); visitor 401; bad input 400; a second application 409', async () => {
    const player = await session();
    const bad = await call(vendorsAction, request('/api/vendors', { method: 'POST', cookie: player.cookie, json: { businessName: '', contactEmail: 'nope' } }));
    expect(bad).toMatchObject({ status: 400, body: { issues: { businessName: ['Business name is required'], contactEmail: ['Valid email is required'] } } });
    expect((await call(vendorsAction, request('/api/vendors', { method: 'POST', json: { businessName: 'X', contactEmail: 'x@example.test' } }))).status).toBe(401);
    const ok = await call(vendorsAction, request('/api/vendors', { method: 'POST', cookie: player.cookie, json: { businessName: 'Parker Pins', contactEmail: 'parker@example.test', description: 'Tournament pins' } }));
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ businessName: 'Parker Pins', applicationStatus: 'pending', isApproved: false, userId: player.user.id });
    const history = await db().select().from(vendorApplicationHistory).where(eq(vendorApplicationHistory.vendorId, ok.body.id));
    expect(history.map((h) => [h.previousStatus, h.newStatus, h.changedBy])).toEqual([[null, 'pending', player.user.id]]);
    expect((await call(vendorsAction, request('/api/vendors', { method: 'POST', cookie: player.cookie, json: { businessName: 'Again', contactEmail: 'a@example.test' } }))).status).toBe(409);
    expect((await db().select().from(vendors).where(eq(vendors.userId, player.user.id))).length).toBe(1);
  });
});

describe('cart, checkout, orders, fulfil, inventory', () => {
  it('walks a buyer and a vendor through the calls; every wrong caller is refused and nothing half-written', async () => {
    const v = await vendorSession();
    const otherVendor = await vendorSession();
    const catalogue = await createPin();
    const listing = await createListing(v.vendor.id, { priceCents: 450, stockQuantity: 5, pinId: catalogue.id });
    const buyer = await session();
    const stranger = await session();

    // cart
    expect((await call(cartLoader, request('/api/cart'))).status).toBe(401);
    expect((await call(cartAction, request('/api/cart', { method: 'POST', cookie: buyer.cookie, json: { marketplacePinId: listing.id, quantity: -3 } }))).status).toBe(400);
    expect((await call(cartAction, request('/api/cart', { method: 'POST', cookie: buyer.cookie, body: '{broken', headers: { 'Content-Type': 'application/json' } }))).status).toBe(400);
    expect((await call(cartAction, request('/api/cart', { method: 'POST', cookie: v.cookie, json: { marketplacePinId: listing.id } }))).status).toBe(403);
    const added = await call(cartAction, request('/api/cart', { method: 'POST', cookie: buyer.cookie, json: { marketplacePinId: listing.id, quantity: 2 } }));
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ itemCount: 2, total: '9.00', groups: [{ vendor: { id: v.vendor.id }, subtotal: '9.00' }] });
    expect((await call(cartLineAction, request(`/api/cart/${listing.id}`, { method: 'PATCH', cookie: buyer.cookie, json: { quantity: 'lots' } }), { listingId: listing.id })).status).toBe(400);
    expect((await call(cartLineAction, request(`/api/cart/${listing.id}`, { method: 'PATCH', cookie: stranger.cookie, json: { quantity: 1 } }), { listingId: listing.id })).status).toBe(404);
    expect((await call(cartLineAction, request(`/api/cart/${listing.id}`, { method: 'DELETE', cookie: stranger.cookie }), { listingId: listing.id })).status).toBe(404);
    const cart = (await call(cartLoader, request('/api/cart', { cookie: buyer.cookie }))).body;

    // checkout
    expect((await call(checkoutAction, request('/api/checkout', { method: 'POST', json: {} }))).status).toBe(401);
    expect((await call(checkoutAction, request('/api/checkout', { method: 'POST', cookie: stranger.cookie, json: {} }))).status).toBe(400);
    expect((await call(checkoutAction, request('/api/checkout', { method: 'POST', cookie: buyer.cookie, json: { expected: 'something else' } }))).status).toBe(409);
    const placed = await call(checkoutAction, request('/api/checkout', { method: 'POST', cookie: buyer.cookie, json: { expected: cart.expected } }));
    expect(placed.status).toBe(201);
    const orderId = placed.body.orders[0].id;
    expect(placed.body.orders[0]).toMatchObject({ status: 'pending', totalAmount: '9.00', number: orderId.slice(-8) });

    // orders: buyer, vendor, stranger
    expect((await call(ordersLoader, request('/api/orders', { cookie: buyer.cookie }))).body.orders.map((o: { id: string }) => o.id)).toEqual([orderId]);
    expect((await call(orderLoader, request(`/api/orders/${orderId}`, { cookie: stranger.cookie }), { id: orderId })).status).toBe(404);
    expect((await call(orderLoader, request(`/api/orders/${orderId}`, { cookie: v.cookie }), { id: orderId })).status).toBe(200);
    expect((await call(orderLoader, request(`/api/orders/${orderId}`), { id: orderId })).status).toBe(401);
    const vendorOrders = await call(vendorOrdersLoader, request('/api/vendor/orders?status=active', { cookie: v.cookie }));
    expect(vendorOrders.body.orders[0]).toMatchObject({ id: orderId, status: 'pending', totalAmount: '9.00', createdAt: expect.any(String) });
    expect((await call(vendorOrdersLoader, request('/api/vendor/orders', { cookie: buyer.cookie }))).status).toBe(403);
    expect((await call(vendorOrdersLoader, request('/api/vendor/orders'))).status).toBe(401);
    expect((await call(vendorOrdersLoader, request('/api/vendor/orders', { cookie: otherVendor.cookie }))).body.orders).toEqual([]);

    // fulfil only while paid, only by its vendor
    expect((await call(fulfillAction, request(`/api/orders/${orderId}/fulfill`, { method: 'POST', cookie: v.cookie }), { id: orderId })).status).toBe(409);
    expect((await call(statusAction, request(`/api/orders/${orderId}/status`, { method: 'POST', cookie: buyer.cookie, json: { status: 'paid' } }), { id: orderId })).status).toBe(403);
    expect((await call(statusAction, request(`/api/orders/${orderId}/status`, { method: 'POST', cookie: otherVendor.cookie, json: { status: 'paid' } }), { id: orderId })).status).toBe(404);
    expect((await call(statusAction, request(`/api/orders/${orderId}/status`, { method: 'POST', cookie: v.cookie, json: { status: 'refunded' } }), { id: orderId })).status).toBe(400);
    expect((await call(statusAction, request(`/api/orders/${orderId}/status`, { method: 'POST', cookie: v.cookie, json: { status: 'paid' } }), { id: orderId })).body.status).toBe('paid');
    expect((await call(fulfillAction, request(`/api/orders/${orderId}/fulfill`, { method: 'POST', cookie: otherVendor.cookie }), { id: orderId })).status).toBe(404);
    expect((await call(fulfillAction, request(`/api/orders/${orderId}/fulfill`, { method: 'POST', cookie: buyer.cookie }), { id: orderId })).status).toBe(403);
    expect((await call(fulfillAction, request(`/api/orders/${orderId}/fulfill`, { method: 'POST' }), { id: orderId })).status).toBe(401);
    const shipped = await call(fulfillAction, request(`/api/orders/${orderId}/fulfill`, { method: 'POST', cookie: v.cookie }), { id: orderId });
    expect(shipped.body.status).toBe('shipped');
    expect((await call(cancelAction, request(`/api/orders/${orderId}/cancel`, { method: 'POST', cookie: buyer.cookie, json: { reason: 'x' } }), { id: orderId })).status).toBe(409);

    // inventory and the collection
    expect((await call(inventoryLoader, request('/api/inventory'))).status).toBe(401);
    const inv = await call(inventoryLoader, request('/api/inventory', { cookie: buyer.cookie }));
    expect(inv.body.items).toHaveLength(1);
    expect(inv.body.items[0]).toMatchObject({ quantity: 2, orderId, marketplacePin: { name: listing.name, pinId: catalogue.id } });
    expect((await call(inventoryLoader, request('/api/inventory', { cookie: stranger.cookie }))).body.items).toEqual([]);
    const itemId = inv.body.items[0].id;
    expect((await call(toCollectionAction, request(`/api/inventory/${itemId}/collection`, { method: 'POST', cookie: stranger.cookie }), { id: itemId })).status).toBe(404);
    const owned = await call(toCollectionAction, request(`/api/inventory/${itemId}/collection`, { method: 'POST', cookie: buyer.cookie }), { id: itemId });
    expect(owned.status).toBe(201);
    const entry = await db().select().from(userCollections).where(eq(userCollections.userId, buyer.user.id)).get();
    expect(entry).toMatchObject({ pinId: catalogue.id, status: 'owned', quantity: 2 });
    expect((await db().select().from(orders).where(eq(orders.userId, stranger.user.id))).length).toBe(0);
  });
});
