import type { ActionFunctionArgs } from '@remix-run/node';
import { optionalUser } from '~/http/guards.server';
import { readIdentifyRequest } from '~/http/identify-request.server';
import { timeZoneFromRequest } from '~/http/time-zone.server';
import { identifyPin, limitIdentifyRate } from '~/services/identification/identify.server';
import { api, methodNotAllowed } from '~/http/api.server';

/**
 * POST /api/identify: JSON `{ imageData: "data:image/jpeg;base64,..." }` or multipart (field
 * `image`). Answers the identification of spec §3. 413 over 5 MB; 400 with `image_parse_error`
 * for an image that does not decode; 415 (also `image_parse_error`) for a file that is no image;
 * 429 when one address sends too many.
 */
export const action = api(async ({ request, context }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  await limitIdentifyRate((context as { clientIp?: string }).clientIp);
  const input = await readIdentifyRequest(request);
  const user = await optionalUser(request);
  return identifyPin(user, input, { timeZone: timeZoneFromRequest(request) });
});

export const loader = api(async () => methodNotAllowed(['POST']));
