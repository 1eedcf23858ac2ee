/**
 * Remix 2 (without single fetch) hands every loader a copy of the request with `?index` and
 * `?_data` taken out of its URL, made in two steps, each a new `Request` (URL parsing, headers,
 * an abort signal that follows the original's): four copies on every page (the root's loader and
 * the page's). When the URL has neither parameter, the copies are the request itself in all but
 * identity; the loader is then given the request as it is. Any other request, and any action, goes through Remix as before.
 * What the loader returns is handled as Remix does (`callRouteLoader` in server-runtime's data.js).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Whether Remix's copy of `request` for a loader would be the same request (no ?index, no ?_data). */
export function loaderSeesRequestAsIs(request) {
  const q = request.url.indexOf('?');
  if (q < 0) return true;
  const end = request.url.indexOf('#', q);
  const params = new URLSearchParams(request.url.slice(q + 1, end < 0 ? undefined : end));
  return !params.has('index') && !params.has('_data');
}

/** Wraps server-runtime's `callRouteLoader` (its route objects look it up at each call); idempotent. */
export function installLoaderRequestPassThrough(
  data = require('@remix-run/server-runtime/dist/data.js'),
  responses = require('@remix-run/server-runtime/dist/responses.js'),
) {
  const original = data.callRouteLoader;
  if (typeof original !== 'function' || original.passThrough) return;
  async function callRouteLoader(args) {
    const { loadContext, loader, params, request, routeId, singleFetch } = args;
    if (singleFetch || !loaderSeesRequestAsIs(request)) return original(args);
    const result = await loader({ request, context: loadContext, params });
    if (result === undefined) {
      throw new Error(`You defined a loader for route "${routeId}" but didn't return ` + `anything from your \`loader\` function. Please return a value or \`null\`.`);
    }
    if (responses.isDeferredData(result)) {
      if (result.init && responses.isRedirectStatusCode(result.init.status || 200)) {
        return responses.redirect(new Headers(result.init.headers).get('Location'), result.init);
      }
      return result;
    }
    return responses.isResponse(result) ? result : responses.json(result);
  }
  callRouteLoader.passThrough = true;
  data.callRouteLoader = callRouteLoader;
}
