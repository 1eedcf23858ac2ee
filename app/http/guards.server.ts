/**
 * Guards: who may reach a page or an /api call, answered the way each door should answer.
 *
 * - Pages: a visitor is sent to `/api/login?redirectTo=<this page>` (`requirePageUser`) or, where
 *   the specification shows a sign-in prompt, gets that prompt (`promptedPageUser`: 401, shown by
 *   the shared error page); a signed-in user with the wrong role gets the 403 page (`requirePageRole`).
 * - /api: `requireUser` / `requireRole` throw Unauthorized (401) or Forbidden (403), which the
 *   `api()` wrapper answers as `{ error }` JSON.
 *
 * Which role may do what is decided in app/auth/permissions.ts; these only apply it to requests.
 */
import { json, redirect } from '@remix-run/node';
import { assertRole, assertSignedIn, isAdmin } from '~/auth/permissions';
import { getSession, sessionStorage } from '~/auth/session.server';
import { keptForRequest } from '~/db/index.server';
import { loadUser, type SessionUser } from '~/services/users.server';
import { ROLE_LABELS, type Role } from '~/utils/constants';
import { redirectWithToast } from './toast.server';
import { rethrowAsPageError } from './page.server';

export type { SessionUser };

// ---------------------------------------------------------------- who is asking

/** Requests whose session cookie names a session that is gone (expired, signed out elsewhere, user deleted). */
const staleCookies = new WeakSet<Request>();

async function getUserId(request: Request): Promise<string | null> {
  const session = await getSession(request);
  const userId = session.get('userId');
  if (typeof userId === 'string') return userId;
  // the cookie parsed to a session id, but no live row holds it
  if (session.id && Object.keys(session.data).length === 0) staleCookies.add(request);
  return null;
}

/** The user of a request, read once while nothing is written (the root loader and the page's both ask). */
const userOf = keptForRequest(loadUser);

/** The signed-in user, or null for a visitor (a cookie whose user is gone counts as signed out). */
export async function optionalUser(request: Request): Promise<SessionUser | null> {
  const userId = await getUserId(request);
  if (!userId) return null;
  const user = await userOf(request, userId);
  if (!user) staleCookies.add(request);
  // each caller gets its own copy of the kept user
  return user && { ...user };
}

/**
 * The Set-Cookie value that clears a stale session cookie (and deletes what is left of its row),
 * or null when the request's cookie is fine. Only knows about requests a guard has looked at:
 * the root loader and the api() wrapper ask after theirs.
 */
export async function clearStaleSession(request: Request): Promise<string | null> {
  if (!staleCookies.has(request)) return null;
  staleCookies.delete(request);
  return sessionStorage.destroySession(await getSession(request));
}

// ---------------------------------------------------------------- guards

/** /api: the signed-in user, else 401. */
export async function requireUser(request: Request, message?: string): Promise<SessionUser> {
  const user = await optionalUser(request);
  assertSignedIn(user, message);
  return user;
}

/** /api: a user holding one of `roles`, else 401 (visitor) or 403. */
export async function requireRole(request: Request, roles: readonly Role[], message?: string): Promise<SessionUser> {
  const user = await optionalUser(request);
  assertRole(user, roles, message);
  return user;
}

/** Where a visitor is sent to sign in and come back to this page. */
export function signInUrl(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete('_data');
  const back = `${url.pathname}${url.search}`;
  return back === '/' ? '/api/login' : `/api/login?redirectTo=${encodeURIComponent(back)}`;
}

/** Pages: the signed-in user, else a redirect to the sign-in page that comes back here. */
export async function requirePageUser(request: Request): Promise<SessionUser> {
  const user = await optionalUser(request);
  if (!user) throw redirect(signInUrl(request));
  return user;
}

/** The specification's sign-in prompt of a page: its title and what it says. */
export interface SignInPrompt {
  title: string;
  message: string;
}

/**
 * The sign-in prompt a page's loader throws for a visitor: a 401 answer, which the shared error page
 * (components/error-page.tsx) shows with a 'Sign In to Continue' link that comes back to this page.
 */
export function signInPrompt(request: Request, prompt: SignInPrompt, init?: ResponseInit): Response {
  return json({ ...prompt, signIn: signInUrl(request) }, { ...init, status: 401 });
}

/** Pages with the specification's sign-in prompt: the signed-in user, else the prompt (401). */
export async function promptedPageUser(request: Request, prompt: SignInPrompt): Promise<SessionUser> {
  const user = await optionalUser(request);
  if (!user) throw signInPrompt(request, prompt);
  return user;
}

/** Pages: a user holding one of `roles`; a visitor signs in first, another role gets the 403 page. */
export async function requirePageRole(request: Request, roles: readonly Role[], message?: string): Promise<SessionUser> {
  const user = await requirePageUser(request);
  try {
    assertRole(user, roles, message);
  } catch (error) {
    rethrowAsPageError(error);
  }
  return user;
}

/** An admin, or null for a visitor; other roles are redirected to / as the specification says (and told why). */
async function adminOrVisitor(request: Request): Promise<SessionUser | null> {
  const user = await optionalUser(request);
  if (!user) return null;
  // sent home, and told why (not silently moved)
  if (!isAdmin(user)) {
    throw await redirectWithToast('/', {
      title: 'Admin Access Required',
      description: `The admin area is for admins. Your account is a ${ROLE_LABELS[user.role]}.`,
      variant: 'destructive',
    });
  }
  return user;
}

/**
 * The admin area's pages (the layout and every child loader, which Remix runs beside the layout's):
 * a visitor gets the 'Admin Access Required' sign-in prompt (401), other roles are redirected to /,
 * admins pass.
 */
export async function adminPageUser(request: Request): Promise<SessionUser> {
  const user = await adminOrVisitor(request);
  if (!user) throw signInPrompt(request, { title: 'Admin Access Required', message: 'Sign in with an admin account to manage PinDex.' });
  return user;
}

/** An admin page's action: a visitor is sent to sign in, other roles to / (as the page's loader does). */
export async function adminActionUser(request: Request): Promise<SessionUser> {
  const user = await adminOrVisitor(request);
  if (!user) throw redirect(signInUrl(request));
  return user;
}

/**
 * Pages the specification does not register for signed-out visitors (/profile, /badges,
 * /teams/{id}): a visitor gets the 404 page, as if the page did not exist.
 */
export async function requireUserOr404(request: Request): Promise<SessionUser> {
  const user = await optionalUser(request);
  if (!user) throw json({ message: 'Not found' }, { status: 404 });
  return user;
}

/** The sign-in and sign-up pages send a signed-in visitor straight on (no user row read). */
export async function isSignedIn(request: Request): Promise<boolean> {
  return (await getUserId(request)) !== null;
}
