/**
 * Route matching, remembered. Remix 2 matches a URL against the route tree several times per page
 * (the request handler, React Router's render, the inline route manifest of lazy route
 * discovery), and each `matchRoutes` call flattens and ranks the whole tree (about 150 routes
 * here) and compiles a regular expression per pattern it tries: 10-18% of a page's CPU in a
 * profile. React Router 7 keeps the ranked branches (remix-run/react-router#14967); Remix 2 has no
 * option for it, so the server wraps the router module's `matchRoutes` export, which those callers
 * look up at each call.
 *
 * What a call returns depends only on the tree's shape (ids, paths, index and case flags, nesting)
 * and the pathname, so the result is kept per shape and pathname and handed back with the calling
 * tree's own route objects (the per-request trees are new objects of the same shape). Trees without
 * route ids are matched as before. At most MAX_PATHS pathnames are kept per shape.
 *
 * The router's static handler (which runs the loaders of a page, or an /api call's) matches with
 * its own copy of `matchRoutes`, out of reach of that export. `installStaticHandlerMatchCache`
 * gives it, per matched branch, a handler of its own built from that branch alone (the root and
 * the routes down to the page, 2-3 routes instead of about 150), chosen by the remembered match:
 * the best branch of the whole tree is the best of any part of it that holds it, so the handler's
 * answer is the same. A URL that matches nothing goes to the whole tree's handler (the 404).
 *
 * The same goes for the route objects React renders from: Remix builds them afresh for every page
 * from the build's manifest and modules (`createServerRoutes`, about 150 objects), although they
 * change only with the build. `installServerRoutesCache` keeps them per manifest while every route
 * module is the same; React Router copies them into its own objects and does not change them, and
 * `installDataRoutesCache` keeps those copies too (React Router's `createStaticRouter` makes them
 * for every page from the same kept tree).
 */
import { createRequire } from 'node:module';

const MAX_PATHS = 2000;

/** @type {WeakMap<object[], { shape: string, byId: Map<string, object> } | null>} */
const trees = new WeakMap();
/** @type {Map<string, Map<string, { id: string, params: Record<string, string>, pathname: string, pathnameBase: string }[] | null>>} */
const resultsByShape = new Map();

function describe(routes) {
  let known = trees.get(routes);
  if (known !== undefined) return known;
  const byId = new Map();
  let shape = '';
  let complete = true;
  const walk = (list) => {
    shape += '[';
    for (const route of list) {
      if (typeof route.id !== 'string' || byId.has(route.id)) complete = false;
      byId.set(route.id, route);
      shape += `${route.id}\u0000${route.path ?? ''}\u0000${route.index ? 1 : 0}${route.caseSensitive ? 1 : 0}`;
      if (route.children?.length) walk(route.children);
      shape += ';';
    }
    shape += ']';
  };
  walk(routes);
  known = complete ? { shape, byId } : null;
  trees.set(routes, known);
  return known;
}

/** Wraps `matchRoutes` of the router module (the one Remix and React Router share); idempotent. */
export function installRouteMatchCache(router = createRequire(import.meta.url)('@remix-run/router')) {
  const original = router.matchRoutes;
  if (original.cached) return;
  function matchRoutes(routes, locationArg, basename = '/') {
    const tree = Array.isArray(routes) ? describe(routes) : null;
    const pathname = typeof locationArg === 'string' ? locationArg : locationArg?.pathname;
    if (!tree || typeof pathname !== 'string') return original(routes, locationArg, basename);
    // the part of a string location after ? or # does not take part in matching
    const key = `${basename}\n${pathname.replace(/[?#].*$/s, '')}`;
    let results = resultsByShape.get(tree.shape);
    if (!results) {
      // a development server's rebuilds make new shapes; a production one has one or two
      if (resultsByShape.size >= 8) resultsByShape.clear();
      resultsByShape.set(tree.shape, (results = new Map()));
    }
    let found = results.get(key);
    if (found === undefined) {
      const matches = original(routes, locationArg, basename);
      found = matches
        ? matches.map((m) => ({ id: m.route.id, params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase }))
        : null;
      if (results.size >= MAX_PATHS) results.clear();
      results.set(key, found);
      return matches;
    }
    return found && found.map((m) => ({ params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase, route: tree.byId.get(m.id) }));
  }
  matchRoutes.cached = true;
  router.matchRoutes = matchRoutes;
}

/** At most this many branches get a handler of their own (a production build has about 150). */
const MAX_BRANCHES = 500;

/**
 * Wraps the router module's `createStaticHandler` (Remix looks it up when it first handles a
 * request): `query` and `queryRoute` go to the handler of the request's matched branch. Install
 * after `installRouteMatchCache`, on the same module; idempotent.
 */
export function installStaticHandlerMatchCache(router = createRequire(import.meta.url)('@remix-run/router')) {
  const original = router.createStaticHandler;
  if (typeof original !== 'function' || original.cached) return;
  function createStaticHandler(routes, opts) {
    const whole = original(routes, opts);
    const basename = opts?.basename || '/';
    /** @type {Map<string, ReturnType<typeof original>>} */
    const byBranch = new Map();
    const handlerFor = (request) => {
      let pathname;
      try {
        pathname = new URL(request.url).pathname;
      } catch {
        return whole;
      }
      // the remembered match (installRouteMatchCache), on the whole tree's data routes
      const matches = router.matchRoutes(whole.dataRoutes, pathname, basename);
      if (!matches?.length) return whole;
      const ids = matches.map((m) => m.route.id);
      const key = ids.join('\n');
      let handler = byBranch.get(key);
      if (!handler) {
        const branch = onlyBranch(routes, ids);
        if (!branch) return whole;
        if (byBranch.size >= MAX_BRANCHES) byBranch.clear();
        byBranch.set(key, (handler = original(branch, opts)));
      }
      return handler;
    };
    return {
      dataRoutes: whole.dataRoutes,
      query: (request, options) => handlerFor(request).query(request, options),
      queryRoute: (request, options) => handlerFor(request).queryRoute(request, options),
    };
  }
  createStaticHandler.cached = true;
  router.createStaticHandler = createStaticHandler;
}

/** The routes of `list` on the path of `ids` (root first), each with only the next one as child; null if one is missing. */
function onlyBranch(list, ids, depth = 0) {
  const route = list?.find((r) => r.id === ids[depth]);
  if (!route) return null;
  if (depth === ids.length - 1) return [{ ...route, children: route.index ? undefined : [] }];
  const children = onlyBranch(route.children, ids, depth + 1);
  return children && [{ ...route, children }];
}

/**
 * Wraps the router module's `UNSAFE_convertRoutesToDataRoutes` (React Router's `createStaticRouter`
 * looks it up at each page): the data routes made from a route tree are kept per tree object and
 * `mapRouteProperties`, with the ids they fill in the caller's manifest. Only worth it for a tree
 * that is itself kept (installServerRoutesCache); idempotent.
 */
export function installDataRoutesCache(router = createRequire(import.meta.url)('@remix-run/router')) {
  const original = router.UNSAFE_convertRoutesToDataRoutes;
  if (typeof original !== 'function' || original.cached) return;
  /** @type {WeakMap<object[], { map: unknown, dataRoutes: unknown[], manifest: Record<string, unknown> }>} */
  const byTree = new WeakMap();
  function convertRoutesToDataRoutes(routes, mapRouteProperties, parentPath, manifest, ...rest) {
    if (parentPath !== undefined || rest.length > 0 || !Array.isArray(routes) || !manifest || Object.keys(manifest).length > 0) {
      return original(routes, mapRouteProperties, parentPath, manifest, ...rest);
    }
    const kept = byTree.get(routes);
    if (kept && kept.map === mapRouteProperties) {
      Object.assign(manifest, kept.manifest);
      return kept.dataRoutes;
    }
    const dataRoutes = original(routes, mapRouteProperties, parentPath, manifest);
    byTree.set(routes, { map: mapRouteProperties, dataRoutes, manifest: { ...manifest } });
    return dataRoutes;
  }
  convertRoutesToDataRoutes.cached = true;
  router.UNSAFE_convertRoutesToDataRoutes = convertRoutesToDataRoutes;
}

/** Wraps Remix's `createServerRoutes` (looked up on its module at each page); idempotent. */
export function installServerRoutesCache(routes = createRequire(import.meta.url)('@remix-run/react/dist/routes.js')) {
  const original = routes?.createServerRoutes;
  if (typeof original !== 'function' || original.cached) return;
  /** @type {WeakMap<object, { modules: Record<string, unknown>, future: unknown, isSpaMode: unknown, tree: unknown }>} */
  const byManifest = new WeakMap();
  function createServerRoutes(manifest, routeModules, future, isSpaMode, ...rest) {
    if (rest.length > 0 || !manifest || !routeModules) return original(manifest, routeModules, future, isSpaMode, ...rest);
    const kept = byManifest.get(manifest);
    if (kept && kept.future === future && kept.isSpaMode === isSpaMode && sameModules(kept.modules, routeModules, manifest)) return kept.tree;
    const tree = original(manifest, routeModules, future, isSpaMode);
    byManifest.set(manifest, { modules: { ...routeModules }, future, isSpaMode, tree });
    return tree;
  }
  createServerRoutes.cached = true;
  routes.createServerRoutes = createServerRoutes;
}

function sameModules(kept, current, manifest) {
  for (const id in manifest) if (kept[id] !== current[id]) return false;
  return true;
}
