import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, isNoJs, test, type SignedIn } from './support';

/*
 * One new collector per project (sign-ups are rate limited per network, so the file makes only one)
 * walks through the collection features in order; the tests run serially and share that account.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'a-long-enough-password';
const uid = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
const STATUSES = ['owned', 'wanted', 'trading'] as const;
type Status = (typeof STATUSES)[number];

interface PinLite {
  id: string;
  name: string;
  estimatedValue: number | null;
  createdAt: string;
}

let collector: { id: string; email: string } | undefined;
let playerId: string | undefined;
const usedPins = new Set<string>();

/** A brand-new collector (sign-up + onboarding through the real forms), so counts start at 0. */
async function newCollector(page: Page): Promise<{ id: string; email: string }> {
  const email = `collector-${uid()}@pindex.test`;
  await page.goto('/signup');
  await page.getByLabel('First name').fill('Casey');
  await page.getByLabel('Last name').fill('Collector');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).not.toHaveURL(/\/signup/);
  await page.getByLabel('Display name').fill(`Casey ${uid()}`);
  await page.getByRole('button', { name: 'Complete Setup' }).click();
  await expect(page.getByLabel('Display name')).toHaveCount(0);
  const me = await page.request.get('/api/auth/user');
  expect(me.ok()).toBe(true);
  const user = (await me.json()) as { id: string };
  return { id: user.id, email };
}

/** Signs the test's page in as the collector (the session fixture, no form). */
async function signInCollector(signInAs: (who: { email: string }) => Promise<SignedIn>) {
  expect(collector, 'the collector is created by an earlier test').toBeTruthy();
  await signInAs({ email: collector!.email });
  return collector!;
}

/** Seeded pins this file has not used yet (pins other tests create may be edited or deleted meanwhile). */
async function freshPins(page: Page, n: number): Promise<PinLite[]> {
  const res = await page.request.get('/api/pins/newest?limit=100');
  expect(res.ok()).toBe(true);
  const seen = new Set<string>();
  const pins = ((await res.json()) as PinLite[])
    .filter((p) => Date.parse(p.createdAt) < Date.now() - 6 * 3600_000)
    .filter((p) => !usedPins.has(p.id) && !seen.has(p.name) && seen.add(p.name));
  pins.sort(() => Math.random() - 0.5);
  expect(pins.length).toBeGreaterThanOrEqual(n);
  const picked = pins.slice(0, n);
  for (const p of picked) usedPins.add(p.id);
  return picked;
}

async function addViaApi(page: Page, body: Record<string, unknown>) {
  const res = await page.request.post('/api/collections', { data: body });
  expect(res.status()).toBe(201);
  return res.json();
}

async function listsOf(page: Page, userId: string): Promise<Record<Status, { pinId: string }[]>> {
  const lists = await Promise.all(STATUSES.map(async (s) => (await (await page.request.get(`/api/users/${userId}/collection/${s}`)).json()) as { pinId: string }[]));
  return { owned: lists[0], wanted: lists[1], trading: lists[2] };
}

async function expectCounts(page: Page, owned: number, wanted: number, trading: number) {
  await expect(page.getByTestId('count-owned')).toHaveText(String(owned));
  await expect(page.getByTestId('count-wanted')).toHaveText(String(wanted));
  await expect(page.getByTestId('count-trading')).toHaveText(String(trading));
  await expect(page.getByTestId('stat-pins-owned')).toHaveText(String(owned));
  await expect(page.getByTestId('stat-wanted')).toHaveText(String(wanted));
}

/** A toast (with JavaScript) or the inline notice (without) containing the text. */
async function expectNotice(page: Page, title: string, description: string, noJs: boolean) {
  if (noJs) {
    const flash = page.getByTestId('flash');
    await expect(flash).toContainText(title);
    await expect(flash).toContainText(description);
  } else {
    // toasts show one at a time (5 s each), so a later one may take a few seconds to appear
    const toast = page.getByTestId('toast').filter({ hasText: title });
    await expect(toast).toContainText(description, { timeout: 20_000 });
  }
}

const money = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

test.describe('my collection', () => {
  test('visitors get the sign-in prompt; /badges is not registered for them', async ({ page }) => {
    await page.goto('/collection');
    await expect(page.getByRole('heading', { name: 'Collection Access Required' })).toBeVisible();
    await expect(page.getByText('Please sign in to view your collection')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In to Continue' })).toHaveAttribute('href', /^\/api\/login/);
    const badges = await page.goto('/badges');
    expect(badges?.status()).toBe(404);
    await expect(page.getByText('404 - Page not found')).toBeVisible();
    const api = await page.request.get('/api/users/anyone/collection/owned');
    expect(api.status()).toBe(401);
    expect((await page.request.post('/api/collections', { data: { pinId: 'x', status: 'owned' } })).status()).toBe(401);
    // the pin page asks visitors to sign in, and brings them back afterwards
    const [pin] = await freshPins(page, 1);
    await page.goto(`/pins/${pin.id}`);
    await expect(page.getByTestId('add-to-collection').getByRole('link', { name: 'Sign in to collect' })).toHaveAttribute(
      'href',
      `/api/login?redirectTo=${encodeURIComponent(`/pins/${pin.id}`)}`,
    );
  });

  test('a new collector adds pins in each status from the pin page, earns badges, sees counts and stats', async ({ page }, info) => {
    test.setTimeout(90_000);
    const noJs = isNoJs(info.project.name);
    collector = await newCollector(page);
    const [a, b, c] = await freshPins(page, 3);

    await page.goto('/collection');
    await expect(page.getByRole('heading', { name: 'My Collection' })).toBeVisible();
    await expectCounts(page, 0, 0, 0);
    await expect(page.getByTestId('stat-points')).toHaveText('0');
    await expect(page.getByTestId('stat-day-streak')).toHaveText('0');
    await expect(page.getByRole('link', { name: 'Start Collecting' })).toHaveAttribute('href', '/');
    await expect(page.getByTestId('badge-showcase')).toContainText('No badges yet');

    // invalid quantity: the field message, nothing added
    await page.goto(`/pins/${a.id}`);
    const form = page.getByTestId('add-to-collection');
    await form.getByLabel('Quantity').fill('0');
    await form.getByRole('button', { name: 'Add to Collection' }).click();
    await expect(form.getByText('Quantity must be at least 1')).toBeVisible();
    expect((await listsOf(page, collector.id)).owned).toHaveLength(0);

    // owned, quantity 2, mint: the first pin earns 'First Pin'
    await form.getByLabel('Quantity').fill('2');
    await form.getByLabel('Status').selectOption('owned');
    await form.getByLabel('Condition').selectOption('mint');
    await form.getByLabel('Notes').fill('From the Cooperstown trip');
    await form.getByRole('button', { name: 'Add to Collection' }).click();
    await expect(page).toHaveURL(new RegExp(`/pins/${a.id}`));
    await expectNotice(page, 'Badge Unlocked!', 'You earned the "First Pin" badge!', noJs);

    await page.goto(`/pins/${b.id}`);
    await page.getByTestId('add-to-collection').getByLabel('Status').selectOption('wanted');
    await page.getByTestId('add-to-collection').getByRole('button', { name: 'Add to Collection' }).click();
    await expectNotice(page, 'Added to Collection', `${b.name} is in your wanted list`, noJs);

    await page.goto(`/pins/${c.id}`);
    await page.getByTestId('add-to-collection').getByLabel('Status').selectOption('trading');
    await page.getByTestId('add-to-collection').getByRole('button', { name: 'Add to Collection' }).click();
    await expectNotice(page, 'Badge Unlocked!', 'You earned the "Open for Trade" badge!', noJs);

    await page.goto('/collection');
    await expectCounts(page, 1, 1, 1);
    // First Pin 10 + Open for Trade 10, plus e.g. a rarity badge when a random pin was rare
    const earned = (await (await page.request.get(`/api/users/${collector.id}/achievements`)).json()) as { achievement: { points: number; name: string } }[];
    expect(earned.map((e) => e.achievement.name)).toEqual(expect.arrayContaining(['First Pin', 'Open for Trade']));
    // and today's challenges these adds completed (which ones a day has depends on the date)
    const today = (await (await page.request.get(`/api/users/${collector.id}/challenges`)).json()) as { challenges: { completed: boolean; reward: number }[] };
    const rewards = today.challenges.filter((c) => c.completed).reduce((sum, c) => sum + c.reward, 0);
    const points = earned.reduce((sum, e) => sum + e.achievement.points, 0) + rewards;
    expect(points).toBeGreaterThanOrEqual(20);
    await expect(page.getByTestId('stat-points')).toHaveText(String(points));
    await expect(page.getByTestId('stat-day-streak')).toHaveText('1');
    const owned = page.getByTestId('collection-entry');
    await expect(owned).toHaveCount(1);
    await expect(owned).toContainText(a.name);
    await expect(owned).toContainText('Qty 2');
    await expect(owned).toContainText('mint');
    const showcase = page.getByTestId('badge-showcase');
    await expect(showcase).toContainText('First Pin');
    await expect(showcase.getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/badges');
    await expect(page.getByTestId('collection-value')).toHaveText(money((a.estimatedValue ?? 0) * 2 + (c.estimatedValue ?? 0)));

    // tabs are links that work without JavaScript
    await page.getByRole('link', { name: /^Wanted/ }).click();
    await expect(page).toHaveURL(/tab=wanted/);
    await expect(page.getByTestId('collection-entry')).toContainText(b.name);
    await page.getByRole('link', { name: /^Trading/ }).click();
    await expect(page).toHaveURL(/tab=trading/);
    await expect(page.getByTestId('collection-entry')).toContainText(c.name);
    await expect(page.getByTestId('collection-entry')).toContainText('tradeable');
  });

  test('moves through every allowed transition, Keep included, refreshing lists and stats', async ({ page, signInAs }, info) => {
    test.setTimeout(90_000);
    const noJs = isNoJs(info.project.name);
    const me = await signInCollector(signInAs);
    const [pin] = await freshPins(page, 1);
    await addViaApi(page, { pinId: pin.id, status: 'owned' });
    const lists = await listsOf(page, me.id);
    // the counts without this pin; each step expects them plus the pin in its new status
    const rest: Record<Status, number> = { owned: lists.owned.length - 1, wanted: lists.wanted.length, trading: lists.trading.length };
    const expected = (s: Status): [number, number, number] => [rest.owned + +(s === 'owned'), rest.wanted + +(s === 'wanted'), rest.trading + +(s === 'trading')];

    const steps: { tab: Status; button: string; to: Status }[] = [
      { tab: 'owned', button: 'Move to Wanted', to: 'wanted' },
      { tab: 'wanted', button: 'Mark as Owned', to: 'owned' },
      { tab: 'owned', button: 'Move to Trading', to: 'trading' },
      { tab: 'trading', button: 'Keep', to: 'owned' },
      { tab: 'owned', button: 'Move to Wanted', to: 'wanted' },
      { tab: 'wanted', button: 'Move to Trading', to: 'trading' },
      { tab: 'trading', button: 'Move to Wanted', to: 'wanted' },
    ];
    for (const step of steps) {
      await page.goto(`/collection?tab=${step.tab}`);
      await expectCounts(page, ...expected(step.tab));
      const entry = page.getByTestId('collection-entry').filter({ hasText: pin.name });
      await entry.getByRole('button', { name: new RegExp(`^${step.button}:`) }).click();
      await expect(page).toHaveURL(new RegExp(`tab=${step.tab}`));
      await expect(page.getByTestId('collection-entry').filter({ hasText: pin.name })).toHaveCount(0);
      await expectCounts(page, ...expected(step.to));
      if (step.button === 'Keep') await expectNotice(page, 'Collection Updated', `You kept ${pin.name}.`, noJs);
      await page.getByRole('link', { name: new RegExp(`^${step.to[0].toUpperCase()}${step.to.slice(1)}`) }).click();
      await expect(page.getByTestId('collection-entry').filter({ hasText: pin.name })).toHaveCount(1);
    }
    // the stats call agrees with the page
    const stats = await (await page.request.get(`/api/users/${me.id}/stats`)).json();
    expect(stats).toMatchObject({ pinsOwned: rest.owned, pinsWanted: rest.wanted + 1 });
  });

  test('the pin page shows your copy and changes it to exactly what the form says', async ({ page, signInAs }, info) => {
    const noJs = isNoJs(info.project.name);
    const me = await signInCollector(signInAs);
    const [pin] = await freshPins(page, 1);
    await page.goto(`/pins/${pin.id}`);
    await expect(page.getByTestId('own-copy')).toHaveCount(0);
    await addViaApi(page, { pinId: pin.id, status: 'owned', quantity: 2, condition: 'good', notes: 'Swap meet' });
    await page.goto(`/pins/${pin.id}`);
    const copy = page.getByTestId('own-copy');
    await expect(copy.getByTestId('own-entry')).toHaveText('In your collection: Owned, quantity 2, condition Good.');
    await expect(copy.getByLabel('Quantity')).toHaveValue('2');
    await expect(copy.getByLabel('Condition')).toHaveValue('good');
    await expect(copy.getByLabel('Notes')).toHaveValue('Swap meet');
    await expect(page.getByTestId('add-to-collection')).toHaveCount(0);

    // bad input: the message, nothing changed
    await copy.getByLabel('Quantity').fill('0');
    await copy.getByRole('button', { name: 'Save My Copy' }).click();
    await expect(copy.getByText('Quantity must be at least 1')).toBeVisible();

    await copy.getByLabel('Status').selectOption('trading');
    await copy.getByLabel('Quantity').fill('1');
    await copy.getByLabel('Condition').selectOption('mint');
    await copy.getByLabel('Notes').fill('');
    await copy.getByRole('button', { name: 'Save My Copy' }).click();
    await expectNotice(page, 'Collection Updated', `${pin.name}: Trading, quantity 1, mint.`, noJs);
    await expect(page.getByTestId('own-copy').getByTestId('own-entry')).toHaveText('In your collection: Trading, quantity 1, condition Mint, tradeable.');
    const lists = await listsOf(page, me.id);
    expect(lists.owned.map((e) => e.pinId)).not.toContain(pin.id);
    const [entry] = ((await (await page.request.get(`/api/users/${me.id}/collection/trading`)).json()) as { pinId: string; quantity: number; notes: string | null }[]).filter(
      (e) => e.pinId === pin.id,
    );
    expect(entry).toMatchObject({ quantity: 1, notes: null });
  });

  test('badges page: earned with date and points, locked with x / target progress', async ({ page, signInAs }) => {
    const me = await signInCollector(signInAs);
    for (const p of await freshPins(page, 2)) await addViaApi(page, { pinId: p.id, status: 'owned' });
    const { pinsOwned } = (await (await page.request.get(`/api/users/${me.id}/stats`)).json()) as { pinsOwned: number };
    expect(pinsOwned).toBeLessThan(10);

    await page.goto('/badges');
    await expect(page.getByRole('heading', { name: 'Badges', exact: true })).toBeVisible();
    const earnedList = (await (await page.request.get(`/api/users/${me.id}/achievements`)).json()) as unknown[];
    const all = (await (await page.request.get('/api/achievements')).json()) as unknown[];
    await expect(page.getByTestId('badges-earned-count')).toHaveText(`${earnedList.length} / ${all.length} Earned`);
    const firstPinHeading = page.getByRole('heading', { name: 'First Pin', exact: true });
    const earned = page.getByTestId('earned-badge').filter({ has: firstPinHeading });
    await expect(earned).toContainText('10 points');
    await expect(earned).toContainText(/Unlocked \w{3} \d{1,2}, \d{4}/);
    const collectorBadge = page.getByTestId('locked-badge').filter({ hasText: 'Own 10 pins' });
    await expect(collectorBadge).toContainText(`${pinsOwned} / 10`);
    await expect(collectorBadge).toContainText(`${pinsOwned * 10}%`);
    await expect(collectorBadge.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(pinsOwned * 10));
    await expect(collectorBadge).toContainText('25 points');
    await expect(page.getByTestId('locked-badge').filter({ has: firstPinHeading })).toHaveCount(0);
  });

  test('the showcase lists the first 5 badges and links the rest', async ({ page, signInAs }) => {
    await signInAs('player'); // the seed gives the demo player more than 5 badges
    playerId = ((await (await page.request.get('/api/auth/user')).json()) as { id: string }).id;
    await page.goto('/collection');
    const showcase = page.getByTestId('badge-showcase');
    await expect(showcase.getByRole('listitem')).toHaveCount(5);
    await expect(showcase.getByRole('link', { name: /^\+\d+ more badges$/ })).toHaveAttribute('href', '/badges');
  });

  test("the API refuses another user's collection (403) and bad input (400)", async ({ page, signInAs }) => {
    expect(playerId).toBeTruthy();
    const me = await signInCollector(signInAs);
    for (const path of [`/api/users/${playerId}/collection/owned`, `/api/users/${playerId}/collection/wanted`, `/api/users/${playerId}/collection/trading`, `/api/users/${playerId}/stats`, `/api/users/${playerId}/achievements`]) {
      const res = await page.request.get(path);
      expect(res.status(), path).toBe(403);
      expect((await res.json()).error).toBeTruthy();
    }
    const [pin] = await freshPins(page, 1);
    const put = await page.request.put(`/api/users/${playerId}/collection/${pin.id}`, { data: { status: 'wanted' } });
    expect(put.status()).toBe(403);

    const bad = await page.request.post('/api/collections', { data: { pinId: pin.id, status: 'lost', quantity: 0 } });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).issues).toMatchObject({ quantity: ['Quantity must be at least 1'], status: ['Status must be owned, wanted or trading'] });
    const badJson = await page.request.post('/api/collections', { headers: { 'Content-Type': 'application/json' }, data: '{oops' });
    expect(badJson.status()).toBe(400);
    const missing = await page.request.put(`/api/users/${me.id}/collection/${pin.id}`, { data: { status: 'owned' } });
    expect(missing.status()).toBe(404);
    await addViaApi(page, { pinId: pin.id, status: 'wanted' });
    const badMove = await page.request.put(`/api/users/${me.id}/collection/${pin.id}`, { data: { status: 'sold' } });
    expect(badMove.status()).toBe(400);
    expect((await badMove.json()).issues.status).toEqual(['Status must be owned, wanted or trading']);
    const moved = await page.request.put(`/api/users/${me.id}/collection/${pin.id}`, { data: { status: 'trading' } });
    expect(moved.status()).toBe(200);
    expect((await listsOf(page, me.id)).trading.map((e) => e.pinId)).toContain(pin.id);
    const one = await page.request.get(`/api/users/${me.id}/collection/${pin.id}`);
    expect(await one.json()).toMatchObject({ pinId: pin.id, status: 'trading', tradeable: true, quantity: 1, condition: 'excellent', pin: { id: pin.id, name: pin.name } });
    expect((await page.request.get(`/api/users/${playerId}/collection/${pin.id}`)).status()).toBe(403);
    expect((await page.request.post(`/api/users/${me.id}/collection/owned`, { data: {} })).status()).toBe(405);
    expect((await page.request.get('/api/achievements')).ok()).toBe(true);
  });

  test('parallel adds and moves through the API leave consistent stats', async ({ page, signInAs }) => {
    const me = await signInCollector(signInAs);
    const pins = await freshPins(page, 8);
    const adds = await Promise.all(pins.map((p, i) => page.request.post('/api/collections', { data: { pinId: p.id, status: STATUSES[i % 3] } })));
    expect(adds.map((r) => r.status())).toEqual(pins.map(() => 201));
    const moves = await Promise.all(
      Array.from({ length: 24 }, (_, i) => page.request.put(`/api/users/${me.id}/collection/${pins[i % pins.length].id}`, { data: { status: STATUSES[(i * 5) % 3] } })),
    );
    expect(moves.map((r) => r.status())).toEqual(moves.map(() => 200)); // every status can reach every other
    const lists = await listsOf(page, me.id);
    for (const p of pins) expect(STATUSES.filter((s) => lists[s].some((e) => e.pinId === p.id))).toHaveLength(1);
    const stats = await (await page.request.get(`/api/users/${me.id}/stats`)).json();
    expect([stats.pinsOwned, stats.pinsWanted]).toEqual([lists.owned.length, lists.wanted.length]);
    await page.goto('/collection');
    await expectCounts(page, lists.owned.length, lists.wanted.length, lists.trading.length);
  });

  test('CSV export downloads the right rows', async ({ page, signInAs }) => {
    const me = await signInCollector(signInAs);
    const pins = await freshPins(page, 3);
    await addViaApi(page, { pinId: pins[0].id, status: 'owned', quantity: 3, notes: 'Traded, then kept "forever"' });
    await addViaApi(page, { pinId: pins[1].id, status: 'wanted' });
    await addViaApi(page, { pinId: pins[2].id, status: 'trading' });
    const lists = await listsOf(page, me.id);
    await page.goto('/collection');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^pindex-collection-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = fs.readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Pin ID,Name,Organization,Status,Quantity,Condition,Tradeable,Rarity,Year,Event,Estimated Value (USD),Total Value (USD),Notes,Acquired,Added',
    );
    expect(lines).toHaveLength(1 + lists.owned.length + lists.wanted.length + lists.trading.length);
    const row = lines.find((l) => l.startsWith(pins[0].id))!;
    expect(row).toContain(',owned,3,excellent,no,');
    expect(row).toContain('"Traded, then kept ""forever"""');
    if (pins[0].estimatedValue != null) expect(row).toContain(`,${pins[0].estimatedValue.toFixed(2)},${(pins[0].estimatedValue * 3).toFixed(2)},`);
    expect(lines.find((l) => l.startsWith(pins[1].id))).toContain(',wanted,1,');
    expect(lines.find((l) => l.startsWith(pins[2].id))).toContain(',trading,1,excellent,yes,');
  });

  test('removing a pin asks for confirmation (dialog with JS, inline step without) and updates counts', async ({ page, signInAs }, info) => {
    const noJs = isNoJs(info.project.name);
    const me = await signInCollector(signInAs);
    const [pin] = await freshPins(page, 1);
    await addViaApi(page, { pinId: pin.id, status: 'wanted' });
    const before = await listsOf(page, me.id);
    await page.goto('/collection?tab=wanted');
    await expectCounts(page, before.owned.length, before.wanted.length, before.trading.length);
    const entry = page.getByTestId('collection-entry').filter({ hasText: pin.name });
    if (noJs) {
      await entry.getByRole('link', { name: 'Remove' }).click();
      await expect(page).toHaveURL(/confirm=remove/);
    } else {
      await entry.getByRole('button', { name: 'Remove' }).click();
    }
    const confirm = page.getByRole(noJs ? 'alertdialog' : 'dialog');
    await expect(confirm).toContainText('Remove from collection?');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expectNotice(page, 'Removed from Collection', `${pin.name} was removed from your collection.`, noJs);
    await expect(page.getByTestId('collection-entry').filter({ hasText: pin.name })).toHaveCount(0);
    await expectCounts(page, before.owned.length, before.wanted.length - 1, before.trading.length);
  });
});
