import type { ActionFunctionArgs } from '@remix-run/node';
import { optionalUser } from '~/http/guards.server';
import { readIdentifyRequest } from '~/http/identify-request.server';
import { timeZoneFromRequest } from '~/http/time-zone.server';
import { identifyPin, limitIdentifyRate } from '~/services/identification/identify.server';
import { api, methodNotAllowed } from '~/http/api.server';
import { json } from '@remix-run/node';
import { ServiceUnavailable } from '~/services/errors';

/**
 * POST /api/identify: JSON `{ imageData: "data:image/jpeg;base64,..." }` or multipart (field
 * `image`). Answers the identification of spec §3. 413 over 5 MB; 400 with `image_parse_error`
 * for an image that does not decode; 415 (also `image_parse_error`) for a file that is no image;
 * 429 when one address sends too many; 503 with Retry-After while the server's identification
 * index warms up at start (the spec's result with `serviceUnavailable: true` and the message).
 */
export const action = api(async ({ request, context }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  await limitIdentifyRate((context as { clientIp?: string }).clientIp);
  const input = await readIdentifyRequest(request);
  const user = await optionalUser(request);
  try {
    return await identifyPin(user, input, { timeZone: timeZoneFromRequest(request) });
  } catch (error) {
    if (!(error instanceof ServiceUnavailable)) throw error;
    const analysis = { name: 'Unknown pin', description: error.message, features: [], analysis: error.message, confidence: 0 };
    const body = { identified: false, pin: null, confidence: 0, message: error.message, error: error.message, serviceUnavailable: true, analysis, similarPins: [], newlyUnlockedBadges: [] };
    return json(body, { status: 503, headers: error.headers });
  }
});

export const loader = api(async () => methodNotAllowed(['POST']));
