import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDatabase } from '~/db/client.server';
import { db, keptForRequest, transaction } from '~/db/index.server';
import { identifications, organizations, pins, userCollections } from '~/db/schema';
import { createOrganization, createPin, createUser } from '../support/factories';

describe(`database (${process.env.DB_DRIVER || 'better-sqlite3'})`, () => {
  it('runs on the driver the environment names', () => {
    expect(getDatabase().driver).toBe(process.env.DB_DRIVER === 'libsql' ? 'libsql' : 'better-sqlite3');
  });

  it('creates every table of the data model', async () => {
    const rows = await db().all<{ name: string }>(sql`select name from sqlite_master where type = 'table'`);
    const names = rows.map((r) => r.name);
    for (const table of [
      'organizations', 'teams', 'pins', 'identifications', 'sessions', 'users', 'rosters', 'staff',
      'user_collections', 'pin_collections', 'achievements', 'user_achievements', 'user_stats',
      'daily_challenges', 'user_challenge_progress', 'pin_comments', 'pin_reactions', 'vendors',
      'vendor_application_history', 'marketplace_pins', 'orders', 'order_items', 'user_inventory',
      'audit_logs', 'passwords', 'oauth_connections', 'images', 'image_variants', 'image_features', 'pins_fts',
    ]) {
      expect(names).toContain(table);
    }
  });

  it('rolls back every step of a failed transaction', async () => {
    const org = await createOrganization('Rollback League');
    await expect(
      transaction(async (tx) => {
        await tx.insert(pins).values({ name: 'Half written', organizationId: org.id });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const left = await db().select().from(pins).where(eq(pins.name, 'Half written'));
    expect(left).toHaveLength(0);
  });

  it('commits a transaction and lets nested calls join it', async () => {
    const org = await createOrganization('Commit League');
    await transaction(async (tx) => {
      await tx.insert(pins).values({ name: 'Outer', organizationId: org.id });
      await transaction(async (inner) => {
        await inner.insert(pins).values({ name: 'Inner', organizationId: org.id });
      });
    });
    const rows = await db().select().from(pins).where(eq(pins.organizationId, org.id));
    expect(rows.map((r) => r.name).sort()).toEqual(['Inner', 'Outer']);
  });

  it('enforces checks, unique keys and foreign keys', async () => {
    const org = await createOrganization();
    await expect(db().insert(pins).values({ name: 'Bad rarity', organizationId: org.id, rarity: 'mythic' as 'rare' })).rejects.toThrow();
    await expect(db().insert(pins).values({ name: 'No org', organizationId: 'missing' })).rejects.toThrow();
    const user = await createUser({ email: 'Case@Example.test' });
    await expect(createUser({ email: 'case@example.test' })).rejects.toThrow();
    const pin = await createPin({ organizationId: org.id });
    await db().insert(userCollections).values({ userId: user.id, pinId: pin.id, status: 'owned' });
    await expect(db().insert(userCollections).values({ userId: user.id, pinId: pin.id, status: 'wanted' })).rejects.toThrow();
  });

  it('cascades a deleted pin to its identifications and refuses to delete an organization with pins', async () => {
    const pin = await createPin();
    await db().insert(identifications).values({ pinId: pin.id, confidence: 90 });
    await expect(db().delete(organizations).where(eq(organizations.id, pin.organizationId))).rejects.toThrow();
    await db().delete(pins).where(eq(pins.id, pin.id));
    const left = await db().select().from(identifications).where(eq(identifications.pinId, pin.id));
    expect(left).toHaveLength(0);
  });

  it('keeps the full-text index in step with pins and organization names', async () => {
    const org = await createOrganization('Cooperstown Dreams League');
    await createPin({ name: 'Thunderbolts 12U', organizationId: org.id, event: 'Summer Slam' });
    const find = (q: string) =>
      db().all<{ name: string }>(sql`select p.name from pins_fts f join pins p on p.rowid = f.rowid where pins_fts match ${q}`);
    expect((await find('thunder*')).map((r) => r.name)).toContain('Thunderbolts 12U');
    expect((await find('cooperstown')).map((r) => r.name)).toContain('Thunderbolts 12U');
    await db().update(organizations).set({ name: 'Renamed Circuit' }).where(eq(organizations.id, org.id));
    expect((await find('renamed')).map((r) => r.name)).toContain('Thunderbolts 12U');
    expect(await find('cooperstown')).toHaveLength(0);
  });

  it('keeps a read for one request until anything is written', async () => {
    const org = await createOrganization('Kept League');
    let reads = 0;
    const nameOf = keptForRequest(async (id: string) => {
      reads += 1;
      return (await db().select({ name: organizations.name }).from(organizations).where(eq(organizations.id, id)).get())?.name;
    });
    const request = new Request('http://x/');
    expect(await nameOf(request, org.id)).toBe('Kept League');
    expect(await nameOf(request, org.id)).toBe('Kept League');
    expect(reads).toBe(1);
    // another request reads for itself; another key is read afresh
    expect(await nameOf(new Request('http://x/'), org.id)).toBe('Kept League');
    expect(reads).toBe(2);
    // a write, by this request or any other, is seen at the next call
    await db().update(organizations).set({ name: 'Renamed League' }).where(eq(organizations.id, org.id));
    expect(await nameOf(request, org.id)).toBe('Renamed League');
    expect(reads).toBe(3);
    await createOrganization('Unrelated League');
    expect(await nameOf(request, org.id)).toBe('Renamed League');
    expect(reads).toBe(4);
  });
});
