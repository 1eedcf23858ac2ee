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
 * The same goes for the route objects React renders from: Remix builds them afresh for every page
 * from the build's manifest and modules (`createServerRoutes`, about 150 objects), although they
 * change only with the build. `installServerRoutesCache` keeps them per manifest while every route
 * module is the same; React Router copies them into its own objects and does not change them.
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
