/**
 * Remix's `<Link>`, rendered on the server in one step. A page's links are most of what React does
 * on the server besides the markup itself (browse: 36 links, about 10% of the page's CPU in a
 * profile): each Remix `<Link>` wraps React Router's, and between them they resolve the same `to`
 * three times (`useHref` twice and the click handler's `useResolvedPath`, each with a JSON copy of
 * the route matches), set up prefetching state and event handlers, and build a navigate function,
 * none of which reaches the HTML. In the browser the real component runs; the server only renders
 * the markup, so there it renders what the real component renders: `<a {...props}
 * data-discover href target>` in a fragment (the same element tree, so `useId`s below a link are
 * the same), with the href React Router computes.
 *
 * Only the common case is rendered this way: `to` a string path from the root (`/pins/1?x#y`),
 * no `relative`, the router's basename `/`. There the href depends on `to` alone (React Router's
 * `resolveTo` does not read the route matches or the location for such a path): it is resolved
 * with React Router's own functions and kept per path. Any other link goes to the real component.
 * 36 links in a static router (tests/unit/server-link.test.tsx renders them both ways): 0.17-0.19
 * ms against 0.63-0.90 ms for Remix's, on a busy machine.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** React Router's test for an absolute URL (`https:`, `//host`), which it renders as it is. */
const ABSOLUTE_URL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** What Remix's `<Link>` and React Router's take for themselves (not passed on to the `<a>`). */
const LINK_PROPS = new Set(['to', 'prefetch', 'discover', 'onClick', 'relative', 'reloadDocument', 'replace', 'state', 'target', 'preventScrollReset', 'viewTransition']);

/** At most this many paths' resolutions are kept (a page has a few dozen links). */
const MAX_KEPT = 5000;

/** Replaces the `Link` export of `@remix-run/react` with the server's (before the build imports it); idempotent. */
export function installServerLink(
  remixReact = require('@remix-run/react'),
  reactRouterDom = require('react-router-dom'),
  router = require('@remix-run/router'),
  React = require('react'),
) {
  const RemixLink = remixReact.Link;
  if (typeof RemixLink !== 'object' || RemixLink === null || RemixLink.serverRendered) return;
  const { UNSAFE_NavigationContext: NavigationContext } = reactRouterDom;
  const none = [];
  /** @type {Map<string, { pathname: string, search: string, hash: string }>} */
  const kept = new Map();
  // useHref's resolution of a path from the root, which depends on the path alone (React Router's
  // resolveTo reads neither the route matches nor the location for it)
  const resolved = (to) => {
    let path = kept.get(to);
    if (!path) {
      const { pathname, search, hash } = router.resolveTo(to, none, '/', false);
      if (kept.size >= MAX_KEPT) kept.clear();
      kept.set(to, (path = { pathname, search, hash }));
    }
    return path;
  };

  const Link = React.forwardRef(function Link(props, ref) {
    const { to } = props;
    const navigation = React.useContext(NavigationContext);
    if (typeof to !== 'string' || to[0] !== '/' || ABSOLUTE_URL.test(to) || props.relative !== undefined || navigation?.basename !== '/') {
      return React.createElement(RemixLink, { ...props, ref });
    }
    // the props that reach the <a>, in their order: all but Remix's and React Router's own (onClick
    // and the prefetch handlers Remix adds are event handlers, which the server does not render)
    const anchor = {};
    const keys = Object.keys(props);
    for (let i = 0; i < keys.length; i++) if (!LINK_PROPS.has(keys[i])) anchor[keys[i]] = props[keys[i]];
    anchor['data-discover'] = (props.discover ?? 'render') === 'render' && !props.reloadDocument ? 'true' : undefined;
    anchor.href = navigation.navigator.createHref(resolved(to));
    anchor.target = props.target;
    return React.createElement(React.Fragment, null, React.createElement('a', anchor), null);
  });
  Link.displayName = 'Link';
  Link.serverRendered = true;
  remixReact.Link = Link;
}
