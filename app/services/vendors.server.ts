/**
 * Vendors: the application a user sends ('Become a Vendor'), and the approved vendor's Overview
 * figures. The review of applications (the state machine) lives in vendor-review.server.ts.
 *
 * - One vendor record per user. Applying creates it pending (spec §4) with a history row; a user
 *   whose application needs revision or was rejected may send it again, which moves it back to
 *   pending. A pending, under-review or approved record cannot be sent again (409).
 * - Overview figures are computed from orders (see README, "Vendor figures").
 */
import { and, count, eq, gte, inArray, sql, sum } from 'drizzle-orm';
import { assertCanSell, assertSignedIn, type Actor } from '~/auth/permissions';
import { db, transaction } from '~/db/index.server';
import { marketplacePins, orders, vendors, type Vendor } from '~/db/schema';
import { vendorApplicationSchema, type VendorApplicationInput } from '~/forms/marketplace';
import { ACTIVE_STATUSES, OWNED_STATUSES } from '~/utils/order-status';
import { parseWith } from '~/utils/validation';
import { Conflict } from './errors';
import { getVendorOf } from './marketplace.server';
import { recordApplicationMove } from './vendor-review.server';
import { isOneOf } from '~/utils/constants';

export const APPLICATION_EXISTS = 'You have already applied to become a vendor';
const RESUBMITTABLE = ['needs_revision', 'rejected'] as const;

/** POST /api/vendors: the 'Become a Vendor' application. */
export async function submitVendorApplication(actor: Actor | null, input: VendorApplicationInput | Record<string, unknown>): Promise<Vendor> {
  assertSignedIn(actor);
  const data = parseWith(vendorApplicationSchema, input);
  return transaction(async (tx) => {
    const existing = await tx.select().from(vendors).where(eq(vendors.userId, actor.id)).get();
    if (existing && !isOneOf(RESUBMITTABLE, existing.applicationStatus)) throw new Conflict(APPLICATION_EXISTS);
    const values = { businessName: data.businessName, contactEmail: data.contactEmail, description: data.description ?? null };
    let vendor: Vendor;
    if (existing) {
      [vendor] = await tx
        .update(vendors)
        .set({ ...values, applicationStatus: 'pending', isApproved: false, rejectionReason: null })
        .where(eq(vendors.id, existing.id))
        .returning();
    } else {
      [vendor] = await tx.insert(vendors).values({ ...values, userId: actor.id, applicationStatus: 'pending' }).returning();
    }
    await recordApplicationMove(tx, { vendor, from: existing?.applicationStatus ?? null, to: 'pending', changedBy: actor.id, notes: existing ? 'Application sent again' : 'Application submitted' });
    return vendor;
  });
}

export interface VendorOverview {
  /** paid, processing, shipped or delivered orders, in cents */
  salesCents: number;
  paidOrders: number;
  /** spec §4: not delivered and not cancelled */
  openOrders: number;
  pendingOrders: number;
  activeListings: number;
  listings: number;
  outOfStock: number;
  /** README: of the orders placed with this vendor in the last 30 days, the share that were paid; null when none */
  conversionRate: number | null;
  conversionBasis: number;
}

export async function vendorOverview(actor: Actor | null): Promise<{ vendor: Vendor; overview: VendorOverview }> {
  assertSignedIn(actor);
  const vendor = await getVendorOf(actor.id);
  assertCanSell(actor, vendor);
  const v = vendor!;
  const since = new Date(Date.now() - 30 * 86_400_000);
  const [sales, open, pending, listingRow, recent] = await Promise.all([
    db()
      .select({ cents: sum(orders.totalAmountCents), n: count() })
      .from(orders)
      .where(and(eq(orders.vendorId, v.id), inArray(orders.status, [...OWNED_STATUSES])))
      .get(),
    db()
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.vendorId, v.id), inArray(orders.status, [...ACTIVE_STATUSES])))
      .get(),
    db()
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.vendorId, v.id), eq(orders.status, 'pending')))
      .get(),
    db()
      .select({
        n: count(),
        active: sql<number>`coalesce(sum(case when ${marketplacePins.isActive} = 1 then 1 else 0 end), 0)`,
        out: sql<number>`coalesce(sum(case when ${marketplacePins.isActive} = 1 and ${marketplacePins.stockQuantity} = 0 then 1 else 0 end), 0)`,
      })
      .from(marketplacePins)
      .where(eq(marketplacePins.vendorId, v.id))
      .get(),
    db()
      .select({
        n: count(),
        paid: sql<number>`coalesce(sum(case when ${orders.status} in ('paid', 'processing', 'shipped', 'delivered') then 1 else 0 end), 0)`,
      })
      .from(orders)
      .where(and(eq(orders.vendorId, v.id), gte(orders.createdAt, since)))
      .get(),
  ]);
  const basis = recent?.n ?? 0;
  return {
    vendor: v,
    overview: {
      salesCents: Number(sales?.cents ?? 0),
      paidOrders: sales?.n ?? 0,
      openOrders: open?.n ?? 0,
      pendingOrders: pending?.n ?? 0,
      activeListings: Number(listingRow?.active ?? 0),
      listings: listingRow?.n ?? 0,
      outOfStock: Number(listingRow?.out ?? 0),
      conversionRate: basis ? Number(recent?.paid ?? 0) / basis : null,
      conversionBasis: basis,
    },
  };
}
