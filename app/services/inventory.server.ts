/**
 * The buyer's inventory (user_inventory): the pins they bought. Rows are written when an order
 * becomes paid and removed if that paid order is cancelled (orders.server.ts). Spec §2 (My Pin
 * Collection), §3 (inventory item), §9 (recent acquisitions: last 7 days).
 *
 * An item whose listing names a catalogue pin can be added to the personal collection as owned in
 * one step, through the collection service (counts and badges stay true).
 */
import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { assertSignedIn, type Actor } from '~/auth/permissions';
import { db } from '~/db/index.server';
import { marketplacePins, orders, userCollections, userInventory, vendors } from '~/db/schema';
import { centsToDecimal } from '~/utils/money';
import { RECENT_DAYS } from '~/utils/inventory';
import { orderNumber, OWNED_STATUSES } from '~/utils/order-status';
import { createCollectionEntry } from './collection.server';
import { Invalid, NotFound } from './errors';
import { imageUrl } from './images.server';

export { RECENT_DAYS };
export const INVENTORY_ITEM_NOT_FOUND = 'Inventory item not found';

export interface InventoryItemDto {
  id: string;
  quantity: number;
  acquiredAt: string;
  orderId: string | null;
  orderNumber: string | null;
  marketplacePin: { id: string; name: string; description: string | null; images: string[]; thumbnail: string | null; pinId: string | null; vendorName: string };
  /** the catalogue pin is already owned in the collection */
  inCollection: boolean;
}

export interface InventoryStats {
  items: number;
  pieces: number;
  spentCents: number;
  spent: string;
  recent: number;
}

export async function listInventory(actor: Actor | null, opts: { now?: Date } = {}): Promise<{ items: InventoryItemDto[]; stats: InventoryStats }> {
  assertSignedIn(actor);
  const now = opts.now ?? new Date();
  const rows = await db()
    .select({ item: userInventory, listing: marketplacePins, vendorName: vendors.businessName })
    .from(userInventory)
    .innerJoin(marketplacePins, eq(marketplacePins.id, userInventory.marketplacePinId))
    .innerJoin(vendors, eq(vendors.id, marketplacePins.vendorId))
    .where(eq(userInventory.userId, actor.id))
    .orderBy(desc(userInventory.acquiredAt), desc(userInventory.id));
  const pinIds = [...new Set(rows.map((r) => r.listing.pinId).filter((id): id is string => !!id))];
  const owned = pinIds.length
    ? new Set(
        (
          await db()
            .select({ pinId: userCollections.pinId })
            .from(userCollections)
            .where(and(eq(userCollections.userId, actor.id), eq(userCollections.status, 'owned'), inArray(userCollections.pinId, pinIds)))
        ).map((r) => r.pinId),
      )
    : new Set<string>();
  const spent = await db()
    .select({ cents: sql<number>`coalesce(sum(${orders.totalAmountCents}), 0)` })
    .from(orders)
    .where(and(eq(orders.userId, actor.id), inArray(orders.status, [...OWNED_STATUSES])))
    .get();
  const since = new Date(now.getTime() - RECENT_DAYS * 86_400_000);
  const recent = (await db().select({ n: sql<number>`count(*)` }).from(userInventory).where(and(eq(userInventory.userId, actor.id), gte(userInventory.acquiredAt, since))).get())?.n ?? 0;
  const items = rows.map(({ item, listing, vendorName }) => ({
    id: item.id,
    quantity: item.quantity,
    acquiredAt: item.acquiredAt.toISOString(),
    orderId: item.orderId,
    orderNumber: item.orderId ? orderNumber(item.orderId) : null,
    marketplacePin: {
      id: listing.id,
      name: listing.name,
      description: listing.description,
      images: listing.images.map((i) => imageUrl(i)),
      thumbnail: listing.images[0] ? imageUrl(listing.images[0], 'thumb') : null,
      pinId: listing.pinId,
      vendorName,
    },
    inCollection: !!listing.pinId && owned.has(listing.pinId),
  }));
  const spentCents = Number(spent?.cents ?? 0);
  return {
    items,
    stats: { items: items.length, pieces: items.reduce((n, i) => n + i.quantity, 0), spentCents, spent: centsToDecimal(spentCents), recent: Number(recent) },
  };
}

/** Adds a bought item's catalogue pin to the buyer's collection as owned, with the quantity bought. */
export async function addInventoryItemToCollection(actor: Actor | null, inventoryId: string) {
  assertSignedIn(actor);
  const row =
    typeof inventoryId === 'string' && inventoryId.length <= 64
      ? await db()
          .select({ item: userInventory, pinId: marketplacePins.pinId, name: marketplacePins.name })
          .from(userInventory)
          .innerJoin(marketplacePins, eq(marketplacePins.id, userInventory.marketplacePinId))
          .where(eq(userInventory.id, inventoryId))
          .get()
      : undefined;
  // someone else's item is not revealed
  if (!row || row.item.userId !== actor.id) throw new NotFound(INVENTORY_ITEM_NOT_FOUND);
  if (!row.pinId) throw new Invalid('This pin is not in the pin database, so it cannot be added to your collection');
  const result = await createCollectionEntry(actor, { pinId: row.pinId, status: 'owned', quantity: row.item.quantity });
  return { ...result, name: row.name };
}
