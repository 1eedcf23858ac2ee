/** Small builders for integration tests: real rows in the test database. */
import { db } from '~/db/index.server';
import { organizations, pins, users, type Role } from '~/db/schema';
import { createId } from '~/utils/ids';

export async function createUser(overrides: Partial<{ email: string; role: Role; nickname: string; firstName: string; lastName: string; isOnboardingComplete: boolean }> = {}) {
  const id = createId();
  const [row] = await db()
    .insert(users)
    .values({
      id,
      email: overrides.email ?? `user-${id}@example.test`,
      role: overrides.role ?? 'player',
      nickname: overrides.nickname ?? null,
      firstName: overrides.firstName ?? 'Test',
      lastName: overrides.lastName ?? 'User',
      isOnboardingComplete: overrides.isOnboardingComplete ?? true,
    })
    .returning();
  return row;
}

export async function createOrganization(name = `Org ${createId()}`) {
  const [row] = await db().insert(organizations).values({ name, description: `${name} description` }).returning();
  return row;
}

export async function createPin(overrides: Partial<typeof pins.$inferInsert> = {}) {
  const organizationId = overrides.organizationId ?? (await createOrganization()).id;
  const [row] = await db()
    .insert(pins)
    .values({ name: `Pin ${createId()}`, totalQuantity: 100, availableQuantity: 50, ...overrides, organizationId })
    .returning();
  return row;
}
