/**
 * Stripe Checkout through the official SDK against a small fake Stripe of the test's own: checkout
 * creates a session after its transaction (the fake takes a database write lock while it answers,
 * which would deadlock if Stripe were called inside one), the verified webhook marks the orders
 * paid once per event id, an expired session returns the stock, a failed session start cancels.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, transaction } from '~/db/index.server';
import { checkouts, marketplacePins, orders, userInventory } from '~/db/schema';
import { action as webhookAction } from '~/routes/api.stripe.webhook';
import { addToCart } from '~/services/cart.server';
import { checkout } from '~/services/orders.server';
import { createUser } from '../support/factories';
import { createListing, createVendor } from '../support/marketplace';

const SECRET = 'whsec_test_secret';
let server: http.Server;
let fail = false;
const requests: { path: string; body: string; lockFree: boolean }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      // a write transaction of our own: it would wait forever if checkout held the lock now
      const lockFree = await Promise.race([transaction(async (tx) => (await tx.select().from(checkouts).limit(1), true)), new Promise<boolean>((r) => setTimeout(() => r(false), 2000))]);
      requests.push({ path: req.url ?? '', body, lockFree });
      if (fail) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'Stripe is down' } }));
        return;
      }
      const params = new URLSearchParams(body);
      const id = `cs_test_${requests.length}`;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Request-Id': `req_${requests.length}` });
      res.end(JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.test/pay/${id}`, client_reference_id: params.get('client_reference_id'), metadata: { checkoutId: params.get('metadata[checkoutId]') }, payment_status: 'unpaid' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.env.STRIPE_SECRET_KEY = 'sk_test_fake';
  process.env.STRIPE_WEBHOOK_SECRET = SECRET;
  process.env.STRIPE_API_BASE = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
  delete process.env.STRIPE_API_BASE;
  await new Promise((r) => server.close(r));
});

const stockOf = async (id: string) => (await db().select().from(marketplacePins).where(eq(marketplacePins.id, id)).get())?.stockQuantity;

function event(id: string, type: string, session: Record<string, unknown>) {
  return JSON.stringify({ id, object: 'event', type, data: { object: { object: 'checkout.session', ...session } } });
}
async function post(payload: string, signature?: string) {
  const header = signature ?? new Stripe('sk_test_fake').webhooks.generateTestHeaderString({ payload, secret: SECRET });
  const response = await (webhookAction as (a: { request: Request; params: object; context: object }) => Promise<Response>)({
    request: new Request('http://localhost/api/stripe/webhook', { method: 'POST', body: payload, headers: { 'Stripe-Signature': header, 'Content-Type': 'application/json' } }),
    params: {},
    context: {},
  });
  return { status: response.status, body: await response.json() };
}

async function placeOrder(stock = 5) {
  const a = await createVendor();
  const b = await createVendor();
  const la = await createListing(a.vendor.id, { priceCents: 1000, stockQuantity: stock });
  const lb = await createListing(b.vendor.id, { priceCents: 250, stockQuantity: stock });
  const buyer = await createUser();
  await addToCart(buyer, { marketplacePinId: la.id, quantity: 2 });
  await addToCart(buyer, { marketplacePinId: lb.id });
  return { la, lb, buyer, result: await checkout(buyer, {}, { origin: 'http://shop.test' }) };
}

describe('Stripe Checkout', () => {
  it('creates a session outside any transaction and sends the buyer to it', async () => {
    const { result, la } = await placeOrder();
    expect(result.provider).toBe('stripe');
    expect(result.redirectUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    const sent = requests.at(-1)!;
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.lockFree).toBe(true);
    const params = new URLSearchParams(sent.body);
    const lines = [0, 1].map((i) => [params.get(`line_items[${i}][price_data][unit_amount]`), params.get(`line_items[${i}][quantity]`)]);
    expect(lines.sort()).toEqual([['1000', '2'], ['250', '1']]);
    expect(params.get('success_url')).toBe(`http://shop.test/orders?checkout=${result.checkoutId}&paid=1`);
    expect(result.orders.every((o) => o.status === 'pending')).toBe(true);
    expect(await stockOf(la.id)).toBe(3);
  });

  it('the verified webhook marks the checkout’s orders paid, once per event id; a bad signature is 400', async () => {
    const { result, buyer } = await placeOrder();
    const row = await db().select().from(checkouts).where(eq(checkouts.id, result.checkoutId)).get();
    const payload = event('evt_paid_1', 'checkout.session.completed', { id: row!.stripeSessionId, payment_status: 'paid', payment_intent: 'pi_123', metadata: { checkoutId: result.checkoutId } });
    expect((await post(payload, 't=1,v1=deadbeef')).status).toBe(400);
    expect((await post(payload)).body).toEqual({ received: true, handled: 'paid' });
    expect((await post(payload)).body).toEqual({ received: true, duplicate: true });
    const placed = await db().select().from(orders).where(eq(orders.checkoutId, result.checkoutId));
    expect(placed.map((o) => [o.status, o.stripePaymentIntentId])).toEqual([['paid', 'pi_123'], ['paid', 'pi_123']]);
    expect(await db().select().from(userInventory).where(eq(userInventory.userId, buyer.id))).toHaveLength(2);
  });

  it('an expired session cancels the orders and returns the stock; a session of another checkout changes nothing', async () => {
    const { result, la, lb } = await placeOrder();
    const row = await db().select().from(checkouts).where(eq(checkouts.id, result.checkoutId)).get();
    expect((await post(event('evt_other', 'checkout.session.expired', { id: 'cs_someone_else', metadata: { checkoutId: result.checkoutId } }))).body).toEqual({ received: true });
    expect(await stockOf(la.id)).toBe(3);
    expect((await post(event('evt_exp_1', 'checkout.session.expired', { id: row!.stripeSessionId, metadata: { checkoutId: result.checkoutId } }))).body).toEqual({ received: true, handled: 'expired' });
    expect(await stockOf(la.id)).toBe(5);
    expect(await stockOf(lb.id)).toBe(5);
    const placed = await db().select().from(orders).where(eq(orders.checkoutId, result.checkoutId));
    expect(placed.every((o) => o.status === 'cancelled')).toBe(true);
  });

  it('when Stripe fails, the checkout is refused and the stock returns', async () => {
    fail = true;
    try {
      await expect(placeOrder()).rejects.toMatchObject({ status: 409 });
    } finally {
      fail = false;
    }
    const last = await db().select().from(marketplacePins).orderBy(marketplacePins.createdAt);
    expect(last.slice(-2).map((l) => l.stockQuantity)).toEqual([5, 5]);
  });
});
