/**
 * One browser chunk for the small controls (and the hydration hook) most pages with forms use
 * (docs/speed.md, "Front end"): esbuild puts a module in a chunk per set of pages reaching it, so
 * these seven made up to seven files of a few hundred bytes on a page. Each of them imports this
 * module and this module imports them all: a page reaching one reaches all, and they share one
 * file. Each is listed in package.json's `sideEffects`, or esbuild would drop these imports, which
 * use no export.
 */
import './button';
import './confirm-step';
import './dialog';
import './empty-state';
import './hidden-fields';
import './tabs';
import './use-hydrated';
