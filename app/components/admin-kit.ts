/**
 * One browser chunk for what the admin pages share (docs/speed.md, "Front end"), as `ui/kit.ts`
 * does for the small controls: the admin pieces (header, badges, history), the data table and the
 * admin constants. The two components import this module and it imports all three: an admin page
 * reaching one reaches all, one file instead of two or three. Listed in package.json's
 * `sideEffects`, or esbuild would drop these imports, which use no export.
 */
import '~/utils/admin-constants';
import './admin';
import './ui/data-table';
