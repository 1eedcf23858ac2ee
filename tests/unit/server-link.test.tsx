import { createRequire } from 'node:module';
import React, { useId } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { installServerLink } from '../../app/cli/server-link.js';

const require = createRequire(import.meta.url);
// the CommonJS modules the server's build imports (the server replaces Link on this very object)
const remixReact = require('@remix-run/react') as typeof import('@remix-run/react');
const { StaticRouter } = require('react-router-dom/server') as typeof import('react-router-dom/server');

type LinkType = typeof remixReact.Link;

/** Remix's module as the server wraps it, on a copy of the module object. */
function serverLink(): LinkType {
  const copy = { Link: remixReact.Link };
  installServerLink(copy);
  expect(copy.Link).not.toBe(remixReact.Link);
  return copy.Link;
}

/** A child that takes an id (its value depends on the element tree above it). */
function Labelled({ text }: { text: string }) {
  const id = useId();
  return <span id={id}>{text}</span>;
}

const LINKS: Record<string, unknown>[] = [
  { to: '/pins/abc' },
  { to: '/pins/abc', prefetch: 'intent', className: 'block' },
  { to: '/browse?q=a%20b&page=2#top', className: 'x', title: 't' },
  { to: '/browse?', 'aria-current': 'page' },
  { to: '/a/./b/../c/' },
  { to: '/' },
  { to: '/pins/x', target: '_blank', rel: 'noreferrer' },
  { to: '/pins/x', reloadDocument: true },
  { to: '/pins/x', discover: 'none' },
  { to: '/pins/x', prefetch: 'render' },
  { to: '/pins/x', 'data-discover': 'no', id: 'first' },
  { to: '/pins/x', href: '/other', onClick: () => undefined, onMouseEnter: () => undefined },
  { to: '/pins/x', replace: true, state: { a: 1 }, preventScrollReset: true, viewTransition: true },
  { to: '/pins/x', style: { color: 'red' } },
  // not the common case: the real component renders them
  { to: 'relative/path' },
  { to: '../up' },
  { to: '.' },
  { to: '' },
  { to: '?tab=rarest' },
  { to: '#comments' },
  { to: 'https://example.com/x' },
  { to: '//example.com/x' },
  { to: { pathname: '/pins/x', search: '?a=1' } },
  { to: '/pins/x', relative: 'path' },
];

function page(Link: LinkType, location: string, basename?: string) {
  return renderToString(
    <StaticRouter location={location} basename={basename}>
      <main>
        <Labelled text="before" />
        {LINKS.map((props, i) => (
          <div key={i}>
            <Link {...(props as unknown as React.ComponentProps<LinkType>)}>
              <Labelled text={`link ${i}`} />
              text
            </Link>
            <Labelled text="after" />
          </div>
        ))}
      </main>
    </StaticRouter>,
  );
}

describe("the server's Link", () => {
  it('renders the markup of Remix and React Router Link, ids included', () => {
    const Link = serverLink();
    for (const location of ['/browse', '/pins/abc/', '/a/b?x=1']) {
      const expected = page(remixReact.Link, location);
      expect(expected).toContain('data-discover="true" href="/pins/abc"');
      expect(page(Link, location)).toBe(expected);
    }
  });

  it('leaves a router with a basename to the real component', () => {
    const Link = serverLink();
    expect(page(Link, '/app/browse', '/app')).toBe(page(remixReact.Link, '/app/browse', '/app'));
  });

  it('is installed once', () => {
    const copy = { Link: remixReact.Link };
    installServerLink(copy);
    const first = copy.Link;
    installServerLink(copy);
    expect(copy.Link).toBe(first);
  });
});
