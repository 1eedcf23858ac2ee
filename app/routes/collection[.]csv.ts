import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { getOptionalUser } from '~/auth/user.server';
import { collectionCsv } from '~/services/collection.server';
import { page } from '~/utils/http.server';

/** GET /collection.csv: the signed-in user's whole collection as a spreadsheet-ready CSV. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (!user) return redirect('/collection');
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
