import { describe, expect, it } from 'vitest';
import type { AgnosticRouteObject } from '@remix-run/router';
import { installRouteMatchCache, installServerRoutesCache } from '../../app/cli/route-match-cache.js';

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
