import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { requireUser } from '~/http/guards.server';
import { timeZoneFromRequest } from '~/http/time-zone.server';
import { createCollectionEntry } from '~/services/collection.server';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';

/**
 * POST /api/collections { pinId, status, quantity, condition, tradeable, notes }: adds the pin to the
 * signed-in user's collection (or updates the existing entry); answers 201 with the entry and
 * newlyUnlockedBadges.
 */
export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request, 'Please sign in to add pins to your collection');
  const body = await readBody(request);
  const result = await createCollectionEntry(user, body, { timeZone: timeZoneFromRequest(request) });
  return json(result, { status: 201 });
});

export const loader = api(async () => methodNotAllowed(['POST']));
