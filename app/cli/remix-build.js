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
 *   node app/cli/remix-build.js   (run by `npm run build`)
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// @remix-run/dev 2.17.5 (pinned): the compiler calls the plugin through this module's export
const emptyModules = require('@remix-run/dev/dist/compiler/plugins/emptyModules.js');
const original = emptyModules.emptyModulesPlugin;
if (typeof original !== 'function') throw new Error('@remix-run/dev has no emptyModulesPlugin here: check app/cli/remix-build.js against its version');

emptyModules.emptyModulesPlugin = (...args) => {
  const plugin = original(...args);
  return {
    name: plugin.name,
    setup(build) {
      const onResolve = (options, callback) =>
        build.onResolve(options, (resolveArgs) => {
          const result = callback(resolveArgs);
          return result ? { ...result, sideEffects: false } : result;
        });
      plugin.setup(new Proxy(build, { get: (target, key) => (key === 'onResolve' ? onResolve : typeof target[key] === 'function' ? target[key].bind(target) : target[key]) }));
    },
  };
};

const { cli } = require('@remix-run/dev');
cli.run(['build', ...process.argv.slice(2)]).then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
