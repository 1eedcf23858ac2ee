/**
 * What the server checks before it serves anything, kept apart from server.js so tests can call it.
 */
import fs from 'node:fs';

/** The example secret `.env.example` ships with: as published as the development one. */
export const EXAMPLE_SESSION_SECRET = 'change-me-to-a-long-random-string';

/**
 * The refusal to start, or null: production without SESSION_SECRET would sign cookies with the
 * published development secret, and with `.env.example`'s own (copied unchanged) with one as public.
 * Without the server build (`buildPath`, when given) there is nothing to serve.
 * @param {Record<string, string | undefined>} env
 * @param {{ buildPath?: string }} [opts]
 */
export function configurationProblem(env = process.env, opts = {}) {
  const production = env.NODE_ENV !== 'development' && env.NODE_ENV !== 'test';
  if (production && env.PINDEX_ALLOW_DEV_SECRET !== '1') {
    const secrets = (env.SESSION_SECRET ?? '').split(',').map((s) => s.trim());
    if (!secrets.some(Boolean)) {
      return 'SESSION_SECRET is not set. Set it to a long random string (openssl rand -hex 32) before starting PinDex in production; `npm run demo` sets its own.';
    }
    if (secrets.includes(EXAMPLE_SESSION_SECRET)) {
      return "SESSION_SECRET is still .env.example's example. Set it to a long random string of your own (openssl rand -hex 32).";
    }
  }
  if (opts.buildPath && !fs.existsSync(opts.buildPath)) return 'the server build (build/index.js) is missing. Run `npm run build` first.';
  return null;
}

/**
 * Where a plain-HTTP request behind the proxy is sent: APP_URL's origin when set (a forged Host
 * header must not choose the target), else the request's own host.
 */
/**
 * @param {string} originalUrl
 * @param {string | undefined} host
 * @param {string | undefined} appUrl
 */
export function httpsRedirectTarget(originalUrl, host, appUrl = process.env.APP_URL) {
  if (appUrl) {
    try {
      const base = new URL(appUrl);
      return `https://${base.host}${originalUrl}`;
    } catch {
      // an APP_URL that is not a URL falls back to the request's host
    }
  }
  return `https://${host}${originalUrl}`;
}
