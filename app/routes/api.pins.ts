import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { requireUser } from '~/http/guards.server';
import { Invalid } from '~/services/errors';
import { RARITIES, isOneOf } from '~/utils/constants';
import { createPin, listPins } from '~/services/pins.server';
import { readPinPayload } from '~/http/pin-payload.server';
import { api, methodNotAllowed } from '~/http/api.server';

/**
 * GET /api/pins?search=&rarity=&organizationId=&limit=&offset= : an array of pins (the spec's
 * shape); paging is told in headers: X-Total-Count and, when there is more, X-Next-Offset.
 * POST /api/pins (multipart: fields + up to 5 `images` files, or JSON with data-URL images).
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  const q = url.searchParams;
  const rarity = q.get('rarity');
  // spec: the client omits rarity for all rarities; 'all_rarities' and '' mean the same
  if (rarity && rarity !== 'all_rarities' && !isOneOf(RARITIES, rarity)) {
    throw new Invalid('Unknown rarity', { rarity: ['Rarity must be one of common, uncommon, rare, ultra_rare'] });
  }
  const result = await listPins({
    search: q.get('search') ?? q.get('q'),
    rarity: rarity && rarity !== 'all_rarities' ? rarity : null,
    organizationId: q.get('organizationId') || null,
    limit: q.get('limit') ?? 24,
    offset: q.get('offset') ?? 0,
  });
  const headers: Record<string, string> = { 'X-Total-Count': String(result.total), 'Cache-Control': 'no-store' };
  if (result.hasMore) headers['X-Next-Offset'] = String(result.offset + result.pins.length);
  return json(result.pins, { headers });
});

export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const user = await requireUser(request);
  return json(await createPin(user, await readPinPayload(request)), { status: 201 });
});
