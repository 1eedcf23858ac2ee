import type { LoaderFunctionArgs } from '@remix-run/node';
import { rarestPins } from '~/services/pins.server';
import { api } from '~/http/api.server';

/** GET /api/pins/rarest?limit=4 (1-100): an array of pins. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => rarestPins(new URL(request.url).searchParams.get('limit') ?? 4));
