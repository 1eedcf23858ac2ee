/**
 * How the browser's JavaScript is cut into files (docs/speed.md, "Front end"). The classic Remix
 * compiler (esbuild, code splitting) puts a module in one chunk per set of pages that import it.
 * A few small client modules most pages use (a few hundred bytes each) are imported here, by the
 * root, so that every page reaches them and they join the root's chunk: a page that does not use
 * them loads them there, the others load one file fewer each. Each is listed in package.json's
 * `sideEffects`, or esbuild would drop an import that uses no export.
 *
 * The server modules a route imports are, in the browser, empty modules that `npm run build`
 * (app/cli/remix-build.js) marks as free of side effects, so esbuild drops them: they are not
 * listed here any more.
 */
import '~/utils/format';
import '~/components/rarity-badge';
import '~/components/time-zone-cookie';
