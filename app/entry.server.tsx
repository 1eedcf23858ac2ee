import type { AppLoadContext, EntryContext } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { randomBytes } from 'node:crypto';
import { renderToString } from 'react-dom/server';
import { NonceProvider } from '~/components/nonce';
import { ensureMigrated, getDatabase } from '~/db/client.server';
import { startVisualIndex } from '~/services/identification/index.server';

// Migrations run when the server starts, before the first request is answered.
await ensureMigrated();
// The identification index loads the stored features in the background (identify waits for it).
void startVisualIndex();

function securityHeaders(headers: Headers, nonce: string) {
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  headers.set('X-Frame-Options', 'DENY');
  headers.set('Permissions-Policy', 'camera=(self), microphone=(), geolocation=()');
  headers.set(
    'Content-Security-Policy',
    [
      "default-src 'self'",
      "img-src 'self' data: blob:",
      "media-src 'self' blob:",
      "style-src 'self' 'unsafe-inline'",
      // inline scripts only with this response's nonce (Remix's hydration data, the time-zone cookie)
      `script-src 'self' 'nonce-${nonce}'`,
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "form-action 'self' " + (process.env.OAUTH_AUTHORIZATION_URL ? new URL(process.env.OAUTH_AUTHORIZATION_URL).origin : process.env.OAUTH_ISSUER ? new URL(process.env.OAUTH_ISSUER).origin : ''),
      "base-uri 'self'",
    ].join('; '),
  );
}

/**
 * Pages are rendered to one string: no page defers data or suspends (loaders finish before the
 * render), so streaming would only cut the same HTML into many small chunks, each carried through
 * a Node stream, a web stream and back (about 1 ms of CPU a page here). A render error reaches
 * Remix, which renders the error boundary instead.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const given = (loadContext as { cspNonce?: unknown }).cspNonce;
  const nonce = typeof given === 'string' && given ? given : randomBytes(16).toString('base64');
  securityHeaders(responseHeaders, nonce);
  const html = renderToString(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
  );
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  const body = Buffer.from(`<!DOCTYPE html>${html}`);
  const response = new Response(body, { headers: responseHeaders, status: responseStatusCode });
  renderedBodies.set(response, body);
  return response;
}

/** The HTML of each page answer, as rendered and encoded once (see renderedBody). */
const renderedBodies = new WeakMap<Response, Buffer>();

/**
 * The bytes of a page answer this module rendered: the server sends them as they are
 * (app/cli/page-cache.js) instead of reading them back out of the Response's stream. The Response
 * is made from the same bytes (it keeps a copy for anyone else who reads it), not from the string,
 * which the Response would measure and then encode again when read: for a 41 KB browse page, the
 * Response and the read-back cost 0.17-0.48 ms, the bytes made once and the Response 0.09-0.19 ms.
 */
export function renderedBody(response: Response): Buffer | undefined {
  return renderedBodies.get(response);
}

/**
 * The database's change stamp (null when it cannot tell, on a remote libSQL server): the server's
 * page cache keeps a visitor's page until it changes (app/cli/page-cache.js).
 */
export function changeStamp(): Promise<string | null> {
  return getDatabase().changeStamp();
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}
