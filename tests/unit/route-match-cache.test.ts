import { describe, expect, it } from 'vitest';
import type { AgnosticDataRouteObject, AgnosticRouteObject } from '@remix-run/router';
import { installDataRoutesCache, installRouteMatchCache, installServerRoutesCache, installStaticHandlerMatchCache } from '../../app/cli/route-match-cache.js';

type Route = AgnosticRouteObject;

/** A route tree shaped like the app's (root layout, index, params, a layout with children, a splat), new each call as per request. */
function tree(): Route[] {
  const routes: Route[] = [
    {
      id: 'root',
      path: '',
      children: [
        { id: 'routes/_index', index: true },
        { id: 'routes/browse', path: 'browse' },
        { id: 'routes/pins.$id', path: 'pins/:id' },
        { id: 'routes/api.pins', path: 'api/pins' },
        { id: 'routes/api.pins.$id', path: 'api/pins/:id' },
        { id: 'routes/collection[.]csv', path: 'collection.csv' },
        { id: 'routes/teams.$id.roster', path: 'teams/:id/roster', caseSensitive: true },
        {
          id: 'routes/admin',
          path: 'admin',
          children: [
            { id: 'routes/admin._index', index: true },
            { id: 'routes/admin.users', path: 'users' },
            { id: 'routes/admin.pins_.organizations', path: 'pins/organizations' },
          ],
        },
        { id: 'routes/$', path: '*' },
      ],
    },
  ];
  return routes;
}

const PATHS = ['/', '/browse', '/pins/abc', '/pins/d%20e', '/api/pins', '/api/pins/x', '/collection.csv', '/Teams/1/roster', '/teams/1/roster', '/admin', '/admin/users', '/admin/pins/organizations', '/nope/deeper', '/browse?q=a#top'];

describe('the remembered route matching', () => {
  it('answers what React Router answers, with the calling tree own route objects', async () => {
    const original = await import('@remix-run/router');
    const router = { matchRoutes: original.matchRoutes } as { matchRoutes: typeof original.matchRoutes };
    installRouteMatchCache(router);
    for (let round = 0; round < 3; round++) {
      for (const path of PATHS) {
        for (const basename of [undefined, '/app']) {
          const location = basename ? `/app${path === '/' ? '' : path}` : path;
          const routes = tree();
          const expected = original.matchRoutes(tree(), location, basename);
          const got = router.matchRoutes(routes, round === 2 ? { pathname: location.replace(/[?#].*$/, '') } : location, basename);
          expect(JSON.parse(JSON.stringify(got)), `${location} (round ${round})`).toEqual(JSON.parse(JSON.stringify(expected)));
          const flat: Route[] = [];
          const walk = (list: Route[]) => list.forEach((r) => (flat.push(r), 'children' in r && r.children && walk(r.children)));
          walk(routes);
          for (const match of got ?? []) expect(flat).toContain(match.route);
        }
      }
    }
  });

  it('leaves a tree without route ids to React Router', async () => {
    const original = await import('@remix-run/router');
    const router = { matchRoutes: original.matchRoutes } as { matchRoutes: typeof original.matchRoutes };
    installRouteMatchCache(router);
    const routes = [{ path: 'a/:x' }, { path: 'b' }];
    expect(router.matchRoutes(routes, '/a/1')?.[0].params).toEqual({ x: '1' });
    expect(router.matchRoutes(routes, '/b')?.[0].route).toBe(routes[1]);
  });
});

describe('the route objects React renders from', () => {
  it('are built once per build and again when a route module changes', async () => {
    const remix = (await import('@remix-run/react/dist/routes.js')) as unknown as { createServerRoutes: (...args: unknown[]) => unknown };
    const wrapped = { createServerRoutes: remix.createServerRoutes };
    installServerRoutesCache(wrapped);
    const manifest = {
      root: { id: 'root', path: '', hasLoader: true, module: '/root.js' },
      'routes/a': { id: 'routes/a', parentId: 'root', path: 'a', hasLoader: false, module: '/a.js' },
    };
    const modules = { root: { default: () => null }, 'routes/a': { default: () => null } };
    const future = {};
    const first = wrapped.createServerRoutes(manifest, { ...modules }, future, false);
    expect(JSON.stringify(first)).toBe(JSON.stringify(remix.createServerRoutes(manifest, modules, future, false)));
    // a new modules object per page, the same modules: the same tree
    expect(wrapped.createServerRoutes(manifest, { ...modules }, future, false)).toBe(first);
    const changed = wrapped.createServerRoutes(manifest, { ...modules, 'routes/a': { default: () => 'new' } }, future, false);
    expect(changed).not.toBe(first);
  });
});

/** The tree above with a loader on every route that says which route answered and with what params. */
function withLoaders(list: Route[]): Route[] {
  return list.map((route) => ({
    ...route,
    loader: ({ params }: { params: Record<string, string | undefined> }) => ({ route: route.id, params }),
    ...('children' in route && route.children ? { children: withLoaders(route.children) } : {}),
  })) as Route[];
}

describe("the static handler's matching", () => {
  it('answers every page and call as the whole tree does', async () => {
    const original = await import('@remix-run/router');
    const router = { matchRoutes: original.matchRoutes, createStaticHandler: original.createStaticHandler };
    installRouteMatchCache(router);
    installStaticHandlerMatchCache(router);
    const plain = original.createStaticHandler(withLoaders(tree()));
    const wrapped = router.createStaticHandler(withLoaders(tree()));
    const summary = (context: Awaited<ReturnType<typeof plain.query>>) =>
      context instanceof Response
        ? { response: context.status }
        : { status: context.statusCode, matches: context.matches.map((m) => [m.route.id, m.params]), data: context.loaderData, errors: context.errors && Object.keys(context.errors) };
    for (let round = 0; round < 2; round++) {
      for (const path of [...PATHS, '/admin/nope', '/pins/1/2']) {
        const url = `http://site${path}`;
        expect(summary(await wrapped.query(new Request(url))), path).toEqual(summary(await plain.query(new Request(url))));
        const route = async (handler: typeof plain, routeId?: string) => {
          try {
            return { data: await handler.queryRoute(new Request(url), routeId ? { routeId } : undefined) };
          } catch (error) {
            return { thrown: error instanceof Response ? error.status : (error as { status?: number }).status };
          }
        };
        expect(await route(wrapped), path).toEqual(await route(plain));
        expect(await route(wrapped, 'root'), path).toEqual(await route(plain, 'root'));
        expect(await route(wrapped, 'routes/admin'), path).toEqual(await route(plain, 'routes/admin'));
      }
    }
    // a POST to a page runs its action's route alone (here: no action, a 405 on that route)
    const post = (handler: typeof plain) => handler.query(new Request('http://site/browse', { method: 'POST', body: 'a=1' }));
    expect(summary(await post(wrapped))).toEqual(summary(await post(plain)));
  });
});

describe('the data routes React Router makes for a page', () => {
  it('are kept per tree, and fill the caller manifest each time', async () => {
    const original = await import('@remix-run/router');
    const router = { UNSAFE_convertRoutesToDataRoutes: original.UNSAFE_convertRoutesToDataRoutes };
    installDataRoutesCache(router);
    const routes = tree();
    const map = () => ({ hasErrorBoundary: false });
    const expectedManifest: Record<string, AgnosticDataRouteObject> = {};
    const expected = original.UNSAFE_convertRoutesToDataRoutes(tree(), map, undefined, expectedManifest);
    const first: Record<string, AgnosticDataRouteObject> = {};
    const once = router.UNSAFE_convertRoutesToDataRoutes(routes, map, undefined, first);
    const second: Record<string, AgnosticDataRouteObject> = {};
    const again = router.UNSAFE_convertRoutesToDataRoutes(routes, map, undefined, second);
    expect(again).toBe(once);
    expect(JSON.stringify(once)).toBe(JSON.stringify(expected));
    expect(Object.keys(second).sort()).toEqual(Object.keys(expectedManifest).sort());
    expect(second['routes/browse']).toBe(first['routes/browse']);
    // another tree (another build) is converted afresh
    expect(router.UNSAFE_convertRoutesToDataRoutes(tree(), map, undefined, {})).not.toBe(once);
  });
});
