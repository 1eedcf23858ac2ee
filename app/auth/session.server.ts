/**
 * Sessions live in the `sessions` table (sid, sess, expire); the cookie holds only the id.
 * Expiry rolls forward 30 days on use; expired rows are removed.
 */
import { createCookie, createSession, createSessionStorage, type Session } from '@remix-run/node';
import { eq, lt, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { db, keptForRequest, prepared } from '~/db/index.server';
import { sessions } from '~/db/schema';
import { secureCookies, sessionSecrets } from '~/utils/env.server';

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

export interface SessionData {
  userId?: string;
  csrf?: string;
  oauthReturnTo?: string;
  /** ms timestamp of the last time the row's expiry was pushed forward */
  refreshedAt?: number;
}

/** How often a signed-in visit pushes the 30-day expiry forward (one write a day, not per request). */
const ROLL_EVERY_MS = 24 * 60 * 60 * 1000;

// every request with a cookie reads its session: built and prepared once
const sessionBySid = prepared((conn) => conn.query.sessions.findFirst({ where: eq(sessions.sid, sql.placeholder('sid')) }).prepare());

let lastCleanup = 0;
async function cleanupExpired() {
  const now = Date.now();
  if (now - lastCleanup < 60 * 60 * 1000) return;
  lastCleanup = now;
  await db().delete(sessions).where(lt(sessions.expire, new Date(now)));
}

const sessionCookie = createCookie('__pindex_session', {
  httpOnly: true,
  sameSite: 'lax',
  path: '/',
  secure: secureCookies(),
  secrets: sessionSecrets(),
  maxAge: SESSION_MAX_AGE_SECONDS,
});

/** A session's row, read once per request while nothing is written (see getSession). */
const sessionRowOf = keptForRequest((sid: string) => sessionBySid().execute({ sid }));

async function readSession(sid: string, request?: Request): Promise<Partial<SessionData> | null> {
  const row = await (request ? sessionRowOf(request, sid) : sessionBySid().execute({ sid }));
  if (!row) return null;
  if (row.expire.getTime() < Date.now()) {
    await db().delete(sessions).where(eq(sessions.sid, sid));
    return null;
  }
  return row.sess as Partial<SessionData>;
}

export const sessionStorage = createSessionStorage<SessionData>({
  cookie: sessionCookie,
  async createData(data, expires) {
    const sid = randomBytes(24).toString('base64url');
    void cleanupExpired().catch(() => undefined);
    await db()
      .insert(sessions)
      .values({
        sid,
        sess: data as Record<string, unknown>,
        expire: expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
        userId: typeof data.userId === 'string' ? data.userId : null,
      });
    return sid;
  },
  readData(sid) {
    return readSession(sid);
  },
  async updateData(sid, data, expires) {
    await db()
      .update(sessions)
      .set({
        sess: data as Record<string, unknown>,
        expire: expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
        userId: typeof data.userId === 'string' ? data.userId : null,
      })
      .where(eq(sessions.sid, sid));
    void cleanupExpired().catch(() => undefined);
  },
  async deleteData(sid) {
    await db().delete(sessions).where(eq(sessions.sid, sid));
  },
});

/**
 * The request's session, as `sessionStorage.getSession(cookie header)` reads it, with two reads
 * kept: the cookie's signature check (the same header always gives the same id; at most
 * MAX_KEPT_COOKIES headers are kept) and, for the rest of the request while nothing is written, the
 * session's row. A signed-in page asks three times (the root loader for the user and the rolling
 * expiry, the page's loader for the user); a write in between (signing out, rolling the expiry)
 * makes the next ask read the row again.
 */
export async function getSession(request: Request): Promise<Session<SessionData>> {
  const header = request.headers.get('Cookie');
  const id = header && (await sessionIdOf(header));
  const data = id && (await readSession(id, request));
  return createSession<SessionData>(data || {}, id || '');
}

const keptCookies = new Map<string, Promise<string | null>>();
const MAX_KEPT_COOKIES = 500;

function sessionIdOf(header: string): Promise<string | null> {
  let id = keptCookies.get(header);
  if (!id) {
    id = sessionCookie.parse(header) as Promise<string | null>;
    if (header.length > 4096) return id;
    if (keptCookies.size >= MAX_KEPT_COOKIES) keptCookies.clear();
    keptCookies.set(header, id);
    id.catch(() => keptCookies.delete(header));
  }
  return id;
}

export function commitSession(session: Session<SessionData>): Promise<string> {
  return sessionStorage.commitSession(session);
}

/**
 * Signs a user in: the old session (if any) is destroyed and a NEW session id is issued, so a
 * session id known before sign-in (fixation) is worthless after it. Returns the Set-Cookie value.
 */
export async function createUserSession(request: Request, userId: string): Promise<string> {
  const old = await getSession(request);
  if (old.id) await sessionStorage.destroySession(old);
  const fresh = await sessionStorage.getSession();
  fresh.set('userId', userId);
  fresh.set('refreshedAt', Date.now());
  return sessionStorage.commitSession(fresh);
}

/** Ends the session (row deleted); returns the Set-Cookie value that clears the cookie. */
export async function destroyUserSession(request: Request): Promise<string> {
  const session = await getSession(request);
  return sessionStorage.destroySession(session);
}

/**
 * Rolling expiry: when a signed-in session was last extended more than a day ago, commit it again
 * (new 30-day expiry on the row and the cookie). Returns the Set-Cookie value, or null.
 */
export async function rollSession(request: Request): Promise<string | null> {
  const session = await getSession(request);
  if (!session.id || typeof session.get('userId') !== 'string') return null;
  const refreshedAt = session.get('refreshedAt');
  if (typeof refreshedAt === 'number' && Date.now() - refreshedAt < ROLL_EVERY_MS) return null;
  session.set('refreshedAt', Date.now());
  return sessionStorage.commitSession(session);
}

/** Removes every expired session row now (tests and maintenance). */
export async function deleteExpiredSessions(now = new Date()): Promise<void> {
  await db().delete(sessions).where(lt(sessions.expire, now));
}
