import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, isNoJs, test } from './support';

/** A unique word per test run, so searches find only the pins this test made. */
const token = () => `qz${Math.random().toString(36).slice(2, 8)}`;

/** A noisy photo (like a real one, it does not compress to a few hundred bytes). */
async function png(r: number, g: number, b: number) {
  const size = 240;
  const raw = Buffer.alloc(size * size * 3);
  for (let i = 0; i < raw.length; i += 3) {
    const n = Math.floor(Math.random() * 80) - 40;
    raw[i] = Math.max(0, Math.min(255, r + n));
    raw[i + 1] = Math.max(0, Math.min(255, g + n));
    raw[i + 2] = Math.max(0, Math.min(255, b + n));
  }
  return sharp(raw, { raw: { width: size, height: size, channels: 3 } }).png().toBuffer();
}

/** Adds a pin through POST /api/pins (multipart, images as repeated `images` files) with the page's cookies. */
async function apiCreatePin(request: APIRequestContext, fields: Record<string, string>, images: Buffer[] = []) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  images.forEach((buffer, i) => form.append('images', new Blob([new Uint8Array(buffer)], { type: 'image/png' }), `pin-${i}.png`));
  const res = await request.post('/api/pins', { multipart: form });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; name: string; organizationId: string; images: string[] };
}

function dialogOrPanel(page: Page, name: string) {
  return page.getByRole('dialog', { name }).or(page.getByRole('alertdialog', { name }));
}

test('home: the three tabs are links with counts, up to 4 cards each, and the community feed', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('PinDex AI');
  await expect(page.getByRole('heading', { name: 'Recent Community Identifications' })).toBeVisible();
  await expect(page.getByText(/\d+% confidence/).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Explore Our Pin Database' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Latest Additions' })).toBeVisible();
  const tabs = page.getByRole('navigation', { name: 'Pin lists' });
  await expect(tabs.getByRole('link', { name: /^Newest [\d,]+ pins?$/ })).toBeVisible();

  const explore = page.locator('section', { has: page.getByRole('heading', { name: 'Explore Our Pin Database' }) });
  expect(await explore.locator('a[href^="/pins/"]').count()).toBeLessThanOrEqual(4);

  await tabs.getByRole('link', { name: /^Rarest/ }).click();
  await expect(page).toHaveURL(/\?tab=rarest/);
  await expect(page.getByRole('heading', { name: 'Ultra Rare Finds' })).toBeVisible();
  const rareCards = explore.locator('a[href^="/pins/"]');
  const n = await rareCards.count();
  expect(n).toBeGreaterThan(0);
  expect(n).toBeLessThanOrEqual(4);
  for (let i = 0; i < n; i++) await expect(rareCards.nth(i)).toContainText('Ultra Rare');

  await tabs.getByRole('link', { name: /^High Value/ }).click();
  await expect(page).toHaveURL(/\?tab=value/);
  await expect(page.getByRole('heading', { name: 'Most Valuable' })).toBeVisible();
  await expect(tabs.getByRole('link', { name: /^High Value [\d,]+ pins?$/ })).toHaveAttribute('aria-current', 'page');

  // every card opens the pin's page
  const first = explore.locator('a[href^="/pins/"]').first();
  const href = await first.getAttribute('href');
  await first.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
});

test('browse: search, rarity and organization filters live in the URL; Load More Pins pages', async ({ page, signInAs }, testInfo) => {
  // a long walk through many pages (and photos): beside the server and the other worker on two
  // busy cores it has taken longer than the default 45 s
  test.setTimeout(90_000);
  const noJs = isNoJs(testInfo.project.name);
  const word = token();
  await signInAs('vendor');
  const org = `Org ${word}`;
  await apiCreatePin(page.request, { name: `${word} Ultra Slugger`, organizationName: org, description: 'Test pin', totalQuantity: '20' });
  await apiCreatePin(page.request, { name: `${word} Common Catcher`, organizationName: org, description: 'Test pin', totalQuantity: '3000' });
  await apiCreatePin(page.request, { name: 'Decoy pin', organizationName: 'Decoy League', description: `mentions ${word} in the description`, totalQuantity: '100' });

  await page.goto('/browse');
  await expect(page.getByRole('heading', { level: 1, name: 'Browse Pin Collection' })).toBeVisible();
  await expect(page.getByText('Explore our extensive database of collectible pins with detailed rarity information.')).toBeVisible();
  const search = page.getByPlaceholder('Search pins by name, organization, or category...');
  await expect(search).toBeVisible();

  // paging: 24 cards, then 48 after Load More Pins in place with JS; without it, page 2 alone (24
  // other cards) with a link back to the previous page
  const cards = page.locator('main a[href^="/pins/"]');
  await expect(cards).toHaveCount(24);
  const firstIds = await cards.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  if (!noJs) {
    // wait for hydration (the organization picker becomes a combobox), then mark the document
    await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveAttribute('aria-autocomplete', 'list');
    await page.evaluate(() => ((window as unknown as { inPlace: boolean }).inPlace = true));
  }
  await page.getByRole('link', { name: 'Load More Pins' }).click();
  await expect(page).toHaveURL(/page=2/);
  if (noJs) {
    await expect(cards).toHaveCount(24);
    const secondIds = await cards.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(secondIds.filter((href) => firstIds.includes(href))).toEqual([]);
    await expect(page.getByText(/^Showing 25–48 of [\d,]+\+? pins$/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Previous pins' })).toHaveAttribute('href', /^\/browse(\?asOf=\d+)?$/);
  } else {
    await expect(cards).toHaveCount(48);
    // with JavaScript the page was appended in place: same document, no new page load
    expect(await page.evaluate(() => (window as unknown as { inPlace?: boolean }).inPlace)).toBe(true);
    const allIds = await cards.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(allIds.slice(0, 24)).toEqual(firstIds);
    expect(new Set(allIds).size).toBe(48);
  }

  // prefix search over name and description
  await search.fill(word.slice(0, 6));
  await search.press('Enter');
  await expect(page).toHaveURL(new RegExp(`q=${word.slice(0, 6)}`));
  await expect(cards).toHaveCount(3);
  await expect(cards.first()).toContainText(word); // name matches rank above the description match

  // rarity filter (auto-submits with JS; the Search button without)
  await page.getByLabel('Rarity').selectOption({ label: 'Ultra Rare' });
  if (noJs) await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/rarity=ultra_rare/);
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(`${word} Ultra Slugger`);

  // organization filter: a plain select without JS, a searchable combobox with it
  await page.getByLabel('Rarity').selectOption({ label: 'All Rarities' });
  if (noJs) {
    await page.getByLabel('Organization').selectOption({ label: org });
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  } else {
    // 'All Rarities' is no filter: left out of the URL
    await expect(page).not.toHaveURL(/rarity=/);
    const combo = page.getByRole('combobox', { name: 'Organization' });
    await combo.click();
    await combo.fill('no such organization at all');
    await expect(page.getByText('No organizations found')).toBeVisible();
    await combo.fill(word);
    await page.getByRole('option', { name: new RegExp(org) }).click();
  }
  await expect(page).toHaveURL(/organizationId=/);
  await expect(cards).toHaveCount(2);

  // odd input never errors; empty state with the hint when filters are active
  await page.goto(`/browse?q=${encodeURIComponent('"(*^ NEAR/2 ' + word + 'zz')}`);
  await expect(page.getByText('No pins found')).toBeVisible();
  await expect(page.getByText('Try adjusting your search or filters')).toBeVisible();
});

test('pin detail: fields and formats, all photos viewable', async ({ page, signInAs }) => {
  const word = token();
  await signInAs('vendor');
  const pin = await apiCreatePin(
    page.request,
    {
      name: `${word} Detail Pin`,
      organizationName: `Detail Org ${word}`,
      description: 'A very detailed pin',
      totalQuantity: '1234',
      availableQuantity: '617',
      year: '2021',
      event: 'Cooperstown Week 7',
      estimatedValue: '12.5',
      distributionDate: '2021-07-04',
    },
    [await png(200, 30, 30), await png(30, 30, 200)],
  );
  expect(pin.images).toHaveLength(2);
  await page.goto(`/pins/${pin.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${word} Detail Pin`);
  await expect(page.getByText(`Detail Org ${word}`)).toBeVisible();
  await expect(page.getByText('1,234 pieces')).toBeVisible();
  await expect(page.getByText('1/4')).toBeVisible();
  await expect(page.getByText('Identified 0 times')).toBeVisible();
  await expect(page.getByText('$12.50')).toBeVisible();
  await expect(page.getByText('617 of 1,234 available (50%)')).toBeVisible();
  await expect(page.getByText('In Stock', { exact: true })).toBeVisible();
  await expect(page.getByText('Jul 4, 2021')).toBeVisible();
  await expect(page.getByText('Cooperstown Week 7')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse More Pins' })).toHaveAttribute('href', '/browse');
  await expect(page.getByRole('link', { name: 'View in Marketplace' })).toHaveAttribute('href', '/marketplace');
  const img = page.getByRole('img', { name: `${word} Detail Pin` });
  await expect(img).toHaveAttribute('src', pin.images[0]);
  const res = await page.request.get(pin.images[0]);
  expect(res.status()).toBe(200);
  // every photo can be viewed: the thumbnails switch the main photo
  await page.getByRole('link', { name: 'Show photo 2 of 2' }).click();
  await expect(img).toHaveAttribute('src', pin.images[1]);
  await expect(page).toHaveURL(/image=1/);
});

test('pin detail: the creator edits (with validation) and deletes behind a confirmation', async ({ page, signInAs }) => {
  // a long walk through many pages (and photos): beside the server and the other worker on two
  // busy cores it has taken longer than the default 45 s
  test.setTimeout(90_000);
  const word = token();
  await signInAs('vendor');
  const pin = await apiCreatePin(page.request, { name: `${word} Editable`, organizationName: `Edit Org ${word}`, description: 'Before', totalQuantity: '500' });
  await page.goto(`/pins/${pin.id}`);

  await page.getByRole('button', { name: 'Edit Pin' }).or(page.getByRole('link', { name: 'Edit Pin' })).click();
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('');
  await page.getByLabel('Total Quantity', { exact: true }).fill('0');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Quantity must be at least 1')).toBeVisible();

  await name.fill(`${word} Edited`);
  await page.getByLabel('Total Quantity', { exact: true }).fill('40');
  await page.getByLabel('Year', { exact: true }).fill('1800');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText(/Year must be between 1900 and \d{4}/)).toBeVisible();
  await page.getByLabel('Year', { exact: true }).fill('2019');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${word} Edited`);
  // 40 pieces: ultra rare, 4/4
  await expect(page.getByText('40 pieces')).toBeVisible();
  await expect(page.getByText('4/4')).toBeVisible();
  await expect(page.locator('main').getByText('Ultra Rare', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Delete Pin' }).or(page.getByRole('link', { name: 'Delete Pin' })).click();
  const confirm = dialogOrPanel(page, 'Delete Pin');
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete Pin' }).click();
  await expect(page).toHaveURL(/\/browse$/);
  const gone = await page.goto(`/pins/${pin.id}`);
  expect(gone?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Pin Not Found' })).toBeVisible();
});

test('pin detail: others see no Edit/Delete and are refused by the API and the page', async ({ page, browser, baseURL, signInAs }) => {
  const word = token();
  await signInAs('vendor');
  const pin = await apiCreatePin(page.request, { name: `${word} Owned`, organizationName: `Own Org ${word}`, description: 'Mine' });

  const other = await browser.newContext();
  const playerPage = await other.newPage();
  await signInAs('player', other);
  await playerPage.goto(`/pins/${pin.id}`);
  await expect(playerPage.getByRole('heading', { level: 1 })).toHaveText(`${word} Owned`);
  await expect(playerPage.getByRole('button', { name: 'Edit Pin' }).or(playerPage.getByRole('link', { name: 'Edit Pin' }))).toHaveCount(0);
  await expect(playerPage.getByRole('button', { name: 'Delete Pin' }).or(playerPage.getByRole('link', { name: 'Delete Pin' }))).toHaveCount(0);
  expect((await playerPage.request.put(`/api/pins/${pin.id}`, { data: { name: 'Hijacked' } })).status()).toBe(403);
  expect((await playerPage.request.delete(`/api/pins/${pin.id}`)).status()).toBe(403);
  // the server-rendered confirm step is not offered either
  await playerPage.goto(`/pins/${pin.id}?confirm=delete`);
  await expect(playerPage.getByRole('alertdialog')).toHaveCount(0);
  await other.close();

  // signed out: 401
  const anon = await browser.newContext();
  expect((await anon.request.delete(`${baseURL}/api/pins/${pin.id}`)).status()).toBe(401);
  await anon.close();
  await page.goto(`/pins/${pin.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${word} Owned`);
});

test('a visitor is served the kept pin page until the pin changes', async ({ page, browser, baseURL, signInAs }) => {
  test.skip(isNoJs(test.info().project.name), 'no browser involved: run once');
  const word = token();
  await signInAs('vendor');
  const pin = await apiCreatePin(page.request, { name: `${word} Kept`, organizationName: `Kept Org ${word}`, description: 'Kept' });
  const visitor = await browser.newContext();
  const visit = async () => {
    const res = await visitor.request.get(`${baseURL}/pins/${pin.id}`);
    expect(res.status()).toBe(200);
    return { cache: res.headers()['x-page-cache'], html: await res.text() };
  };
  expect((await visit()).cache).toBe('miss');
  const kept = await visit();
  expect(kept.cache).toBe('hit');
  expect(kept.html).toContain(`${word} Kept`);
  // the owner renames the pin: the next visitor sees the new name at once
  expect((await page.request.put(`/api/pins/${pin.id}`, { data: { name: `${word} Renamed` } })).status()).toBe(200);
  const after = await visit();
  expect(after.cache).toBe('miss');
  expect(after.html).toContain(`${word} Renamed`);
  // a signed-in reader is never served a visitor's page
  const own = await page.request.get(`/pins/${pin.id}`);
  expect(own.headers()['x-page-cache']).toBeUndefined();
  await visitor.close();
});

test('pin detail: a collector adds the pin to their collection from the page', async ({ page, signInAs }) => {
  await signInAs('player');
  await page.goto('/browse');
  await page.locator('main a[href^="/pins/"]').nth(5).click();
  await expect(page).toHaveURL(/\/pins\//);
  const form = page.getByRole('form', { name: 'Add to Collection' });
  await form.getByRole('button', { name: 'Add to Collection' }).click();
  await expect(page.getByText('Added to Collection').first()).toBeVisible();
});

test('a missing pin shows Pin Not Found with Return Home (404)', async ({ page }) => {
  const res = await page.goto('/pins/no-such-pin');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Pin Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Return Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the API answers JSON with the right statuses', async ({ request }) => {
  const list = await request.get('/api/pins?search=%22%28*&rarity=all_rarities&limit=3');
  expect(list.status()).toBe(200);
  expect(Array.isArray(await list.json())).toBe(true);
  for (const path of ['/api/pins/newest?limit=4', '/api/pins/rarest?limit=4', '/api/pins/highest-value?limit=4']) {
    const res = await request.get(path);
    expect(res.status()).toBe(200);
    const body = (await res.json()) as unknown[];
    expect(body.length).toBeLessThanOrEqual(4);
  }
  const orgs = await request.get('/api/organizations');
  expect((await orgs.json())[0]).toHaveProperty('name');
  const recent = await request.get('/api/identifications/recent');
  expect((await recent.json())[0]).toMatchObject({ confidence: expect.any(Number), pin: { id: expect.any(String) } });
  expect((await request.get('/api/pins/nope')).status()).toBe(404);
  expect((await request.post('/api/pins', { multipart: { name: 'x' } })).status()).toBe(401);
  expect((await request.post('/api/organizations', { data: { name: 'x' } })).status()).toBe(401);
});
