/**
 * The device cookie: a signed, long-lived cookie naming the accounts that signed in with a password
 * from this browser. Sign-in limits treat such a browser as the owner's own device, so guesses
 * from elsewhere cannot lock the owner out (see verifyLogin).
 */
import { createCookie } from '@remix-run/node';
import { randomBytes } from 'node:crypto';
import type { SignInDevice } from '~/services/users.server';
import { secureCookies, sessionSecrets } from '~/utils/env.server';

const MAX_ACCOUNTS = 5;

let cookie: ReturnType<typeof createCookie> | null = null;
function deviceCookie() {
  cookie ??= createCookie('__pindex_device', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: secureCookies(),
    secrets: sessionSecrets(),
    maxAge: 60 * 60 * 24 * 365,
  });
  return cookie;
}

function isDevice(value: unknown): value is SignInDevice {
  const v = value as SignInDevice | null;
  return !!v && typeof v.id === 'string' && Array.isArray(v.userIds) && v.userIds.every((id) => typeof id === 'string');
}

/** The request's device (null without a cookie or with one that is forged or malformed). */
export async function readDevice(request: Request): Promise<SignInDevice | null> {
  const value = await deviceCookie()
    .parse(request.headers.get('Cookie'))
    .catch(() => null);
  return isDevice(value) ? value : null;
}

/** Set-Cookie for the device after `userId` signed in from it (the most recent accounts kept). */
export async function rememberDevice(device: SignInDevice | null, userId: string): Promise<string> {
  const id = device?.id ?? randomBytes(16).toString('base64url');
  const userIds = [userId, ...(device?.userIds ?? []).filter((u) => u !== userId)].slice(0, MAX_ACCOUNTS);
  return deviceCookie().serialize({ id, userIds });
}
