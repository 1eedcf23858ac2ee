/**
 * Who is asking: the signed-in user behind a request's session cookie. The guards in
 * app/http/guards.server.ts build on this; the rules themselves are in app/auth/permissions.ts.
 */
import { loadUser, type SessionUser } from '~/services/users.server';
import { getSession, sessionStorage } from './session.server';

export type { SessionUser };

/** Requests whose session cookie names a session that is gone (expired, signed out elsewhere, user deleted). */
const staleCookies = new WeakSet<Request>();

export async function getUserId(request: Request): Promise<string | null> {
  const session = await getSession(request);
  const userId = session.get('userId');
  if (typeof userId === 'string') return userId;
  // the cookie parsed to a session id, but no live row holds it
  if (session.id && Object.keys(session.data).length === 0) staleCookies.add(request);
  return null;
}

/** The signed-in user, or null for visitors (a cookie whose user is gone counts as signed out). */
export async function getOptionalUser(request: Request): Promise<SessionUser | null> {
  const userId = await getUserId(request);
  if (!userId) return null;
  const user = await loadUser(userId);
  if (!user) staleCookies.add(request);
  return user;
}

/**
 * The Set-Cookie value that clears a stale session cookie (and deletes what is left of its row),
 * or null when the request's cookie is fine. Only knows about requests a guard has looked at.
 */
export async function staleSessionCookie(request: Request): Promise<string | null> {
  if (!staleCookies.has(request)) return null;
  staleCookies.delete(request);
  return sessionStorage.destroySession(await getSession(request));
}

export { displayName } from '~/utils/user';
