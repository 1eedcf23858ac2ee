import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { assertCanWriteCollection } from '~/auth/permissions';
import { optionalUser } from '~/http/guards.server';
import { timeZoneFromRequest } from '~/http/time-zone.server';
import { getCollectionEntry, listCollection, moveCollectionEntry, removeCollectionEntry } from '~/services/collection.server';
import { COLLECTION_STATUSES, type CollectionStatus, isOneOf } from '~/utils/constants';
import { api, methodNotAllowed } from '~/http/api.server';
import { readBody } from '~/http/body.server';

const isStatus = (key: string): key is CollectionStatus => isOneOf(COLLECTION_STATUSES, key);

/**
 * GET /api/users/{id}/collection/owned|wanted|trading: that list (owner or admin).
 * GET /api/users/{id}/collection/{pinId}: the entry for one pin.
 * PUT /api/users/{id}/collection/{pinId} with { status }: moves the entry (owner only).
 * DELETE /api/users/{id}/collection/{pinId}: removes it (owner only).
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await optionalUser(request);
  const userId = params.id ?? '';
  const key = params.key ?? '';
  if (isStatus(key)) return listCollection(user, userId, key);
  return getCollectionEntry(user, userId, key);
});

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  const userId = params.id ?? '';
  const pinId = params.key ?? '';
  if (request.method === 'PUT' || request.method === 'PATCH') {
    const user = await optionalUser(request);
    assertCanWriteCollection(user, userId); // refuse before reading the body: 401/403 win over 400
    const body = await readBody(request);
    return moveCollectionEntry(user, userId, { pinId, status: body.status }, { timeZone: timeZoneFromRequest(request) });
  }
  if (request.method === 'DELETE') {
    const user = await optionalUser(request);
    await removeCollectionEntry(user, userId, pinId);
    return json({ success: true, pinId });
  }
  return methodNotAllowed(['GET', 'PUT', 'PATCH', 'DELETE']);
});
