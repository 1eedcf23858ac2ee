import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { authenticateOAuth, oauthReturnCookie, oauthSettings, readOAuthReturn } from '~/http/oauth.server';
import { createUserSession } from '~/auth/session.server';
import { isAppError } from '~/services/errors';

/**
 * GET /api/login/oauth/callback: the provider sends the browser back here with a code; the
 * strategy checks the state, exchanges the code, and the user is found, linked or created.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!oauthSettings().enabled) return redirect('/api/login?error=oauth_disabled');
  const clearReturn = await oauthReturnCookie.serialize('', { maxAge: 0 });
  try {
    const user = await authenticateOAuth(request);
    const to = await readOAuthReturn(request);
    const headers = new Headers();
    headers.append('Set-Cookie', await createUserSession(request, user.id));
    headers.append('Set-Cookie', clearReturn);
    return redirect(to, { headers });
  } catch (error) {
    if (error instanceof Response) return error;
    const code = isAppError(error) && error.status === 403 ? 'oauth_unverified' : 'oauth';
    if (code === 'oauth') console.error('OAuth callback failed:', error);
    return redirect(`/api/login?error=${code}`, { headers: { 'Set-Cookie': clearReturn } });
  }
}
