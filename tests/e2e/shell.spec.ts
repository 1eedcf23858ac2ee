import { expect, test } from './support';

test('home shows the product name and the navigation', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/PinDex AI/);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('an unknown path shows the not-found page with status 404', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByText('404 - Page not found')).toBeVisible();
});

test('seeded pin images are served with long-lived caching', async ({ page, request }) => {
  await page.goto('/browse');
  const src = await page.locator('img[src^="/images/"]').first().getAttribute('src');
  expect(src).toBeTruthy();
  const res = await request.get(src!);
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toContain('immutable');
  expect(res.headers()['etag']).toBeTruthy();
  expect((await res.body()).byteLength).toBeGreaterThan(500);
});

test('a malformed address gets a short 400, never a stack trace', async ({ request }) => {
  const page = await request.get('/browse/%E0%A4%A');
  expect(page.status()).toBe(400);
  const text = await page.text();
  expect(text).not.toContain('at ');
  expect(text.length).toBeLessThan(200);
  const api = await request.get('/api/pins/%E0%A4%A');
  expect(api.status()).toBe(400);
  expect(await api.json()).toEqual({ error: 'Bad request' });
});

test('a body over its route’s limit is refused with 413 before it is read', async ({ request }) => {
  const res = await request.post('/api/collections', { headers: { 'Content-Type': 'application/json' }, data: Buffer.alloc(2 * 1024 * 1024, 32) });
  expect(res.status()).toBe(413);
  expect(await res.json()).toEqual({ error: 'Request body too large (max 1 MB)' });
});

test('inline scripts run only with the response’s nonce: no CSP violation, hydration and the time-zone cookie work', async ({ page, signInAs }, info) => {
  test.skip(info.project.name !== 'js', 'scripts run only with JavaScript on');
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  await signInAs('player');
  const res = await page.goto('/collection');
  const csp = res?.headers()['content-security-policy'] ?? '';
  const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
  expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]{20,}'/);
  expect(scriptSrc).not.toContain('unsafe-inline');
  // another request, another nonce
  const again = await page.request.get('/collection');
  expect(again.headers()['content-security-policy']).not.toBe(csp);
  // the inline time-zone script ran, and React took over the page (a client-side navigation)
  await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === 'tz')).toBe(true);
  await page.getByRole('link', { name: 'Browse' }).first().click();
  await expect(page).toHaveURL(/\/browse/);
  expect(await page.evaluate(() => typeof (window as unknown as { __remixContext?: unknown }).__remixContext)).toBe('object');
  expect(violations).toEqual([]);
});
