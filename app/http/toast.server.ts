/**
 * Toasts carried across a redirect in a short-lived flash cookie (no database row for visitors).
 * The root loader reads it once; without JavaScript the layout shows it as an inline status.
 */
import { createCookieSessionStorage, redirect } from '@remix-run/node';
import { z } from 'zod';
import { secureCookies, sessionSecrets } from '~/utils/env.server';

export const ToastSchema = z.object({
  id: z.string().default(() => Math.random().toString(36).slice(2)),
  title: z.string(),
  description: z.string().optional(),
  variant: z.enum(['default', 'success', 'destructive']).default('default'),
  /** extra toasts shown after this one (e.g. 'Badge Unlocked!' for each new badge) */
  more: z
    .array(z.object({ title: z.string(), description: z.string().optional(), variant: z.enum(['default', 'success', 'destructive']).optional() }))
    .optional(),
});
export type Toast = z.infer<typeof ToastSchema>;
export type ToastInput = z.input<typeof ToastSchema>;

const toastStorage = createCookieSessionStorage({
  cookie: {
    name: '__pindex_toast',
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: secureCookies(),
    secrets: sessionSecrets(),
  },
});

const KEY = 'toast';

export async function toastHeader(toast: ToastInput): Promise<string> {
  const session = await toastStorage.getSession();
  session.flash(KEY, ToastSchema.parse(toast));
  return toastStorage.commitSession(session);
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append('Set-Cookie', await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads (and consumes) the pending toast; returns the Set-Cookie header that clears it. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const session = await toastStorage.getSession(request.headers.get('Cookie'));
  // has() before get(): reading a flash value consumes it, after which has() is false
  if (!session.has(KEY)) return { toast: null, headers: null };
  const parsed = ToastSchema.safeParse(session.get(KEY));
  const headers = new Headers({ 'Set-Cookie': await toastStorage.destroySession(session) });
  return { toast: parsed.success ? parsed.data : null, headers };
}
