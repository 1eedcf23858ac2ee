/**
 * Sessions live in the `sessions` table (sid, sess, expire); the cookie holds only the id.
 * Expiry rolls forward 30 days on use; expired rows are removed.
 */
import { createSessionStorage, type Session } from '@remix-run/node';
import { eq, lt } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { db } from '~/db/index.server';
import { sessions } from '~/db/schema';
import { secureCookies, sessionSecrets } from '~/utils/env.server';

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

export interface SessionData {
  userId?: string;
  csrf?: string;
  oauthReturnTo?: string;
}

let lastCleanup = 0;
async function cleanupExpired() {
  const now = Date.now();
  if (now - lastCleanup < 60 * 60 * 1000) return;
  lastCleanup = now;
  await db().delete(sessions).where(lt(sessions.expire, new Date(now)));
}

export const sessionStorage = createSessionStorage<SessionData>({
  cookie: {
    name: '__pindex_session',
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: secureCookies(),
    secrets: sessionSecrets(),
    maxAge: SESSION_MAX_AGE_SECONDS,
  },
  async createData(data, expires) {
    const sid = randomBytes(24).toString('base64url');
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
  async readData(sid) {
    const row = await db().query.sessions.findFirst({ where: eq(sessions.sid, sid) });
    if (!row) return null;
    if (row.expire.getTime() < Date.now()) {
      await db().delete(sessions).where(eq(sessions.sid, sid));
      return null;
    }
    return row.sess as Partial<SessionData>;
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

export function getSession(request: Request): Promise<Session<SessionData>> {
  return sessionStorage.getSession(request.headers.get('Cookie'));
}
