/**
 * The cart of a signed-in buyer, kept in the database (cart_items): one row per listing with the
 * quantity and the unit price the buyer last saw.
 *
 * Prices and stock are checked again whenever the cart is read: a line whose price moved since the
 * buyer saw it says so ("was $X"), a line asking for more than is left says how many are left, and
 * a listing that was withdrawn (inactive, sold out, vendor no longer approved) is marked
 * unavailable. The cart's `expected` token lists what was shown (listing, quantity, price); the
 * checkout refuses when the cart changed since (orders.server.ts).
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { assertCanBuy, assertSignedIn, type Actor } from '~/auth/permissions';
import { db, prepared, transaction } from '~/db/index.server';
import { cartItems, marketplacePins, vendors } from '~/db/schema';
import { addToCartSchema, MAX_CART_QUANTITY, setQuantitySchema } from '~/forms/marketplace';
import { centsToDecimal } from '~/utils/money';
import { parseWith } from '~/utils/validation';
import { Conflict, NotFound } from './errors';
import { imageUrl } from './images.server';
import { LISTING_NOT_FOUND } from './marketplace.server';

export const CART_LINE_NOT_FOUND = 'That pin is not in your cart';

export type CartProblem = 'unavailable' | 'sold_out' | 'short';

export interface CartLine {
  id: string;
  marketplacePinId: string;
  name: string;
  thumbnail: string | null;
  quantity: number;
  unitPriceCents: number;
  unitPrice: string;
  /** the price the buyer saw when they added or last changed the line, when it differs from now */
  previousPriceCents: number | null;
  lineTotalCents: number;
  stockQuantity: number;
  /** why this line cannot be bought as it stands (null: it can) */
  problem: CartProblem | null;
}

export interface CartVendorGroup {
  vendor: { id: string; businessName: string };
  lines: CartLine[];
  subtotalCents: number;
  subtotal: string;
}

export interface Cart {
  groups: CartVendorGroup[];
  /** pieces in the cart (the nav's count) */
  itemCount: number;
  totalCents: number;
  total: string;
  /** lines whose price changed since the buyer saw them */
  priceChanges: number;
  /** lines that cannot be checked out as they are */
  problems: number;
  /** what the buyer was shown, for the checkout to compare against */
  expected: string;
}

/** The buyer's cart with today's prices and stock. */
export async function getCart(actor: Actor | null): Promise<Cart> {
  assertSignedIn(actor);
  const rows = await db()
    .select({ item: cartItems, listing: marketplacePins, vendor: { id: vendors.id, businessName: vendors.businessName, isApproved: vendors.isApproved } })
    .from(cartItems)
    .innerJoin(marketplacePins, eq(marketplacePins.id, cartItems.marketplacePinId))
    .innerJoin(vendors, eq(vendors.id, marketplacePins.vendorId))
    .where(eq(cartItems.userId, actor.id))
    .orderBy(vendors.businessName, cartItems.createdAt, cartItems.id);
  const groups = new Map<string, CartVendorGroup>();
  let itemCount = 0;
  let totalCents = 0;
  let priceChanges = 0;
  let problems = 0;
  const expected: string[] = [];
  for (const { item, listing, vendor } of rows) {
    const available = listing.isActive && vendor.isApproved;
    const problem: CartProblem | null = !available ? 'unavailable' : listing.stockQuantity === 0 ? 'sold_out' : item.quantity > listing.stockQuantity ? 'short' : null;
    const changed = item.seenPriceCents !== listing.priceCents;
    const line: CartLine = {
      id: item.id,
      marketplacePinId: listing.id,
      name: listing.name,
      thumbnail: listing.images[0] ? imageUrl(listing.images[0], 'thumb') : null,
      quantity: item.quantity,
      unitPriceCents: listing.priceCents,
      unitPrice: centsToDecimal(listing.priceCents),
      previousPriceCents: changed ? item.seenPriceCents : null,
      lineTotalCents: listing.priceCents * item.quantity,
      stockQuantity: available ? listing.stockQuantity : 0,
      problem,
    };
    let group = groups.get(vendor.id);
    if (!group) {
      group = { vendor: { id: vendor.id, businessName: vendor.businessName }, lines: [], subtotalCents: 0, subtotal: '0.00' };
      groups.set(vendor.id, group);
    }
    group.lines.push(line);
    itemCount += item.quantity;
    if (changed) priceChanges++;
    if (problem) problems++;
    else {
      group.subtotalCents += line.lineTotalCents;
      totalCents += line.lineTotalCents;
    }
    expected.push(`${listing.id}:${item.quantity}:${listing.priceCents}`);
  }
  for (const g of groups.values()) g.subtotal = centsToDecimal(g.subtotalCents);
  return { groups: [...groups.values()], itemCount, totalCents, total: centsToDecimal(totalCents), priceChanges, problems, expected: expected.join(',') };
}

/** Pieces in the cart (cheap: the nav shows it on every page). */
// the navigation bar's cart count, on every signed-in page: built and prepared once
const cartCountQuery = prepared((conn) =>
  conn.select({ n: sql<number>`coalesce(sum(${cartItems.quantity}), 0)` }).from(cartItems).where(eq(cartItems.userId, sql.placeholder('userId'))).prepare(),
);

export async function cartCount(userId: string): Promise<number> {
  const row = await cartCountQuery().get({ userId });
  return Number(row?.n ?? 0);
}

/** 'Add to Cart': adds `quantity` (default 1) of a buyable listing; a line already there grows. */
export async function addToCart(actor: Actor | null, input: Record<string, unknown>): Promise<{ line: { marketplacePinId: string; quantity: number }; name: string }> {
  assertSignedIn(actor, 'Please sign in to add pins to your cart');
  const data = parseWith(addToCartSchema, input);
  return transaction(async (tx) => {
    const row = await tx
      .select({ listing: marketplacePins, vendor: vendors })
      .from(marketplacePins)
      .innerJoin(vendors, eq(vendors.id, marketplacePins.vendorId))
      .where(eq(marketplacePins.id, data.marketplacePinId))
      .get();
    if (!row || !row.listing.isActive || !row.vendor.isApproved) throw new NotFound(LISTING_NOT_FOUND);
    assertCanBuy(actor, { vendorUserId: row.vendor.userId });
    const existing = await tx.select().from(cartItems).where(and(eq(cartItems.userId, actor.id), eq(cartItems.marketplacePinId, row.listing.id))).get();
    const wanted = Math.min(MAX_CART_QUANTITY, (existing?.quantity ?? 0) + data.quantity);
    if (row.listing.stockQuantity === 0) throw new Conflict(`${row.listing.name} is sold out`);
    if (wanted > row.listing.stockQuantity) {
      throw new Conflict(`Only ${row.listing.stockQuantity} left of ${row.listing.name}${existing ? ` (${existing.quantity} already in your cart)` : ''}`);
    }
    if (existing) {
      await tx.update(cartItems).set({ quantity: wanted, seenPriceCents: row.listing.priceCents }).where(eq(cartItems.id, existing.id));
    } else {
      await tx.insert(cartItems).values({ userId: actor.id, marketplacePinId: row.listing.id, quantity: wanted, seenPriceCents: row.listing.priceCents });
    }
    return { line: { marketplacePinId: row.listing.id, quantity: wanted }, name: row.listing.name };
  });
}

/** Changes a line's quantity (1..99, at most what is in stock); the buyer has now seen today's price. */
export async function setCartQuantity(actor: Actor | null, marketplacePinId: string, input: Record<string, unknown>): Promise<{ quantity: number }> {
  assertSignedIn(actor);
  const data = parseWith(setQuantitySchema, input);
  return transaction(async (tx) => {
    const item = await tx.select().from(cartItems).where(and(eq(cartItems.userId, actor.id), eq(cartItems.marketplacePinId, String(marketplacePinId)))).get();
    if (!item) throw new NotFound(CART_LINE_NOT_FOUND);
    const listing = await tx.select().from(marketplacePins).where(eq(marketplacePins.id, item.marketplacePinId)).get();
    if (!listing) throw new NotFound(CART_LINE_NOT_FOUND);
    if (data.quantity > listing.stockQuantity) {
      throw new Conflict(listing.stockQuantity === 0 ? `${listing.name} is sold out` : `Only ${listing.stockQuantity} left of ${listing.name}`, {
        quantity: [`Only ${listing.stockQuantity} left`],
      });
    }
    await tx.update(cartItems).set({ quantity: data.quantity, seenPriceCents: listing.priceCents }).where(eq(cartItems.id, item.id));
    return { quantity: data.quantity };
  });
}

/** Takes a line out of the cart. */
export async function removeFromCart(actor: Actor | null, marketplacePinId: string): Promise<void> {
  assertSignedIn(actor);
  const deleted = await db()
    .delete(cartItems)
    .where(and(eq(cartItems.userId, actor.id), eq(cartItems.marketplacePinId, String(marketplacePinId))))
    .returning({ id: cartItems.id });
  if (!deleted.length) throw new NotFound(CART_LINE_NOT_FOUND);
}

/** Marks today's prices as seen (the buyer reviewed the changes). */
export async function acknowledgeCartPrices(actor: Actor | null): Promise<void> {
  assertSignedIn(actor);
  await db()
    .update(cartItems)
    .set({ seenPriceCents: sql`(select price_cents from marketplace_pins where marketplace_pins.id = ${cartItems.marketplacePinId})` })
    .where(eq(cartItems.userId, actor.id));
}

export async function cartLineCount(userId: string): Promise<number> {
  const row = await db().select({ n: count() }).from(cartItems).where(eq(cartItems.userId, userId)).get();
  return row?.n ?? 0;
}
