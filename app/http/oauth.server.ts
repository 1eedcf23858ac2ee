/**
 * OAuth2 / OpenID Connect sign-in (remix-auth 4 + remix-auth-oauth2 3), switched on by configuration:
 *   OAUTH_ISSUER (discovery) or OAUTH_AUTHORIZATION_URL + OAUTH_TOKEN_URL (+ OAUTH_USERINFO_URL),
 *   OAUTH_CLIENT_ID, OAUTH_CLIENT_SECRET, OAUTH_SCOPES (default "openid email profile"),
 *   OAUTH_LABEL (button text "Continue with <label>", default "SSO").
 * remix-auth keeps no session: the callback route stores the user id in our session itself.
 */
import { createCookie } from '@remix-run/node';
import { Authenticator } from 'remix-auth';
import { OAuth2Strategy } from 'remix-auth-oauth2';
import type { User } from '~/db/schema';
import { Invalid } from '~/services/errors';
import { findOrCreateOAuthUser } from '~/services/users.server';
import { secureCookies, sessionSecrets } from '~/utils/env.server';
import { safeRedirect } from '~/auth/redirect';

export const OAUTH_PROVIDER = 'oauth';
export const OAUTH_CALLBACK_PATH = '/api/login/oauth/callback';

interface Endpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string | null;
}

export function oauthSettings(): { enabled: boolean; label: string } {
  const env = process.env;
  const enabled = !!env.OAUTH_CLIENT_ID && (!!env.OAUTH_ISSUER || (!!env.OAUTH_AUTHORIZATION_URL && !!env.OAUTH_TOKEN_URL));
  return { enabled, label: env.OAUTH_LABEL?.trim() || 'SSO' };
}

let discovered: { issuer: string; promise: Promise<Endpoints> } | null = null;

async function endpoints(): Promise<Endpoints> {
  const env = process.env;
  if (env.OAUTH_AUTHORIZATION_URL && env.OAUTH_TOKEN_URL) {
    return {
      authorizationEndpoint: env.OAUTH_AUTHORIZATION_URL,
      tokenEndpoint: env.OAUTH_TOKEN_URL,
      userinfoEndpoint: env.OAUTH_USERINFO_URL || null,
    };
  }
  const issuer = env.OAUTH_ISSUER!;
  if (!discovered || discovered.issuer !== issuer) {
    const promise = (async () => {
      const url = new URL(issuer.replace(/\/$/, '') + '/.well-known/openid-configuration');
      const res = await fetch(url, { headers: { Accept: 'application/json' } });
      if (!res.ok) throw new Error(`OpenID discovery failed at ${url}: ${res.status}`);
      const doc = (await res.json()) as Record<string, unknown>;
      if (typeof doc.authorization_endpoint !== 'string' || typeof doc.token_endpoint !== 'string') {
        throw new Error('OpenID discovery document lacks authorization_endpoint or token_endpoint');
      }
      return {
        authorizationEndpoint: doc.authorization_endpoint,
        tokenEndpoint: doc.token_endpoint,
        userinfoEndpoint: env.OAUTH_USERINFO_URL || (typeof doc.userinfo_endpoint === 'string' ? doc.userinfo_endpoint : null),
      };
    })();
    discovered = { issuer, promise };
    // a failed discovery is retried on the next sign-in rather than cached
    promise.catch(() => {
      if (discovered?.promise === promise) discovered = null;
    });
  }
  return discovered.promise;
}

/** Passes a `login_hint` (?login_hint=...) through to the provider, as OpenID Connect allows. */
class PinDexOAuth2Strategy extends OAuth2Strategy<User> {
  name = OAUTH_PROVIDER;
  protected authorizationParams(params: URLSearchParams, request: Request): URLSearchParams {
    const out = new URLSearchParams(params);
    const hint = new URL(request.url).searchParams.get('login_hint');
    if (hint) out.set('login_hint', hint.slice(0, 254));
    return out;
  }
}

function decodeJwtPayload(token: string): Record<string, unknown> {
  const part = token.split('.')[1];
  if (!part) return {};
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

async function claimsFor(accessToken: string, idToken: string | null, userinfoEndpoint: string | null): Promise<Record<string, unknown>> {
  if (userinfoEndpoint) {
    const res = await fetch(userinfoEndpoint, { headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' } });
    if (!res.ok) throw new Error(`userinfo failed: ${res.status}`);
    return (await res.json()) as Record<string, unknown>;
  }
  // The ID token came straight from the token endpoint over the back channel (TLS in production),
  // so OpenID Connect lets the client read its claims without checking the signature.
  if (idToken) return decodeJwtPayload(idToken);
  throw new Invalid('The sign-in provider returned no user information (configure OAUTH_USERINFO_URL).');
}

async function authenticator(request: Request): Promise<Authenticator<User>> {
  const env = process.env;
  const ep = await endpoints();
  const redirectURI = new URL(OAUTH_CALLBACK_PATH, env.APP_URL || request.url).toString();
  const strategy = new PinDexOAuth2Strategy(
    {
      clientId: env.OAUTH_CLIENT_ID!,
      clientSecret: env.OAUTH_CLIENT_SECRET || null,
      authorizationEndpoint: ep.authorizationEndpoint,
      tokenEndpoint: ep.tokenEndpoint,
      redirectURI,
      scopes: (env.OAUTH_SCOPES || 'openid email profile').split(/[\s,]+/).filter(Boolean),
      cookie: {
        name: '__pindex_oauth',
        path: '/api/login/oauth',
        httpOnly: true,
        sameSite: 'Lax',
        maxAge: 600,
        // the library accepts only `true` here (see STACK.md)
        ...(secureCookies() ? { secure: true as const } : {}),
      },
    },
    async ({ tokens }) => {
      let idToken: string | null = null;
      try {
        idToken = tokens.idToken();
      } catch {
        idToken = null;
      }
      const claims = await claimsFor(tokens.accessToken(), idToken, ep.userinfoEndpoint);
      const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
      const name = str(claims.name);
      return findOrCreateOAuthUser({
        provider: env.OAUTH_ISSUER || new URL(ep.authorizationEndpoint).origin,
        providerUserId: String(claims.sub ?? ''),
        email: str(claims.email),
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        firstName: str(claims.given_name) ?? (name ? name.split(' ')[0] : null),
        lastName: str(claims.family_name) ?? (name && name.includes(' ') ? name.split(' ').slice(1).join(' ') : null),
      });
    },
  );
  return new Authenticator<User>().use(strategy, OAUTH_PROVIDER);
}

/** Starts the flow (throws the redirect to the provider) or, on the callback, returns the user. */
export async function authenticateOAuth(request: Request): Promise<User> {
  return (await authenticator(request)).authenticate(OAUTH_PROVIDER, request);
}

/** Where to go after the provider sends the user back (kept in a short-lived cookie). */
export const oauthReturnCookie = createCookie('__pindex_oauth_return', {
  httpOnly: true,
  sameSite: 'lax',
  path: '/api/login/oauth',
  maxAge: 600,
  secure: secureCookies(),
  secrets: sessionSecrets(),
});

export async function readOAuthReturn(request: Request): Promise<string> {
  const value: unknown = await oauthReturnCookie.parse(request.headers.get('Cookie'));
  return safeRedirect(typeof value === 'string' ? value : null);
}
