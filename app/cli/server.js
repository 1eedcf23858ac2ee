/**
 * The production (and demo) server: Express in front of the Remix request handler.
 * - refuses cross-site writes (strict Origin / Sec-Fetch-Site check) for every POST, PUT, PATCH
 *   and DELETE, pages and /api alike, so cookie-authenticated calls cannot be forged;
 * - compresses responses, serves built assets with immutable caching;
 * - passes the client IP (behind Fly's proxy too) to loaders and actions for rate limiting.
 * Database migrations run when the server build is loaded (app/entry.server.tsx).
 */
// the settings file (.env) before any module reads the environment
import './load-env.js';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import expressAdapter from '@remix-run/express/dist/server.js';
import { broadcastDevReady, createRequestHandler, installGlobals } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import morgan from 'morgan';
import { bodyLimits } from './body-limits.js';
import { cachedRemixHandler, createPageCache } from './page-cache.js';
import { BROTLI_PAGE_PARAMS } from './page-compression.js';
import { configurationProblem, httpsRedirectTarget } from './startup-checks.js';
import { installDataRoutesCache, installRouteMatchCache, installServerRoutesCache, installStaticHandlerMatchCache } from './route-match-cache.js';
import { installLoaderRequestPassThrough } from './loader-request.js';
import { installServerLink } from './server-link.js';
import { knownStaticFiles, precompressedAssets } from './static-precompressed.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILD_PATH = path.join(root, 'build/index.js');
const problem = configurationProblem(process.env, { buildPath: BUILD_PATH });
if (problem) {
  console.error(`PinDex will not start: ${problem}`);
  process.exit(1);
}

installGlobals({ nativeFetch: true });
// route matching remembered per pathname instead of redone 3-4 times a page (the static handler's
// own too), and the route objects React renders from built once per build (route-match-cache.js)
installRouteMatchCache();
installStaticHandlerMatchCache();
installServerRoutesCache();
installDataRoutesCache();
// a loader gets the request itself when Remix's copy would be the same (loader-request.js)
installLoaderRequestPassThrough();
// links rendered in one step on the server, the same markup (server-link.js)
installServerLink();

const mode = process.env.NODE_ENV === 'development' ? 'development' : 'production';
const build = await import(BUILD_PATH);

const app = express();
app.disable('x-powered-by');
app.set('trust proxy', process.env.TRUST_PROXY === '0' ? false : 1);
// brotli as for pages (page-compression.js: quality 3, a 256 KB window); pages themselves are
// compressed in one call when they are sent (page-cache.js), this compresses the other answers
app.use(compression({ brotli: { params: BROTLI_PAGE_PARAMS } }));
// Remix flushes after every chunk it streams; with compression on, each flush ends a deflate block
// and nearly doubles the gzip size of a page. Pages here do not stream deferred data, so let zlib
// fill its blocks (a 24-card browse page: 11.5 KB gzip with flushes, about 6 KB without).
app.use((_req, res, next) => {
  res.flush = () => undefined;
  next();
});

// HTTPS redirect behind a proxy that says the request came over plain HTTP (Fly sets this).
app.use((req, res, next) => {
  if (req.get('X-Forwarded-Proto') === 'http' && process.env.FORCE_HTTPS !== '0' && mode === 'production') {
    return res.redirect(301, httpsRedirectTarget(req.originalUrl, req.get('host')));
  }
  next();
});

// built assets: their brotli/gzip copy made at build time when the browser takes it (no gzip per
// request); other public files: only those present at start are looked up (static-precompressed.js)
const development = mode === 'development';
if (!development) app.use('/build', precompressedAssets(path.join(root, 'public/build')));
app.use('/build', express.static(path.join(root, 'public/build'), { immutable: true, maxAge: '1y' }));
app.use(knownStaticFiles(path.join(root, 'public'), { maxAge: '1h' }, { development }));
if (process.env.LOG_REQUESTS !== '0') app.use(morgan('tiny'));
// the load benchmark's figures (tests/bench/load.ts); off unless asked for
if (process.env.PINDEX_METRICS === '1') app.use((await import('./load-metrics.js')).loadMetrics());

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
app.use((req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  const site = req.get('Sec-Fetch-Site');
  const origin = req.get('Origin');
  let crossSite = site === 'cross-site' || site === 'same-site';
  if (!crossSite && origin) {
    try {
      crossSite = origin === 'null' || new URL(origin).host !== req.get('host');
    } catch {
      crossSite = true;
    }
  }
  if (crossSite) {
    res.status(403).type('application/json').send(JSON.stringify({ error: 'Cross-site request refused' }));
    return;
  }
  next();
});

// bodies over their route's limit are refused before they are read (app/cli/body-limits.js)
app.use(bodyLimits());

// a Content-Security-Policy nonce per request for Remix's inline scripts (app/entry.server.tsx)
app.use((_req, res, next) => {
  res.locals.cspNonce = crypto.randomBytes(16).toString('base64');
  next();
});

// a visitor's home, browse and pin pages are kept until the database is written to, for at most
// 10 s (app/cli/page-cache.js); PAGE_CACHE=0 turns it off
const pageCache =
  mode === 'production' && process.env.PAGE_CACHE !== '0' && typeof build.entry.module.changeStamp === 'function'
    ? createPageCache({ stamp: build.entry.module.changeStamp })
    : null;
app.all(
  '*',
  cachedRemixHandler({
    cache: pageCache,
    handle: createRequestHandler(build, mode),
    toRequest: expressAdapter.createRemixRequest,
    send: expressAdapter.sendRemixResponse,
    renderedBody: build.entry.module.renderedBody,
    loadContext: (req, res) => ({ clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown', cspNonce: res.locals.cspNonce }),
  }),
);

// Errors Express meets before Remix (a malformed URL encoding, an unreadable body): a short answer
// with the right status, never a stack trace.
// eslint-disable-next-line no-unused-vars
app.use((error, req, res, _next) => {
  const status = Number(error?.status || error?.statusCode) || 500;
  if (status >= 500) console.error(error);
  const message = status >= 500 ? 'Something went wrong' : 'Bad request';
  if (res.headersSent) return;
  if (req.path.startsWith('/api/')) res.status(status).type('application/json').send(JSON.stringify({ error: message }));
  else res.status(status).type('text/plain').send(message);
});

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || '0.0.0.0';
const server = app.listen(port, host, () => {
  console.log(`PinDex listening on http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`);
  if (mode === 'development') broadcastDevReady(build);
});

// Stopping (Fly sends SIGTERM and allows 10 s, fly.toml): no new connections, then the requests
// in flight are finished, for at most 8 s.
const SHUTDOWN_GRACE_MS = 8_000;
function shutdown(signal) {
  console.log(`${signal}: finishing the requests in flight`);
  const finished = new Promise((resolve) => server.close(() => resolve()));
  server.closeIdleConnections?.();
  const grace = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
  Promise.race([finished, grace]).finally(() => process.exit(0));
}
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));
