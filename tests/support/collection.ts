/** Builders for collection tests. */
import { eq } from 'drizzle-orm';
import { db } from '~/db/index.server';
import { userCollections, userStats } from '~/db/schema';

export async function statsOf(userId: string) {
  return db().query.userStats.findFirst({ where: eq(userStats.userId, userId) });
}

export async function listCounts(userId: string) {
  const rows = await db().select().from(userCollections).where(eq(userCollections.userId, userId));
  return {
    owned: rows.filter((r) => r.status === 'owned').length,
    wanted: rows.filter((r) => r.status === 'wanted').length,
    trading: rows.filter((r) => r.status === 'trading').length,
    total: rows.length,
  };
}
