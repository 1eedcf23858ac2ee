import type { ActionFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/http/guards.server';
import { Invalid } from '~/services/errors';
import { toPublicUser, updateProfilePicture } from '~/services/users.server';
import { api, methodNotAllowed } from '~/http/api.server';
import { readFormData } from '~/http/body.server';

/**
 * POST /api/user/profile-picture (multipart, field profilePicture) -> { profileImageUrl, user }.
 * 415 'Invalid file type' for non-images, 413 'File too large' over 5 MB.
 */
export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const user = await requireUser(request);
  if (!(request.headers.get('content-type') ?? '').includes('multipart/form-data')) {
    throw new Invalid('Send the picture as multipart/form-data in the field profilePicture');
  }
  const form = await readFormData(request);
  const file = form.get('profilePicture');
  const updated = await updateProfilePicture(user, typeof file === 'string' ? null : file);
  return { profileImageUrl: updated.profileImageUrl, user: toPublicUser(updated) };
});

export async function loader() {
  return methodNotAllowed(['POST']);
}
