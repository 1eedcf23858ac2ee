import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedRemixHandler, createPageCache } from '../../app/cli/page-cache.js';

/**
 * The page cache in front of a handler that renders from a value the test changes, as the database
 * would: a visitor gets the kept page until the stamp moves or the time runs out, with their own nonce.
 */
let server: http.Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function start(opts: { ttlMs?: number; now?: () => number; rendered?: boolean } = {}) {
  const world = { stamp: '1:0' as string | null, title: 'First', renders: 0, setCookie: false, status: 200 };
  const { rendered, ...cacheOptions } = opts;
  const cache = createPageCache({ stamp: async () => world.stamp, ...cacheOptions });
  // with `rendered`, the handler hands the HTML over as the server's entry does (renderedBody), and
  // its Response carries a body that must not be sent
  const bodies = new WeakMap<Response, Buffer>();
  let nonces = 0;
  const app = express();
  app.use((_req, res, next) => {
    res.locals.cspNonce = `nonce${++nonces}`;
    next();
  });
  app.all(
    '*',
    cachedRemixHandler({
      cache,
      handle: async (request: Request, context: { cspNonce: string }) => {
        world.renders += 1;
        const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': `script-src 'nonce-${context.cspNonce}'` });
        if (world.setCookie) headers.set('Set-Cookie', 'toast=1');
        const html = `<h1>${world.title} ${new URL(request.url).pathname}</h1><script nonce="${context.cspNonce}"></script>`;
        const response = new Response(rendered ? 'not this' : html, { status: world.status, headers });
        if (rendered) bodies.set(response, Buffer.from(html));
        return response;
      },
      renderedBody: (response: Response) => bodies.get(response),
      toRequest: (req: express.Request) => new Request(`http://local${req.originalUrl}`),
      send: async (res: express.Response, response: Response) => {
        res.status(response.status);
        response.headers.forEach((value, name) => res.append(name, value));
        res.end(Buffer.from(await response.arrayBuffer()));
      },
      loadContext: (_req: express.Request, res: express.Response) => ({ cspNonce: res.locals.cspNonce }),
    }),
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  const get = async (path: string, init?: RequestInit) => {
    const res = await fetch(base + path, init);
    return { body: await res.text(), cache: res.headers.get('x-page-cache'), csp: res.headers.get('content-security-policy') ?? '', status: res.status };
  };
  return { world, get, cache };
}

describe('the page cache for visitors', () => {
  it('answers a second visit from the kept page, with the new request own nonce', async () => {
    const { world, get } = await start();
    const first = await get('/browse?q=sharks');
    const second = await get('/browse?q=sharks');
    expect(first.cache).toBe('miss');
    expect(second.cache).toBe('hit');
    expect(world.renders).toBe(1);
    expect(second.body).toContain('First /browse');
    const headerNonce = (csp: string) => /'nonce-([a-z0-9]+)'/.exec(csp)?.[1];
    expect(headerNonce(second.csp)).toBe('nonce2');
    expect(second.body).toContain('nonce="nonce2"');
    expect(second.body).not.toContain('nonce1');
  });

  it("sends and keeps the HTML the render handed over, without reading the Response's body", async () => {
    const { world, get } = await start({ rendered: true });
    const first = await get('/pins/1');
    const second = await get('/pins/1');
    expect(first.body).toBe('<h1>First /pins/1</h1><script nonce="nonce1"></script>');
    expect([first.cache, second.cache]).toEqual(['miss', 'hit']);
    expect(second.body).toBe('<h1>First /pins/1</h1><script nonce="nonce2"></script>');
    expect(world.renders).toBe(1);
  });

  it('renders again once the database was written to', async () => {
    const { world, get } = await start();
    await get('/');
    world.title = 'After a write';
    expect((await get('/')).body).toContain('First');
    world.stamp = '2:0';
    const after = await get('/');
    expect(after.cache).toBe('miss');
    expect(after.body).toContain('After a write');
  });

  it('renders again after the time to live', async () => {
    let clock = 1_000;
    const { world, get } = await start({ ttlMs: 10_000, now: () => clock });
    await get('/pins/p1');
    world.title = 'Later';
    clock += 9_000;
    expect((await get('/pins/p1')).body).toContain('First');
    clock += 2_000;
    expect((await get('/pins/p1')).body).toContain('Later');
  });

  it('never shares a page with a signed-in user, another page, another time zone or when the stamp is unknown', async () => {
    const { world, get } = await start();
    await get('/browse');
    const signedIn = await get('/browse', { headers: { Cookie: 'tz=UTC; __pindex_session=abc' } });
    expect(signedIn.cache).toBeNull();
    expect((await get('/collection')).cache).toBeNull();
    expect((await get('/browse', { method: 'HEAD' })).cache).toBeNull();
    const inTokyo = await get('/browse', { headers: { Cookie: 'tz=Asia%2FTokyo' } });
    expect(inTokyo.cache).toBe('miss');
    expect((await get('/browse', { headers: { Cookie: 'tz=Asia%2FTokyo' } })).cache).toBe('hit');
    world.stamp = null;
    world.title = 'Remote';
    const remote = await get('/browse');
    expect(remote.cache).toBeNull();
    expect(remote.body).toContain('Remote');
  });

  it('keeps no answer that sets a cookie or is not a 200', async () => {
    const { world, get, cache } = await start();
    world.setCookie = true;
    await get('/');
    world.setCookie = false;
    world.status = 404;
    await get('/pins/gone');
    await get('/pins/gone');
    expect(cache.size).toBe(0);
    expect(world.renders).toBe(3);
  });
});
