import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { readFormData } from '~/http/body.server';
import { requireUser } from '~/http/guards.server';
import { Invalid } from '~/services/errors';
import { LOGO_REQUIRED, updateTeamLogo } from '~/services/teams.server';

/**
 * POST /api/teams/{id}/logo (multipart, field logo; the team's manager or an admin) -> the team with
 * its new logoUrl. 415 'Invalid file type' for non-images, 413 'File too large' over 5 MB.
 */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  if (!(request.headers.get('content-type') ?? '').includes('multipart/form-data')) {
    throw new Invalid('Send the logo as multipart/form-data in the field logo', { logo: [LOGO_REQUIRED] });
  }
  const form = await readFormData(request);
  const file = form.get('logo');
  return updateTeamLogo(user, params.id ?? '', typeof file === 'string' ? null : file);
});

export const loader = api(async () => methodNotAllowed(['POST']));
