/**
 * Checkout and orders. Spec §2-§4, §7; the state machine is utils/order-status.ts.
 *
 * Checkout turns the buyer's cart into one order per vendor (order_items at the price of the
 * moment, one shared checkout id) in one transaction. Each line takes its stock with one
 * conditional statement, `UPDATE ... SET stock = stock - q WHERE id = ? AND stock >= q AND
 * price = the price shown ...`, so no interleaving of buyers, processes or machines can oversell:
 * the first line that cannot be had rolls the whole checkout back with a clear 409.
 *
 * A pending order holds its stock for ORDER_HOLD_MINUTES (default 30; 0 = no limit) and is then
 * cancelled by the system, returning the stock (`expireStaleOrders`, run lazily by the pages and
 * calls that show stock or orders). Every status move is a guarded, conditional UPDATE (a
 * concurrent second move of the same order loses) plus an order_status_history row: who, when,
 * from, to, why. Becoming paid writes the items into the buyer's inventory; cancelling returns
 * the stock (and takes the items back out of the inventory of a paid order).
 *
 * Payment providers are called only after the transaction commits (payments/).
 */
import { and, asc, count, desc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { assertCanFulfilOrder, assertCanSell, assertCanViewOrder, assertSignedIn, canCancelOrder, type Actor } from '~/auth/permissions';
import { db, transaction, type Db } from '~/db/index.server';
import {
  checkouts,
  cartItems,
  marketplacePins,
  orderItems,
  orders,
  orderStatusHistory,
  userInventory,
  users,
  vendors,
  type Order,
  type OrderStatus,
} from '~/db/schema';
import { cancelSchema, checkoutSchema, statusMoveSchema } from '~/forms/marketplace';
import { centsToDecimal } from '~/utils/money';
import { ACTIVE_STATUSES, canMoveOrder, ORDER_STATUS_LABELS, orderNumber } from '~/utils/order-status';
import { paginate, type Paging } from '~/utils/paging';
import { displayName } from '~/utils/user';
import { parseWith } from '~/utils/validation';
import { getCart } from './cart.server';
import { Conflict, Forbidden, Invalid, NotFound } from './errors';
import { imageUrl } from './images.server';
import { getVendorOf } from './marketplace.server';
import { paymentProvider } from './payments/index.server';
import { recordChallengeProgress } from './challenges.server';
import { isOneOf } from '~/utils/constants';

export const ORDER_NOT_FOUND = 'Order not found';
export const CART_CHANGED = 'Prices or stock changed since you looked. Please review your cart and check out again.';
export const EMPTY_CART = 'Your cart is empty';

/** How long a pending order holds its stock, in minutes (0: until its vendor decides). */
export function orderHoldMinutes(): number {
  const raw = process.env.ORDER_HOLD_MINUTES;
  const n = raw === undefined || raw === '' ? 30 : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : 30;
}

// ---------------------------------------------------------------- shapes

export interface OrderItemDto {
  id: string;
  marketplacePinId: string;
  pinId: string | null;
  name: string;
  thumbnail: string | null;
  quantity: number;
  unitPrice: string;
  unitPriceCents: number;
  totalPrice: string;
  totalPriceCents: number;
}

export interface OrderMoveDto {
  from: OrderStatus | null;
  to: OrderStatus;
  at: string;
  by: string | null;
  reason: string | null;
}

export interface OrderDto {
  id: string;
  number: string;
  status: OrderStatus;
  totalAmount: string;
  totalAmountCents: number;
  createdAt: string;
  updatedAt: string;
  paidAt: string | null;
  expiresAt: string | null;
  checkoutId: string | null;
  note: string | null;
  vendor: { id: string; businessName: string; contactEmail: string };
  buyer: { id: string; name: string; email: string };
  items: OrderItemDto[];
  timeline: OrderMoveDto[];
}

async function orderDtos(q: Db, rows: Order[]): Promise<OrderDto[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [items, moves, vendorRows, buyerRows] = await Promise.all([
    q
      .select({ item: orderItems, name: marketplacePins.name, images: marketplacePins.images, pinId: marketplacePins.pinId })
      .from(orderItems)
      .innerJoin(marketplacePins, eq(marketplacePins.id, orderItems.marketplacePinId))
      .where(inArray(orderItems.orderId, ids))
      .orderBy(asc(orderItems.id)),
    q
      .select({ move: orderStatusHistory, user: { firstName: users.firstName, lastName: users.lastName, nickname: users.nickname, email: users.email } })
      .from(orderStatusHistory)
      .leftJoin(users, eq(users.id, orderStatusHistory.changedBy))
      .where(inArray(orderStatusHistory.orderId, ids))
      .orderBy(asc(orderStatusHistory.createdAt), asc(orderStatusHistory.id)),
    q.select().from(vendors).where(inArray(vendors.id, [...new Set(rows.map((r) => r.vendorId))])),
    q.select().from(users).where(inArray(users.id, [...new Set(rows.map((r) => r.userId))])),
  ]);
  const vendorById = new Map(vendorRows.map((v) => [v.id, v]));
  const buyerById = new Map(buyerRows.map((u) => [u.id, u]));
  return rows.map((o) => {
    const vendor = vendorById.get(o.vendorId)!;
    const buyer = buyerById.get(o.userId)!;
    return {
      id: o.id,
      number: orderNumber(o.id),
      status: o.status,
      totalAmount: centsToDecimal(o.totalAmountCents),
      totalAmountCents: o.totalAmountCents,
      createdAt: o.createdAt.toISOString(),
      updatedAt: o.updatedAt.toISOString(),
      paidAt: o.paidAt?.toISOString() ?? null,
      expiresAt: o.status === 'pending' ? (o.expiresAt?.toISOString() ?? null) : null,
      checkoutId: o.checkoutId,
      note: o.shippingAddress,
      vendor: { id: vendor.id, businessName: vendor.businessName, contactEmail: vendor.contactEmail },
      buyer: { id: buyer.id, name: displayName(buyer), email: buyer.email },
      items: items
        .filter((i) => i.item.orderId === o.id)
        .map(({ item, name, images, pinId }) => ({
          id: item.id,
          marketplacePinId: item.marketplacePinId,
          pinId,
          name,
          thumbnail: images[0] ? imageUrl(images[0], 'thumb') : null,
          quantity: item.quantity,
          unitPrice: centsToDecimal(item.unitPriceCents),
          unitPriceCents: item.unitPriceCents,
          totalPrice: centsToDecimal(item.totalPriceCents),
          totalPriceCents: item.totalPriceCents,
        })),
      timeline: moves
        .filter((m) => m.move.orderId === o.id)
        .map(({ move, user }) => ({
          from: move.fromStatus,
          to: move.toStatus,
          at: move.createdAt.toISOString(),
          by: user?.email ? displayName(user as Parameters<typeof displayName>[0]) : null,
          reason: move.reason,
        })),
    };
  });
}

// ---------------------------------------------------------------- the state machine

type Mover = { id: string } | null;

/**
 * Moves one order from its current status to `to` inside `tx`: refuses a move the machine does
 * not have (409), applies it only if nobody moved the order meanwhile, records it, and does what
 * the new status means for stock and inventory.
 */
async function moveOrder(tx: Db, order: Order, to: OrderStatus, by: Mover, reason: string | null): Promise<Order> {
  if (!canMoveOrder(order.status, to)) {
    throw new Conflict(
      order.status === to
        ? `This order is already ${ORDER_STATUS_LABELS[to].toLowerCase()}`
        : `A ${ORDER_STATUS_LABELS[order.status].toLowerCase()} order cannot be marked ${ORDER_STATUS_LABELS[to].toLowerCase()}`,
    );
  }
  const now = new Date();
  const [moved] = await tx
    .update(orders)
    .set({ status: to, updatedAt: now, ...(to === 'paid' ? { paidAt: now, expiresAt: null } : {}) })
    .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
    .returning();
  if (!moved) throw new Conflict('This order was changed meanwhile. Reload to see its status.');
  await tx.insert(orderStatusHistory).values({ orderId: order.id, fromStatus: order.status, toStatus: to, changedBy: by?.id ?? null, reason, createdAt: now });

  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id));
  if (to === 'paid') {
    // the items become the buyer's when the order is paid (README: inventory)
    for (const item of items) {
      await tx.insert(userInventory).values({ userId: order.userId, orderId: order.id, marketplacePinId: item.marketplacePinId, quantity: item.quantity, acquiredAt: now });
    }
  }
  if (to === 'cancelled') {
    for (const item of items) {
      await tx
        .update(marketplacePins)
        .set({ stockQuantity: sql`${marketplacePins.stockQuantity} + ${item.quantity}` })
        .where(eq(marketplacePins.id, item.marketplacePinId));
    }
    if (order.status !== 'pending') await tx.delete(userInventory).where(eq(userInventory.orderId, order.id));
  }
  return moved;
}

async function orderWithVendor(q: Db, id: string) {
  if (typeof id !== 'string' || !id || id.length > 64) return undefined;
  return q
    .select({ order: orders, vendorUserId: vendors.userId })
    .from(orders)
    .innerJoin(vendors, eq(vendors.id, orders.vendorId))
    .where(eq(orders.id, id))
    .get();
}

/** 404 for an order the actor may not see (an order id of someone else's is not revealed). */
async function visibleOrder(q: Db, actor: Actor, id: string) {
  const row = await orderWithVendor(q, id);
  if (!row) throw new NotFound(ORDER_NOT_FOUND);
  try {
    assertCanViewOrder(actor, { buyerId: row.order.userId, vendorUserId: row.vendorUserId });
  } catch {
    throw new NotFound(ORDER_NOT_FOUND);
  }
  return row;
}

let lastSweep = 0;

/**
 * Cancels pending orders whose hold ran out, returning their stock. Cheap when there are none (one
 * indexed read); throttled to once every 5 s per process unless `force`.
 */
export async function expireStaleOrders(opts: { now?: Date; force?: boolean } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  if (!opts.force && now.getTime() - lastSweep < 5_000) return 0;
  lastSweep = now.getTime();
  const stale = await db()
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, 'pending'), isNotNull(orders.expiresAt), lte(orders.expiresAt, now)))
    .limit(100);
  let cancelled = 0;
  for (const { id } of stale) {
    const done = await transaction(async (tx) => {
      const order = await tx.select().from(orders).where(eq(orders.id, id)).get();
      if (!order || order.status !== 'pending') return false;
      await moveOrder(tx, order, 'cancelled', null, `Not paid within the hold time; the pins went back on sale`);
      await tx.update(checkouts).set({ status: 'expired' }).where(and(eq(checkouts.id, order.checkoutId ?? ''), eq(checkouts.status, 'open')));
      return true;
    });
    if (done) cancelled++;
  }
  return cancelled;
}

// ---------------------------------------------------------------- checkout

export interface CheckoutResult {
  checkoutId: string;
  orders: OrderDto[];
  provider: string;
  /** where to send the buyer to pay now (Stripe), or null (offline: pay the vendor) */
  redirectUrl: string | null;
}

/**
 * Places the buyer's cart: one order per vendor, pending, stock taken. `expected` is the cart as
 * the buyer was shown it; a change since (price, stock, lines) is refused with CART_CHANGED.
 */
export async function checkout(actor: Actor | null, input: Record<string, unknown>, urls: { origin: string } = { origin: 'http://localhost' }): Promise<CheckoutResult> {
  assertSignedIn(actor);
  const data = parseWith(checkoutSchema, input);
  await expireStaleOrders({ force: true });
  const cart = await getCart(actor);
  if (!cart.groups.length) throw new Invalid(EMPTY_CART);
  if (data.expected !== undefined && data.expected !== cart.expected) throw new Conflict(CART_CHANGED);
  if (cart.problems) {
    const line = cart.groups.flatMap((g) => g.lines).find((l) => l.problem)!;
    throw new Conflict(
      line.problem === 'short'
        ? `Only ${line.stockQuantity} left of ${line.name}. Change the quantity in your cart.`
        : `${line.name} is ${line.problem === 'sold_out' ? 'sold out' : 'no longer available'}. Remove it from your cart.`,
    );
  }
  const provider = paymentProvider();
  const hold = orderHoldMinutes();
  const buyer = await db().select({ email: users.email }).from(users).where(eq(users.id, actor.id)).get();

  const placed = await transaction(async (tx) => {
    const now = new Date();
    const expiresAt = hold > 0 ? new Date(now.getTime() + hold * 60_000) : null;
    const [co] = await tx.insert(checkouts).values({ userId: actor.id, provider: provider.name, totalAmountCents: cart.totalCents }).returning();
    const orderIds: string[] = [];
    for (const group of cart.groups) {
      const [order] = await tx
        .insert(orders)
        .values({
          userId: actor.id,
          vendorId: group.vendor.id,
          totalAmountCents: group.subtotalCents,
          status: 'pending',
          checkoutId: co.id,
          expiresAt,
          shippingAddress: data.note ?? null,
          createdAt: now,
        })
        .returning();
      for (const line of group.lines) {
        // the one statement that takes stock: it cannot take what is not there
        const taken = await tx
          .update(marketplacePins)
          .set({ stockQuantity: sql`${marketplacePins.stockQuantity} - ${line.quantity}` })
          .where(
            and(
              eq(marketplacePins.id, line.marketplacePinId),
              sql`${marketplacePins.stockQuantity} >= ${line.quantity}`,
              eq(marketplacePins.priceCents, line.unitPriceCents),
              eq(marketplacePins.isActive, true),
              eq(marketplacePins.vendorId, group.vendor.id),
              sql`${marketplacePins.vendorId} in (select id from vendors where is_approved = 1)`,
            ),
          )
          .returning({ id: marketplacePins.id });
        if (!taken.length) throw await whyNotAvailable(tx, line.marketplacePinId, line.quantity, line.name);
        await tx.insert(orderItems).values({
          orderId: order.id,
          marketplacePinId: line.marketplacePinId,
          quantity: line.quantity,
          unitPriceCents: line.unitPriceCents,
          totalPriceCents: line.lineTotalCents,
        });
      }
      await tx.insert(orderStatusHistory).values({ orderId: order.id, fromStatus: null, toStatus: 'pending', changedBy: actor.id, reason: null, createdAt: now });
      orderIds.push(order.id);
    }
    await tx.delete(cartItems).where(and(eq(cartItems.userId, actor.id), inArray(cartItems.marketplacePinId, cart.groups.flatMap((g) => g.lines.map((l) => l.marketplacePinId)))));
    // a placed order counts toward the day's marketplace challenge
    await recordChallengeProgress(tx, actor.id, 'order', { now });
    return { checkoutId: co.id, orderIds, expiresAt };
  });

  // outside the transaction: the provider may call the network
  let redirectUrl: string | null = null;
  try {
    const began = await provider.begin({
      checkoutId: placed.checkoutId,
      buyerEmail: buyer?.email ?? '',
      lines: cart.groups.flatMap((g) => g.lines.map((l) => ({ name: `${l.name} (${g.vendor.businessName})`, quantity: l.quantity, unitPriceCents: l.unitPriceCents }))),
      totalCents: cart.totalCents,
      successUrl: `${urls.origin}/orders?checkout=${placed.checkoutId}&paid=1`,
      cancelUrl: `${urls.origin}/orders?checkout=${placed.checkoutId}`,
      expiresAt: placed.expiresAt,
    });
    redirectUrl = began.redirectUrl;
    if (began.sessionId || began.redirectUrl) {
      await db().update(checkouts).set({ stripeSessionId: began.sessionId, paymentUrl: began.redirectUrl }).where(eq(checkouts.id, placed.checkoutId));
    }
  } catch (error) {
    // the payment could not start: give the stock back rather than hold it for nothing
    console.error('payment provider failed', error);
    await cancelCheckout(placed.checkoutId, 'The payment could not be started');
    throw new Conflict('The payment could not be started. Nothing was charged and your orders were cancelled; please try again.');
  }
  const rows = await db().select().from(orders).where(inArray(orders.id, placed.orderIds));
  // in the cart's order (vendors by name), as placed
  rows.sort((a, b) => placed.orderIds.indexOf(a.id) - placed.orderIds.indexOf(b.id));
  return { checkoutId: placed.checkoutId, orders: await orderDtos(db(), rows), provider: provider.name, redirectUrl };
}

async function whyNotAvailable(tx: Db, listingId: string, quantity: number, name: string): Promise<Conflict> {
  const now = await tx.select().from(marketplacePins).where(eq(marketplacePins.id, listingId)).get();
  if (!now || !now.isActive) return new Conflict(`${name} is no longer available. ${CART_CHANGED}`);
  if (now.stockQuantity === 0) return new Conflict(`${name} just sold out. Remove it from your cart to check out the rest.`);
  if (now.stockQuantity < quantity) return new Conflict(`Only ${now.stockQuantity} left of ${name}. Change the quantity in your cart.`);
  return new Conflict(CART_CHANGED);
}

/** Cancels every still-pending order of a checkout (payment failed or expired), returning stock. */
export async function cancelCheckout(checkoutId: string, reason: string, status: 'expired' | 'cancelled' = 'cancelled'): Promise<number> {
  return transaction(async (tx) => {
    const pending = await tx.select().from(orders).where(and(eq(orders.checkoutId, checkoutId), eq(orders.status, 'pending')));
    for (const order of pending) await moveOrder(tx, order, 'cancelled', null, reason);
    await tx.update(checkouts).set({ status }).where(and(eq(checkouts.id, checkoutId), eq(checkouts.status, 'open')));
    return pending.length;
  });
}

/** Marks every pending order of a checkout paid (the payment provider confirmed it). */
export async function markCheckoutPaid(checkoutId: string, paymentIntentId: string | null): Promise<{ paid: number; alreadyCancelled: number }> {
  return transaction(async (tx) => {
    const rows = await tx.select().from(orders).where(eq(orders.checkoutId, checkoutId));
    let paid = 0;
    for (const order of rows.filter((o) => o.status === 'pending')) {
      await moveOrder(tx, order, 'paid', null, 'Paid by card (Stripe)');
      if (paymentIntentId) await tx.update(orders).set({ stripePaymentIntentId: paymentIntentId }).where(eq(orders.id, order.id));
      paid++;
    }
    await tx.update(checkouts).set({ status: 'complete' }).where(eq(checkouts.id, checkoutId));
    return { paid, alreadyCancelled: rows.filter((o) => o.status === 'cancelled').length };
  });
}

// ---------------------------------------------------------------- buyers

export interface OrderPage {
  orders: OrderDto[];
  total: number;
  paging: Paging;
}

/** The buyer's orders, newest first (/orders, GET /api/orders). */
export async function listMyOrders(actor: Actor | null, opts: { page?: number; size?: number; checkoutId?: string } = {}): Promise<OrderPage> {
  assertSignedIn(actor);
  await expireStaleOrders();
  const where = and(eq(orders.userId, actor.id), opts.checkoutId ? eq(orders.checkoutId, opts.checkoutId) : undefined);
  const total = (await db().select({ n: count() }).from(orders).where(where).get())?.n ?? 0;
  const paging = paginate({ total, page: opts.page ?? 1, size: opts.size ?? 10 });
  const rows = await db().select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(paging.limit).offset(paging.offset);
  return { orders: await orderDtos(db(), rows), total, paging };
}

/** One order: its buyer, its vendor and admins (anyone else: 404). */
export async function getOrder(actor: Actor | null, id: string): Promise<OrderDto> {
  assertSignedIn(actor);
  await expireStaleOrders();
  const row = await visibleOrder(db(), actor, id);
  return (await orderDtos(db(), [row.order]))[0];
}

/** Cancels an order with a reason: the buyer while pending; its vendor or an admin while pending or paid. */
export async function cancelOrder(actor: Actor | null, id: string, input: Record<string, unknown>): Promise<OrderDto> {
  assertSignedIn(actor);
  const data = parseWith(cancelSchema, input);
  const order = await transaction(async (tx) => {
    const row = await visibleOrder(tx, actor, id);
    if (!canCancelOrder(actor, { buyerId: row.order.userId, vendorUserId: row.vendorUserId, status: row.order.status })) {
      if (row.order.status === 'pending' || row.order.status === 'paid') throw new Forbidden('Only the vendor can cancel a paid order');
      throw new Conflict(`A ${ORDER_STATUS_LABELS[row.order.status].toLowerCase()} order cannot be cancelled`);
    }
    return moveOrder(tx, row.order, 'cancelled', actor, data.reason);
  });
  return (await orderDtos(db(), [order]))[0];
}

// ---------------------------------------------------------------- vendors

export const VENDOR_MOVES: readonly OrderStatus[] = ['paid', 'processing', 'shipped', 'delivered', 'cancelled'];

/**
 * The vendor moves one of their orders: mark paid (offline payment received), processing,
 * shipped, delivered, or cancelled (with a reason). Admins may cancel, not fulfil.
 */
export async function changeOrderStatus(actor: Actor | null, id: string, input: Record<string, unknown>): Promise<OrderDto> {
  assertSignedIn(actor);
  const data = parseWith(statusMoveSchema, input);
  if (data.status === 'cancelled') return cancelOrder(actor, id, { reason: data.reason ?? '' });
  if (!VENDOR_MOVES.includes(data.status)) throw new Invalid('Choose a valid status', { status: ['Choose a valid status'] });
  const order = await transaction(async (tx) => {
    const row = await visibleOrder(tx, actor, id);
    assertCanFulfilOrder(actor, { vendorUserId: row.vendorUserId });
    return moveOrder(tx, row.order, data.status, actor, data.reason ?? null);
  });
  return (await orderDtos(db(), [order]))[0];
}

/**
 * POST /api/orders/{id}/fulfill: the vendor ships a paid order ('Mark as Shipped', toast 'Order
 * fulfilled'). Only while it is paid (or being packed: processing); anything else is 409.
 */
export async function fulfilOrder(actor: Actor | null, id: string): Promise<OrderDto> {
  assertSignedIn(actor);
  const order = await transaction(async (tx) => {
    const row = await visibleOrder(tx, actor, id);
    assertCanFulfilOrder(actor, { vendorUserId: row.vendorUserId });
    if (row.order.status !== 'paid' && row.order.status !== 'processing') {
      throw new Conflict(row.order.status === 'pending' ? 'Only a paid order can be fulfilled. Mark it paid first.' : `A ${ORDER_STATUS_LABELS[row.order.status].toLowerCase()} order cannot be fulfilled`);
    }
    return moveOrder(tx, row.order, 'shipped', actor, null);
  });
  return (await orderDtos(db(), [order]))[0];
}

export type VendorOrderFilter = 'active' | OrderStatus | undefined;

/** The vendor's orders (GET /api/vendor/orders), filtered by status ('active': not delivered or cancelled). */
export async function listVendorOrders(actor: Actor | null, opts: { status?: VendorOrderFilter; page?: number; size?: number } = {}): Promise<OrderPage & { counts: Record<string, number> }> {
  assertSignedIn(actor);
  const vendor = await getVendorOf(actor.id);
  assertCanSell(actor, vendor);
  await expireStaleOrders();
  const v = vendor!;
  const statusWhere = opts.status === 'active' ? inArray(orders.status, [...ACTIVE_STATUSES]) : opts.status ? eq(orders.status, opts.status) : undefined;
  const where = and(eq(orders.vendorId, v.id), statusWhere);
  const total = (await db().select({ n: count() }).from(orders).where(where).get())?.n ?? 0;
  const paging = paginate({ total, page: opts.page ?? 1, size: opts.size ?? 20 });
  const rows = await db().select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(paging.limit).offset(paging.offset);
  const countRows = await db().select({ status: orders.status, n: count() }).from(orders).where(eq(orders.vendorId, v.id)).groupBy(orders.status);
  const counts: Record<string, number> = { all: 0, active: 0 };
  for (const r of countRows) {
    counts[r.status] = r.n;
    counts.all += r.n;
    if (isOneOf(ACTIVE_STATUSES, r.status)) counts.active += r.n;
  }
  return { orders: await orderDtos(db(), rows), total, paging, counts };
}


