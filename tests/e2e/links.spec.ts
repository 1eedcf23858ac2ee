import type { APIRequestContext } from '@playwright/test';
import { DEMO, expect, isNoJs, test, type Role } from './support';

/**
 * No link leads nowhere: for a visitor and each demo role, every page reachable by following links
 * from the home page (two of each kind: a route with another id is the same page) answers, and no
 * link gives a 404, a 5xx or a refusal. A visitor may meet the specification's sign-in prompt
 * (401 with "Sign In to Continue") for a page that needs an account; nobody meets a 403 by a link.
 */
const PER_KIND = 2;
const MAX_PAGES = 400;

/** The page's kind: ids (16-character random or numeric) and query values left out. */
const kind = (u: URL) =>
  u.pathname
    .split('/')
    .map((s) => (/^[A-Za-z0-9_-]{16}$/.test(s) || /^\d+$/.test(s) ? ':id' : s))
    .join('/') + (u.search ? `?${[...u.searchParams.keys()].sort().join('&')}` : '');

async function crawl(request: APIRequestContext, base: string, signedIn: boolean) {
  const origin = new URL(base).origin;
  const seen = new Set<string>();
  const kinds = new Map<string, number>();
  const queue: { url: string; from: string }[] = [{ url: '/', from: '(start)' }];
  const problems: string[] = [];
  let pages = 0;
  while (queue.length && pages < MAX_PAGES) {
    const { url, from } = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const u = new URL(url, base);
    const k = kind(u);
    if ((kinds.get(k) ?? 0) >= PER_KIND) continue;
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
    pages++;
    const res = await request.get(u.toString(), { maxRedirects: 0, failOnStatusCode: false });
    const status = res.status();
    if (status >= 300 && status < 400) {
      const to = new URL(res.headers()['location'] ?? '/', u);
      if (to.origin === origin) queue.push({ url: to.pathname + to.search, from: url });
      continue;
    }
    const type = res.headers()['content-type'] ?? '';
    const html = type.includes('text/html') ? await res.text() : '';
    const prompt = status === 401 && !signedIn && html.includes('Sign In to Continue');
    if (status >= 400 && !prompt) problems.push(`${status} ${url} (linked from ${from})`);
    for (const m of html.matchAll(/<a\b[^>]*\bhref="([^"]+)"/g)) {
      const href = m[1].replace(/&amp;/g, '&');
      if (/^(#|mailto:|tel:)/.test(href)) continue;
      const to = new URL(href, u);
      if (to.origin !== origin || /^\/(api\/logout|images\/|build\/)/.test(to.pathname)) continue;
      queue.push({ url: to.pathname + to.search, from: url });
    }
  }
  return { pages, kinds: kinds.size, problems };
}

test.describe('links', () => {
  for (const role of [undefined, ...(Object.keys(DEMO) as Role[])]) {
    test(`every link shown to ${role ? `the ${role}` : 'a visitor'} leads to a page`, async ({ browser, server, signInAs }) => {
      test.skip(isNoJs(test.info().project.name), 'no browser involved: run once');
      const context = await browser.newContext();
      try {
        if (role) await signInAs(role, context);
        const { pages, kinds, problems } = await crawl(context.request, server.url, !!role);
        expect(problems).toEqual([]);
        // the crawl reached the product, not a sign-in page alone
        expect(kinds).toBeGreaterThan(role ? 20 : 8);
        expect(pages).toBeLessThan(MAX_PAGES);
      } finally {
        await context.close();
      }
    });
  }
});
