import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { installLoaderRequestPassThrough, loaderSeesRequestAsIs } from '../../app/cli/loader-request.js';

const require = createRequire(import.meta.url);
type CallRouteLoader = (args: { loadContext: unknown; loader: (args: { request: Request }) => unknown; params: Record<string, string>; request: Request; routeId: string; singleFetch: boolean }) => Promise<unknown>;
const data = require('@remix-run/server-runtime/dist/data.js') as { callRouteLoader: CallRouteLoader };

/** Remix's loader call, wrapped on a copy of its module object as the server wraps the real one. */
function wrapped() {
  const copy = { callRouteLoader: data.callRouteLoader };
  installLoaderRequestPassThrough(copy);
  return copy.callRouteLoader;
}

async function run(call: CallRouteLoader, url: string, returns: { value: unknown } = { value: { ok: true } }) {
  const request = new Request(url, { headers: { Cookie: 'a=1' } });
  let seen: Request | null = null;
  const result = (await call({ loadContext: {}, loader: ({ request: r }) => ((seen = r), returns.value), params: {}, request, routeId: 'routes/x', singleFetch: false })) as Response;
  return { request, seen: seen as unknown as Request, result };
}

describe("a loader's request", () => {
  it('is the request itself when Remix would copy it unchanged, with the same answer', async () => {
    for (const url of ['http://site/browse', 'http://site/browse?q=a%20b&page=2', 'http://site/pins/1?image=2#top']) {
      const mine = await run(wrapped(), url);
      const remix = await run(data.callRouteLoader, url);
      expect(mine.seen).toBe(mine.request);
      expect(remix.seen).not.toBe(remix.request);
      expect(new URL(mine.seen.url).searchParams.toString()).toBe(new URL(remix.seen.url).searchParams.toString());
      expect(mine.seen.headers.get('cookie')).toBe('a=1');
      expect(await mine.result.json()).toEqual(await remix.result.json());
      expect(mine.result.headers.get('content-type')).toBe(remix.result.headers.get('content-type'));
    }
  });

  it('is Remix copy without ?index and ?_data when the URL has them', async () => {
    for (const url of ['http://site/?index', 'http://site/browse?_data=routes%2Fbrowse&q=a', 'http://site/?%5Fdata=root']) {
      const mine = await run(wrapped(), url);
      expect(mine.seen).not.toBe(mine.request);
      const params = new URL(mine.seen.url).searchParams;
      expect(params.has('_data') || params.has('index')).toBe(false);
    }
  });

  it('still refuses a loader that returns nothing, and passes a Response through', async () => {
    await expect(run(wrapped(), 'http://site/x', { value: undefined })).rejects.toThrow(/didn't return/);
    const response = new Response('hi', { status: 201 });
    expect((await run(wrapped(), 'http://site/x', { value: response })).result).toBe(response);
  });

  it('reads the URL as Remix does', () => {
    expect(loaderSeesRequestAsIs(new Request('http://site/a?b=1&indexed=2'))).toBe(true);
    expect(loaderSeesRequestAsIs(new Request('http://site/a?index='))).toBe(false);
    expect(loaderSeesRequestAsIs(new Request('http://site/a?x=1&_data=root'))).toBe(false);
  });
});
