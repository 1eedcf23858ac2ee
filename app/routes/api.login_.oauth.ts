import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { authenticateOAuth, oauthReturnCookie, oauthSettings } from '~/http/oauth.server';
import { safeRedirect } from '~/auth/redirect';

/** GET (or POST) /api/login/oauth: sends the browser to the OAuth2 provider. */
async function start(request: Request) {
  if (!oauthSettings().enabled) return redirect('/api/login?error=oauth_disabled');
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '/');
  try {
    await authenticateOAuth(request);
    return redirect('/api/login?error=oauth');
  } catch (error) {
    if (error instanceof Response && error.status >= 300 && error.status < 400) {
      const headers = new Headers(error.headers);
      headers.append('Set-Cookie', await oauthReturnCookie.serialize(redirectTo));
      return new Response(null, { status: error.status, headers });
    }
    console.error('OAuth sign-in could not start:', error);
    return redirect('/api/login?error=oauth');
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  return start(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return start(request);
}
