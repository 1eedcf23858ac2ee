/** Builders for marketplace tests: approved vendors, listings, carts. */
import { db } from '~/db/index.server';
import { marketplacePins, vendors, type Role } from '~/db/schema';
import { createUser } from './factories';

export async function createVendor(opts: { approved?: boolean; role?: Role; businessName?: string } = {}) {
  const approved = opts.approved ?? true;
  const user = await createUser({ role: opts.role ?? (approved ? 'vendor' : 'player') });
  const [vendor] = await db()
    .insert(vendors)
    .values({
      userId: user.id,
      businessName: opts.businessName ?? `Pins ${user.id.slice(-5)}`,
      contactEmail: user.email,
      applicationStatus: approved ? 'approved' : 'pending',
      isApproved: approved,
    })
    .returning();
  return { user, vendor };
}

export async function createListing(vendorId: string, overrides: Partial<typeof marketplacePins.$inferInsert> = {}) {
  const [row] = await db()
    .insert(marketplacePins)
    .values({ vendorId, name: `Listing ${Math.random().toString(36).slice(2, 8)}`, priceCents: 1250, stockQuantity: 10, ...overrides })
    .returning();
  return row;
}
