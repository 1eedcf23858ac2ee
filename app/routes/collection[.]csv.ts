import type { LoaderFunctionArgs } from '@remix-run/node';
import { requirePageUser } from '~/http/guards.server';
import { collectionCsv } from '~/services/collection.server';
import { page } from '~/http/page.server';

/** GET /collection.csv: the signed-in user's whole collection as a spreadsheet-ready CSV. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePageUser(request);
  const csv = await page(() => collectionCsv(user, user.id));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="pindex-collection-${day}.csv"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
