/**
 * Demo data of the marketplace: three approved vendors with listings (most linked to catalogue
 * pins, two accessories not, some out of stock, one inactive), the coach's pending application and
 * a collector's application that needs revision, the demo player's orders in every status with
 * their timelines and inventory, orders from collectors for the vendor's figures, and a cart.
 * Deterministic apart from times, which are relative to now so that "recent" means something.
 */
import { eq, inArray } from 'drizzle-orm';
import { getDatabase } from '../../app/db/client.server';
import { transaction } from '../../app/db/index.server';
import * as s from '../../app/db/schema';
import { mulberry32 } from '../../app/utils/random';

interface SeedContext {
  /** demo account ids by role (drizzle/seed.ts) */
  userIds: Record<string, string>;
  /** catalogue pins, in creation order */
  pinIds: string[];
  baseTime: number;
}

const DAY = 86_400_000;

export async function seedMarketplace({ userIds, pinIds, baseTime }: SeedContext): Promise<{ vendors: number; listings: number; orders: number }> {
  const db = getDatabase().db;
  const rand = mulberry32(20261202);
  const between = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const now = Date.now();

  // ------------------------------------------------------------ vendors
  const sellers = [
    { userId: userIds.vendor, businessName: 'Dugout Pin Traders', description: 'Tournament pins, trading bags and display cases since 2014.', contactEmail: 'vendor@pindex.test', contactPhone: '555-0142', yearsInBusiness: 12, specializations: ['tournament pins', 'display cases'] },
    { email: 'cornfield@pindex.test', firstName: 'Corey', lastName: 'Field', businessName: 'Cornfield Collectibles', description: 'Iowa tournament pins and vintage Little League sets.', yearsInBusiness: 6, specializations: ['vintage', 'Little League'] },
    { email: 'beachtown@pindex.test', firstName: 'Bea', lastName: 'Towne', businessName: 'Beach Town Pins', description: 'Ocean City and Myrtle Beach trading pins, straight from the boardwalk.', yearsInBusiness: 3, specializations: ['beach tournaments'] },
  ];
  const vendorIds: string[] = [];
  const vendorUsers: string[] = [];
  for (const [i, seller] of sellers.entries()) {
    let userId = seller.userId;
    if (!userId) {
      const [u] = await db
        .insert(s.users)
        .values({ email: seller.email!, firstName: seller.firstName, lastName: seller.lastName, role: 'vendor', isOnboardingComplete: true, createdAt: new Date(baseTime - (30 + i) * DAY) })
        .returning();
      await db.insert(s.userStats).values({ userId: u.id });
      userId = u.id;
    }
    const applied = new Date(baseTime - (20 - i) * DAY);
    const reviewed = new Date(baseTime - (18 - i) * DAY);
    const [vendor] = await db
      .insert(s.vendors)
      .values({
        userId,
        businessName: seller.businessName,
        description: seller.description,
        contactEmail: seller.contactEmail ?? seller.email!,
        contactPhone: seller.contactPhone ?? null,
        applicationStatus: 'approved',
        isApproved: true,
        reviewedBy: userIds.admin,
        reviewedAt: reviewed,
        yearsInBusiness: seller.yearsInBusiness,
        specializations: seller.specializations,
        createdAt: applied,
      })
      .returning();
    await db.insert(s.vendorApplicationHistory).values([
      { vendorId: vendor.id, previousStatus: null, newStatus: 'pending', changedBy: userId, notes: 'Application submitted', createdAt: applied },
      { vendorId: vendor.id, previousStatus: 'pending', newStatus: 'approved', changedBy: userIds.admin, notes: 'Verified business details.', createdAt: reviewed },
    ]);
    await db.insert(s.auditLogs).values({ userId: userIds.admin, action: 'vendor.status_change', targetType: 'vendor', targetId: vendor.id, details: { businessName: seller.businessName, before: { applicationStatus: 'pending' }, after: { applicationStatus: 'approved' } }, timestamp: reviewed });
    vendorIds.push(vendor.id);
    vendorUsers.push(userId);
  }

  // applications still waiting: the coach's (pending), a collector's (needs revision)
  const [coachApp] = await db
    .insert(s.vendors)
    .values({ userId: userIds.assistant_coach, businessName: 'Casey’s Pin Corner', contactEmail: 'coach@pindex.test', description: 'Team pins from our travel club, traded at weekend tournaments.', applicationStatus: 'pending', createdAt: new Date(baseTime - 2 * DAY) })
    .returning();
  await db.insert(s.vendorApplicationHistory).values({ vendorId: coachApp.id, previousStatus: null, newStatus: 'pending', changedBy: userIds.assistant_coach, notes: 'Application submitted', createdAt: new Date(baseTime - 2 * DAY) });
  const collector = await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'collector3@pindex.test')).get();
  if (collector) {
    const [app] = await db
      .insert(s.vendors)
      .values({ userId: collector.id, businessName: 'Pins by Quinn', contactEmail: 'collector3@pindex.test', applicationStatus: 'needs_revision', adminNotes: 'Please add where you trade and a contact phone.', reviewedBy: userIds.admin, reviewedAt: new Date(baseTime - 3 * DAY), createdAt: new Date(baseTime - 5 * DAY) })
      .returning();
    await db.insert(s.vendorApplicationHistory).values([
      { vendorId: app.id, previousStatus: null, newStatus: 'pending', changedBy: collector.id, notes: 'Application submitted', createdAt: new Date(baseTime - 5 * DAY) },
      { vendorId: app.id, previousStatus: 'pending', newStatus: 'needs_revision', changedBy: userIds.admin, notes: 'Please add where you trade and a contact phone.', createdAt: new Date(baseTime - 3 * DAY) },
    ]);
  }

  // ------------------------------------------------------------ listings
  const pinRows = await db.select().from(s.pins).where(inArray(s.pins.id, pinIds));
  const pinById = new Map(pinRows.map((p) => [p.id, p]));
  // [vendor index, catalogue pin index or null, stock, active, category, name for accessories]
  const plan: [number, number | null, number, boolean, string, string?][] = [
    [0, 0, 24, true, 'Tournament'],
    [0, 7, 12, true, 'Team'],
    [0, 14, 30, true, 'Limited Edition'],
    [0, 21, 0, true, 'Tournament'],
    [0, 28, 18, true, 'Team'],
    [0, 35, 9, true, 'Tournament'],
    [0, 42, 15, true, 'Limited Edition'],
    [0, 49, 40, true, 'Trading Set'],
    [0, 56, 6, true, 'Team'],
    [0, 63, 10, false, 'Tournament'],
    [0, null, 25, true, 'Accessories', 'Pin Trading Bag (holds 60 pins)'],
    [0, null, 0, true, 'Accessories', 'Glass-top Display Case'],
    [1, 7, 5, true, 'Team'],
    [1, 70, 14, true, 'Vintage'],
    [1, 77, 0, true, 'Vintage'],
    [1, 84, 20, true, 'Tournament'],
    [1, 91, 8, true, 'Limited Edition'],
    [1, 98, 11, true, 'Team'],
    [2, 0, 7, true, 'Tournament'],
    [2, 105, 16, true, 'Tournament'],
    [2, 112, 3, true, 'Team'],
    [2, 119, 0, true, 'Limited Edition'],
  ];
  const listings: { id: string; vendor: number; priceCents: number }[] = [];
  for (const [k, [vendor, pinIndex, stock, active, category, name]] of plan.entries()) {
    const pin = pinIndex === null ? null : pinById.get(pinIds[pinIndex % pinIds.length]);
    const priceCents = name ? between(1200, 4500) : between(5, 45) * 100 + pick([0, 50, 99]);
    const [row] = await db
      .insert(s.marketplacePins)
      .values({
        vendorId: vendorIds[vendor],
        pinId: pin?.id ?? null,
        name: name ?? pin!.name,
        description: name ? 'Sturdy and light; a tournament-week favourite.' : pin!.description,
        priceCents,
        stockQuantity: stock,
        images: pin?.images ?? [],
        category,
        tags: ['baseball', 'trading pin'],
        isActive: active,
        createdAt: new Date(baseTime - (plan.length - k) * 3_600_000),
        updatedAt: new Date(baseTime - (plan.length - k) * 3_600_000),
      })
      .returning();
    listings.push({ id: row.id, vendor, priceCents });
  }
  function pick<T>(list: readonly T[]): T {
    return list[Math.floor(rand() * list.length)];
  }

  // ------------------------------------------------------------ orders, timelines, inventory
  type Plan = { buyer: string; vendor: number; status: s.OrderStatus; items: [number, number][]; daysAgo: number; reason?: string };
  const player = userIds.player;
  const orderPlan: Plan[] = [
    { buyer: player, vendor: 0, status: 'pending', items: [[0, 1]], daysAgo: 0 },
    { buyer: player, vendor: 0, status: 'paid', items: [[1, 1], [2, 2]], daysAgo: 2 },
    { buyer: player, vendor: 1, status: 'processing', items: [[13, 1]], daysAgo: 4 },
    { buyer: player, vendor: 1, status: 'shipped', items: [[15, 1]], daysAgo: 6 },
    { buyer: player, vendor: 0, status: 'delivered', items: [[4, 1], [5, 1]], daysAgo: 12 },
    { buyer: player, vendor: 2, status: 'cancelled', items: [[19, 1]], daysAgo: 9, reason: 'Changed my mind' },
    { buyer: userIds.manager, vendor: 0, status: 'delivered', items: [[6, 2]], daysAgo: 15 },
    { buyer: userIds.manager, vendor: 0, status: 'paid', items: [[7, 3]], daysAgo: 1 },
    { buyer: userIds.super_admin, vendor: 0, status: 'cancelled', items: [[8, 1]], daysAgo: 3, reason: 'Not paid within the hold time; the pins went back on sale' },
  ];
  const path: s.OrderStatus[] = ['pending', 'paid', 'processing', 'shipped', 'delivered'];
  for (const o of orderPlan) {
    await transaction(async (tx) => {
      const placed = new Date(now - o.daysAgo * DAY - 3_600_000);
      const total = o.items.reduce((sum, [li, q]) => sum + listings[li].priceCents * q, 0);
      const [checkout] = await tx
        .insert(s.checkouts)
        .values({ userId: o.buyer, provider: 'offline', status: o.status === 'pending' ? 'open' : o.status === 'cancelled' ? 'cancelled' : 'complete', totalAmountCents: total, createdAt: placed })
        .returning();
      const paidAt = path.indexOf(o.status) >= 1 ? new Date(placed.getTime() + 3 * 3_600_000) : null;
      const [order] = await tx
        .insert(s.orders)
        .values({ userId: o.buyer, vendorId: vendorIds[o.vendor], totalAmountCents: total, status: o.status, checkoutId: checkout.id, shippingAddress: 'Pickup at the tournament booth', paidAt, createdAt: placed, updatedAt: placed })
        .returning();
      for (const [li, q] of o.items) {
        await tx.insert(s.orderItems).values({ orderId: order.id, marketplacePinId: listings[li].id, quantity: q, unitPriceCents: listings[li].priceCents, totalPriceCents: listings[li].priceCents * q });
        if (paidAt) await tx.insert(s.userInventory).values({ userId: o.buyer, orderId: order.id, marketplacePinId: listings[li].id, quantity: q, acquiredAt: paidAt });
      }
      // the timeline: placed, then each step up to the status, a few hours apart
      const steps = o.status === 'cancelled' ? ['pending', 'cancelled'] : path.slice(0, path.indexOf(o.status) + 1);
      for (const [n, to] of steps.entries()) {
        await tx.insert(s.orderStatusHistory).values({
          orderId: order.id,
          fromStatus: n === 0 ? null : (steps[n - 1] as s.OrderStatus),
          toStatus: to as s.OrderStatus,
          changedBy: n === 0 ? o.buyer : to === 'cancelled' && o.reason?.startsWith('Not paid') ? null : to === 'cancelled' ? o.buyer : vendorUsers[o.vendor],
          reason: to === 'cancelled' ? (o.reason ?? null) : null,
          createdAt: new Date(placed.getTime() + n * 3 * 3_600_000),
        });
      }
    });
  }

  // a cart waiting to be checked out: one pin from each of two vendors
  await db.insert(s.cartItems).values([
    { userId: player, marketplacePinId: listings[16].id, quantity: 1, seenPriceCents: listings[16].priceCents },
    { userId: player, marketplacePinId: listings[20].id, quantity: 2, seenPriceCents: listings[20].priceCents },
  ]);
  return { vendors: sellers.length, listings: listings.length, orders: orderPlan.length };
}
