import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUserOr404 } from '~/http/guards.server';
import { page } from '~/http/page.server';
import { rosterCsv } from '~/services/team-roster-csv.server';

/** GET /teams/{id}/roster.csv: the roster for a spreadsheet (the team's manager and admins). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserOr404(request);
  const { teamName, csv } = await page(() => rosterCsv(user, params.id ?? ''));
  const slug = teamName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'team';
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${slug}-roster.csv"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
