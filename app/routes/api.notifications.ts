import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { listNotifications, markNotificationsRead } from '~/services/trades.server';

/** GET /api/notifications -> { unread, notifications } (newest 20). POST -> { marked } (all read). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  return listNotifications(user);
});

export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireUser(request);
  return markNotificationsRead(user);
});
