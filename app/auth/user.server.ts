/**
 * Who is asking: the signed-in user from the session, and the guards services and routes use.
 * Guards throw typed errors (401/403) that pages and /api routes map to their answers.
 */
import { redirect } from '@remix-run/node';
import { eq } from 'drizzle-orm';
import { db } from '~/db/index.server';
import { users, vendors, type Role, type User, type Vendor } from '~/db/schema';
import { Forbidden, Unauthorized } from '~/services/errors';
import { getSession } from './session.server';

export type SessionUser = User & { vendor: Vendor | null };

export async function getUserId(request: Request): Promise<string | null> {
  const session = await getSession(request);
  const userId = session.get('userId');
  return typeof userId === 'string' ? userId : null;
}

export async function loadUser(userId: string): Promise<SessionUser | null> {
  const row = await db().query.users.findFirst({ where: eq(users.id, userId) });
  if (!row) return null;
  const vendor = (await db().query.vendors.findFirst({ where: eq(vendors.userId, userId) })) ?? null;
  return { ...row, vendor };
}

/** The signed-in user, or null for visitors (a cookie whose user is gone counts as signed out). */
export async function getOptionalUser(request: Request): Promise<SessionUser | null> {
  const userId = await getUserId(request);
  if (!userId) return null;
  return loadUser(userId);
}

export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getOptionalUser(request);
  if (!user) throw new Unauthorized();
  return user;
}

export function hasRole(user: Pick<User, 'role'> | null | undefined, roles: readonly Role[]): boolean {
  return !!user && roles.includes(user.role);
}

export function assertRole(user: Pick<User, 'role'> | null | undefined, roles: readonly Role[], message?: string) {
  if (!user) throw new Unauthorized();
  if (!roles.includes(user.role)) throw new Forbidden(message);
}

export async function requireRole(request: Request, roles: readonly Role[], message?: string): Promise<SessionUser> {
  const user = await requireUser(request);
  assertRole(user, roles, message);
  return user;
}

export { displayName } from '~/utils/user';

/**
 * For admin pages (layout and children): null for visitors (the layout shows the
 * 'Admin Access Required' prompt), a redirect to / for signed-in users without an admin role,
 * else the admin user. Child loaders call it too, since Remix runs them alongside the layout's.
 */
export async function getAdminPageUser(request: Request): Promise<SessionUser | null> {
  const user = await getOptionalUser(request);
  if (!user) return null;
  if (user.role !== 'admin' && user.role !== 'super_admin') throw redirect('/');
  return user;
}
