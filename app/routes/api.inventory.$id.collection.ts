import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { addInventoryItemToCollection } from '~/services/inventory.server';

/** POST /api/inventory/{id}/collection -> 201 the collection entry: the bought pin, owned. */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const result = await addInventoryItemToCollection(await requireUser(request), params.id ?? '');
  return json({ entry: result.entry, newlyUnlockedBadges: result.newlyUnlockedBadges }, { status: 201 });
});
export const loader = api(async () => methodNotAllowed(['POST']));
