/**
 * Admin: the users table (search, role filter, sort, paging) and a user's details. Role changes go
 * through `changeUserRole` in users.server.ts, whose rules live in app/auth/permissions.ts.
 */
import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { assertAdmin, type Actor } from '~/auth/permissions';
import { db } from '~/db/index.server';
import { identifications, teams, userCollections, users, vendors, type User } from '~/db/schema';
import type { AdminUser, AdminUserDetails, AdminUserList } from '~/types/admin';
import { ROLES, isOneOf } from '~/utils/constants';
import { displayName } from '~/utils/user';
import { NotFound } from '../errors';
import { likePattern, pageWindow } from './list.server';

export interface AdminUserQuery {
  search?: string | null;
  role?: string | null;
  sort?: 'createdAt' | 'name' | 'email' | 'role';
  dir?: 'asc' | 'desc';
  limit?: unknown;
  offset?: unknown;
}

export function toAdminUser(row: User): AdminUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    nickname: row.nickname,
    displayName: displayName(row),
    profileImageUrl: row.profileImageUrl,
    role: row.role,
    isOnboardingComplete: row.isOnboardingComplete,
    status: row.isOnboardingComplete ? 'Active' : 'Pending Setup',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function userSearch(search: string | null | undefined): SQL | undefined {
  const pattern = likePattern(search);
  if (!pattern) return undefined;
  return sql`(${users.email} like ${pattern} escape '\\' or ${users.nickname} like ${pattern} escape '\\' or (coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')) like ${pattern} escape '\\')`;
}

/** GET /api/admin/users and /admin/users: `{ users, total }`, newest first unless sorted. */
export async function listAdminUsers(actor: Actor | null, query: AdminUserQuery = {}): Promise<AdminUserList> {
  assertAdmin(actor);
  const { limit, offset } = pageWindow(query.limit, query.offset, { fallback: 20, max: 1000 });
  const conditions: SQL[] = [];
  const search = userSearch(query.search);
  if (search) conditions.push(search);
  if (isOneOf(ROLES, query.role)) conditions.push(eq(users.role, query.role));
  const where = conditions.length ? and(...conditions) : undefined;
  const dir = query.dir === 'asc' ? asc : desc;
  const order =
    query.sort === 'email'
      ? [dir(sql`lower(${users.email})`)]
      : query.sort === 'name'
        ? [dir(sql`lower(coalesce(${users.nickname}, ${users.firstName} || ' ' || ${users.lastName}, ${users.email}))`)]
        : query.sort === 'role'
          ? [dir(users.role), desc(users.createdAt)]
          : [dir(users.createdAt)];
  const [rows, totalRow] = await Promise.all([
    db()
      .select()
      .from(users)
      .where(where)
      .orderBy(...order, asc(users.id))
      .limit(limit)
      .offset(offset),
    db().select({ n: count() }).from(users).where(where).get(),
  ]);
  return { users: rows.map(toAdminUser), total: Number(totalRow?.n ?? 0) };
}

/** The details view of one user (404 for an unknown id). */
export async function getAdminUserDetails(actor: Actor | null, userId: string): Promise<AdminUserDetails> {
  assertAdmin(actor);
  const row = typeof userId === 'string' && userId.length <= 64 ? await db().select().from(users).where(eq(users.id, userId)).get() : undefined;
  if (!row) throw new NotFound('User not found');
  const [managed, entries, ids, vendor] = await Promise.all([
    db().select({ n: count() }).from(teams).where(eq(teams.managerId, row.id)).get(),
    db().select({ n: count() }).from(userCollections).where(eq(userCollections.userId, row.id)).get(),
    db().select({ n: count() }).from(identifications).where(eq(identifications.userId, row.id)).get(),
    db().select({ status: vendors.applicationStatus }).from(vendors).where(eq(vendors.userId, row.id)).get(),
  ]);
  return {
    ...toAdminUser(row),
    teamsManaged: Number(managed?.n ?? 0),
    collectionEntries: Number(entries?.n ?? 0),
    identifications: Number(ids?.n ?? 0),
    vendorStatus: vendor?.status ?? null,
  };
}
