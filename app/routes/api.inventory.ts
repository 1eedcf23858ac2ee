import type { LoaderFunctionArgs } from '@remix-run/node';
import { api } from '~/http/api.server';
import { requireUser } from '~/http/guards.server';
import { listInventory } from '~/services/inventory.server';

/** GET /api/inventory -> { items, stats }: the pins the caller bought (paid orders and later). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => listInventory(await requireUser(request)));
