import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readFormData } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { importRosterCsv, ROSTER_CSV_MAX_BYTES } from '~/services/team-roster-csv.server';
import { TooLarge } from '~/services/errors';

/**
 * POST /api/teams/{teamId}/players/import: a roster CSV (name, position, jersey number) as the
 * multipart field `file` or as a text/csv body -> { added, updated }. A file with bad lines is
 * refused whole (400, `issues.file` lists each line).
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  const type = request.headers.get('content-type') ?? '';
  let file: Blob | string | null = null;
  if (type.includes('multipart/form-data')) {
    const value = (await readFormData(request, ROSTER_CSV_MAX_BYTES + 64 * 1024)).get('file');
    file = value ?? null;
  } else {
    if (Number(request.headers.get('content-length') ?? '0') > ROSTER_CSV_MAX_BYTES) throw new TooLarge('The roster file is too large (max 100 KB)');
    file = await request.text();
  }
  return importRosterCsv(user, params.id ?? '', file);
});

export const loader = api(async () => methodNotAllowed(['POST']));
