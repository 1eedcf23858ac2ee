/**
 * `remix build`, with the empty modules that stand in for server files in the browser marked as
 * free of side effects (docs/speed.md, "Front end"). The classic compiler replaces every
 * `*.server` module (and `@remix-run/node`) in the browser build with `module.exports = {}`;
 * esbuild cannot tell that such a module does nothing, so it kept one for every import a route or
 * the root made of a server file (25 in the root's chunk, one in each route's file): about 0.4 KB
 * gzip on every page. Marked `sideEffects: false`, an import whose bindings the browser does not use
 * (a loader or an action the compiler has taken out) is dropped. What the browser gets from such a
 * module is the same empty object either way.
 *
 * A route with nothing for the browser (every resource route: its loader and action are taken out)
 * gets the same CommonJS stand-in, `module.exports = {}`, whose wrapper needs esbuild's runtime
 * helpers: about 110 such files imported them, so esbuild kept the helpers in a chunk of their own,
 * one more file on every page. Here such a route is an empty ES module, `export {}`: the helpers go
 * with the framework's chunk, which every page loads anyway. Remix reads an empty default export
 * and a missing one alike (no component: a resource route).
 *
 * Single fetch is off (`future.v3_singleFetch: false` in remix.config.js), and every call the browser
 * code of @remix-run/react makes into its single-fetch module (and through it turbo-stream) sits
 * behind that flag; esbuild cannot know the flag, so it shipped both (7.5 KB minified) on every page.
 * In the browser build the module is a stand-in whose functions throw; turning single fetch on
 * makes this script build the real one.
 *
 *   node app/cli/remix-build.js   (run by `npm run build`)
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Replaces `exportName` of a compiler plugin module (@remix-run/dev 2.17.5, pinned: the compiler calls
 * its plugins through these modules' exports) by the same plugin seen through `wrap`, which gets
 * esbuild's build object and returns the one the plugin sets itself up on.
 */
function wrapPlugin(modulePath, exportName, wrap) {
  const pluginModule = require(modulePath);
  const original = pluginModule[exportName];
  if (typeof original !== 'function') throw new Error(`@remix-run/dev has no ${exportName} here: check app/cli/remix-build.js against its version`);
  pluginModule[exportName] = (...args) => {
    const plugin = original(...args);
    return { name: plugin.name, setup: (build) => plugin.setup(wrap(build, args[0])) };
  };
}

/** esbuild's build object with `method`'s callbacks passed through `change` (their result, or nothing). */
function changeCallbacks(build, method, change) {
  const wrapped = (options, callback) => build[method](options, async (args) => change(await callback(args)));
  return new Proxy(build, { get: (target, key) => (key === method ? wrapped : typeof target[key] === 'function' ? target[key].bind(target) : target[key]) });
}

wrapPlugin('@remix-run/dev/dist/compiler/plugins/emptyModules.js', 'emptyModulesPlugin', (build) =>
  changeCallbacks(build, 'onResolve', (result) => (result ? { ...result, sideEffects: false } : result)),
);

const EMPTY_COMMONJS = 'module.exports = {};';
const SINGLE_FETCH = /^\.\/single-fetch\.js$/;
const SINGLE_FETCH_OFF = `const off = () => { throw new Error('single fetch is off in this build (remix.config.js)'); };
export { off as StreamTransfer, off as decodeViaTurboStream, off as getSingleFetchDataStrategy, off as singleFetchUrl };`;

/** The browser build (this plugin is the browser compiler's only): single fetch's stand-in, when it is off. */
function withoutSingleFetch(build, ctx) {
  if (ctx?.config?.future?.v3_singleFetch !== false) return build;
  build.onResolve({ filter: SINGLE_FETCH }, (args) =>
    /[\\/]@remix-run[\\/]react[\\/]dist[\\/]esm$/.test(args.resolveDir) ? { path: 'single-fetch', namespace: 'single-fetch-off' } : undefined,
  );
  build.onLoad({ filter: /.*/, namespace: 'single-fetch-off' }, () => ({ contents: SINGLE_FETCH_OFF, loader: 'js' }));
  return build;
}

wrapPlugin('@remix-run/dev/dist/compiler/js/plugins/routes.js', 'browserRouteModulesPlugin', (build, ctx) =>
  changeCallbacks(withoutSingleFetch(build, ctx), 'onLoad', (result) => (result?.contents === EMPTY_COMMONJS ? { ...result, contents: 'export {};' } : result)),
);

const { cli } = require('@remix-run/dev');
cli.run(['build', ...process.argv.slice(2)]).then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
