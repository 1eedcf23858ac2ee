/**
 * A short-lived cache of the public pages as a visitor who is not signed in sees them: home,
 * browse and pin detail. Most of a page's CPU is its loaders, React's render and Remix's routing;
 * a visitor's page depends only on its URL, the visitor's time zone and the database, so the
 * rendered answer is kept until the database is written to (the same change stamp as
 * `cachedUntilWrite()` in app/db/index.server.ts) and for at most `ttlMs` (relative times, today's
 * challenges). It is skipped for anyone with a cookie other than the time zone's (signed in, a
 * toast waiting, signing in), for every method but GET, and when the database cannot tell whether
 * it was written to (a remote libSQL server: the stamp is null).
 *
 * Each answer keeps its own Content-Security-Policy nonce: the cached page's nonce is replaced by
 * the new request's in the HTML and in the header.
 */

import { endWhole, isWholeAnswer } from './page-compression.js';

/** Paths whose answer to a visitor depends only on the URL, the time zone and the database. */
const PUBLIC_PAGES = [/^\/$/, /^\/browse$/, /^\/pins\/[^/]+$/];

/** Cookies a visitor may carry that the cache can key on (their value goes into the key). */
const KEYED_COOKIES = new Set(['tz']);

/**
 * @param {{
 *   stamp: () => Promise<string | null>,
 *   ttlMs?: number,
 *   maxEntries?: number,
 *   maxBytes?: number,
 *   now?: () => number,
 * }} options
 */
export function createPageCache({ stamp, ttlMs = 10_000, maxEntries = 500, maxBytes = 32 * 1024 * 1024, now = Date.now }) {
  /** @type {Map<string, { stamp: string, at: number, status: number, headers: [string, string][], body: Buffer, nonce: string | null }>} */
  const entries = new Map();
  let bytes = 0;

  function drop(key) {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.body.length;
    entries.delete(key);
  }

  return {
    /** The cache key of a request, or null when its answer may not be shared. */
    keyOf(req) {
      if (req.method !== 'GET') return null;
      if (!PUBLIC_PAGES.some((re) => re.test(req.path))) return null;
      let keyed = '';
      for (const part of (req.get('cookie') ?? '').split(';')) {
        const eq = part.indexOf('=');
        const name = (eq < 0 ? part : part.slice(0, eq)).trim();
        if (!name) continue;
        if (!KEYED_COOKIES.has(name)) return null;
        keyed += `;${name}=${part.slice(eq + 1).trim()}`;
      }
      return `${req.originalUrl}${keyed}`;
    },

    /** The database's change stamp now (read before a page is rendered, so a write during the render voids it). */
    stamp,

    /** A kept answer still valid for this stamp, with the new nonce put in, or null. */
    get(key, currentStamp, nonce) {
      const entry = entries.get(key);
      if (!entry) return null;
      if (currentStamp === null || entry.stamp !== currentStamp || now() - entry.at > ttlMs) {
        drop(key);
        return null;
      }
      // most recently used last
      entries.delete(key);
      entries.set(key, entry);
      if (!entry.nonce || !nonce || entry.nonce === nonce) return { status: entry.status, headers: entry.headers, body: entry.body };
      const swap = (text) => text.split(entry.nonce).join(nonce);
      return {
        status: entry.status,
        headers: entry.headers.map(([name, value]) => [name, name === 'content-security-policy' ? swap(value) : value]),
        body: /^text\/html/.test(entry.headers.find(([name]) => name === 'content-type')?.[1] ?? '') ? Buffer.from(swap(entry.body.toString('utf8'))) : entry.body,
      };
    },

    /** Keeps a rendered answer: only a 200 that sets no cookie, for a stamp the database gave. */
    set(key, keptStamp, { status, headers, body, nonce }) {
      if (keptStamp === null || status !== 200 || headers.some(([name]) => name === 'set-cookie')) return false;
      if (body.length > maxBytes / 8) return false;
      drop(key);
      entries.set(key, { stamp: keptStamp, at: now(), status, headers, body, nonce });
      bytes += body.length;
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries && bytes <= maxBytes) break;
        drop(oldest);
      }
      return true;
    },

    get size() {
      return entries.size;
    },
  };
}

/** @type {(response: Response) => Buffer | undefined} */
const noRenderedBody = () => undefined;

/**
 * The Express handler for Remix with the page cache in front: `handle(request, loadContext)` is
 * Remix's handler (`createRequestHandler` of @remix-run/node), `toRequest` and `send` the Express
 * adapter's conversions. An HTML page (kept or not) or JSON is sent whole and compressed in one
 * call (page-compression.js); other answers (files, CSV, event streams) go through `send`.
 * `renderedBody(response)` gives the bytes of a page the server's entry rendered (undefined for any
 * other answer), which are then sent without being read back out of the Response.
 */
export function cachedRemixHandler({ cache, handle, toRequest, send, loadContext, renderedBody = noRenderedBody }) {
  return async (req, res, next) => {
    try {
      const key = cache?.keyOf(req) ?? null;
      const nonce = res.locals.cspNonce ?? null;
      const current = key ? await cache.stamp() : null;
      if (key && current !== null) {
        const hit = cache.get(key, current, nonce);
        if (hit) {
          res.status(hit.status);
          for (const [name, value] of hit.headers) res.append(name, value);
          res.set('X-Page-Cache', 'hit');
          endWhole(req, res, hit.body);
          return;
        }
      }
      const response = await handle(toRequest(req, res), await loadContext(req, res));
      const keep = key && current !== null && response.status === 200 && !response.headers.has('set-cookie') && response.body;
      if (keep || (response.body && isWholeAnswer(response.headers.get('content-type')))) {
        // a rendered page's bytes as the render made them, else the body read back from the Response
        const body = renderedBody(response) ?? Buffer.from(await response.arrayBuffer());
        const headers = [...response.headers.entries()];
        if (keep) cache.set(key, current, { status: response.status, headers, body, nonce });
        res.status(response.status);
        for (const [name, value] of headers) res.append(name, value);
        if (keep) res.set('X-Page-Cache', 'miss');
        endWhole(req, res, body);
        return;
      }
      await send(res, response);
    } catch (error) {
      next(error);
    }
  };
}
