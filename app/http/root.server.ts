/**
 * The root route's loader and action (app/root.tsx re-exports them). They live here, not in the
 * route module, so that the browser's bundle of the root route (loaded on every page) reaches none
 * of the server's modules and none of the form libraries the action uses: in the browser this file
 * is one empty module.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { parseWithZod } from '@conform-to/zod';
import { rollSession } from '~/auth/session.server';
import type { OnboardingInfo } from '~/components/onboarding.server';
import type { NavUser } from '~/components/nav';
import type { ToastMessage } from '~/components/toaster';
import { OnboardingSchema } from '~/forms/auth';
import { replyWithInvalid, replyWithServiceError } from '~/http/form-reply.server';
import { clearStaleSession, optionalUser } from '~/http/guards.server';
import { countEarnedBadges } from '~/services/achievements.server';
import { cartCount } from '~/services/cart.server';
import { unreadNotificationCount } from '~/services/trades.server';
import { accountFields, completeOnboarding, defaultNickname } from '~/services/users.server';
import { getToast, redirectWithToast } from '~/http/toast.server';

export async function rootLoader({ request }: LoaderFunctionArgs) {
  const user = await optionalUser(request);
  const { toast, headers } = await getToast(request);
  const earnedBadges = user ? await countEarnedBadges(user.id) : 0;
  const cartPieces = user ? await cartCount(user.id) : 0;
  const unreadNotifications = user ? await unreadNotificationCount(user.id) : 0;
  const navUser: NavUser | null = user
    ? { ...accountFields(user), cartCount: cartPieces, unreadNotifications }
    : null;
  const toasts: ToastMessage[] = toast
    ? [
        { id: toast.id, title: toast.title, description: toast.description, variant: toast.variant },
        ...(toast.more ?? []).map((m, i) => ({ id: `${toast.id}-${i}`, ...m })),
      ]
    : [];
  // Until setup is finished every page shows the onboarding screen (see App below).
  const onboarding: OnboardingInfo | null =
    user && !user.isOnboardingComplete ? { defaultNickname: defaultNickname(user), role: user.role, email: user.email } : null;
  // Rolling 30-day session expiry: pushed forward at most once a day.
  const rolled = user ? await rollSession(request) : null;
  // a cookie whose session is gone (expired, signed out elsewhere) is cleared
  const cleared = user ? null : await clearStaleSession(request);
  const cookie = rolled ?? cleared;
  return json(
    { user: navUser, earnedBadges, toasts, onboardingComplete: user?.isOnboardingComplete ?? true, onboarding },
    { headers: mergeHeaders(headers, cookie ? new Headers({ 'Set-Cookie': cookie }) : null) },
  );
}

/**
 * The onboarding form posts here (`action="/"` reaches the root route on any page, without JS).
 * On success: a welcome toast and /teams; on failure the form re-renders with the message.
 */
export async function rootAction({ request }: ActionFunctionArgs) {
  const formData = await request.formData().catch(() => null);
  if (formData?.get('intent') !== 'completeOnboarding') {
    return json({ intent: null, lastResult: null }, { status: 405, headers: { Allow: 'GET' } });
  }
  const user = await optionalUser(request);
  if (!user) return redirect('/api/login');
  const submission = parseWithZod(formData, { schema: OnboardingSchema });
  if (submission.status !== 'success') return replyWithInvalid(submission, { extra: { intent: 'completeOnboarding' } });
  try {
    const updated = await completeOnboarding(user, submission.value);
    return redirectWithToast('/teams', {
      title: 'Welcome to PinDex!',
      description: `Your account is ready, ${updated.nickname}. Start by creating or joining a team.`,
      variant: 'success',
    });
  } catch (error) {
    // anything the server refused (not plain bad input) is also shown as 'Error completing setup'
    return replyWithServiceError(submission, error, { extra: { intent: 'completeOnboarding' }, refusalAsFormError: true });
  }
}

function mergeHeaders(...list: (Headers | null | undefined)[]): Headers {
  const out = new Headers();
  for (const h of list) h?.forEach((value, key) => out.append(key, value));
  return out;
}

