/**
 * How the browser's JavaScript is cut into files (docs/speed.md, "Front end"). The classic Remix
 * compiler (esbuild, code splitting) puts a module in one chunk per set of pages that import it,
 * and a server module imported by a route becomes, in the browser, a tiny empty module of its own:
 * one more file for each set of routes that imports it (a page loaded up to 15 of them).
 * The root imports them here, so that every page reaches them and they join the root's chunk.
 * On the server this loads nothing more than the routes already load.
 *
 * The same for a few small client modules most pages use (a few hundred bytes each): a page that
 * does not use them loads them in the root's chunk, the others load one file fewer each. Each is
 * listed in package.json's `sideEffects`, or esbuild would drop an import that uses no export.
 */
import '@remix-run/node';
import '~/auth/session.server';
import '~/http/body.server';
import '~/http/form-reply.server';
import '~/http/guards.server';
import '~/http/oauth.server';
import '~/http/page.server';
import '~/http/toast.server';
import '~/services/achievements.server';
import '~/services/admin/audit-log.server';
import '~/services/admin/pins.server';
import '~/services/account.server';
import '~/services/cart.server';
import '~/services/community.server';
import '~/services/marketplace.server';
import '~/services/orders.server';
import '~/services/pins.server';
import '~/services/suggestions.server';
import '~/services/team-invites.server';
import '~/services/team-pin-orders.server';
import '~/services/teams.server';
import '~/services/trades.server';
import '~/services/users.server';
import '~/services/vendor-review.server';
import '~/utils/format';
import '~/components/rarity-badge';
import '~/components/time-zone-cookie';
