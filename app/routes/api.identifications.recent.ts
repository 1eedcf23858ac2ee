import type { LoaderFunctionArgs } from '@remix-run/node';
import { recentIdentifications } from '~/services/feed.server';
import { api } from '~/http/api.server';

/** GET /api/identifications/recent?limit=6: [{ id, pin, confidence, createdAt }], newest first. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => recentIdentifications(new URL(request.url).searchParams.get('limit') ?? 6));
