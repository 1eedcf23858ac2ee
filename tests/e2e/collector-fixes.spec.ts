/**
 * What a new collector noticed on a phone and a desktop, with JavaScript on and off: menus that
 * close after use, flash messages where the eye is, the pin page that knows your copy, browse on a
 * phone, identification pictures, suggestions and account management.
 */
import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, isNoJs, signIn, test } from './support';

const PHONE = { width: 390, height: 844 };

const menuOpen = (page: Page, name: 'mobile' | 'avatar') => page.locator(`[data-menu="${name}"]`).evaluate((el) => (el as HTMLDetailsElement).open);

test.describe('menus close after use', () => {
  test('phone: the slide-out menu closes on navigation, Escape and a tap outside', async ({ page, signInAs }) => {
    await signInAs('player');
    await page.setViewportSize(PHONE);
    await page.goto('/collection');
    const menu = page.locator('[data-menu="mobile"]');
    await page.getByLabel('Open menu').click();
    await menu.getByRole('link', { name: 'Browse Pins', exact: true }).click();
    await expect(page).toHaveURL(/\/browse$/);
    await expect(page.getByRole('heading', { name: 'Browse Pin Collection' })).toBeVisible();
    expect(await menuOpen(page, 'mobile')).toBe(false);
    await expect(menu.getByRole('link', { name: 'Browse Pins', exact: true })).toBeHidden();
    if (isNoJs(test.info().project.name)) return; // without JavaScript a plain <details>: each link loads a closed one

    // a link to the page already shown closes it too
    await page.getByLabel('Open menu').click();
    await menu.getByRole('link', { name: 'Browse Pins', exact: true }).click();
    await expect.poll(() => menuOpen(page, 'mobile')).toBe(false);

    await page.getByLabel('Open menu').click();
    expect(await menuOpen(page, 'mobile')).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => menuOpen(page, 'mobile')).toBe(false);
    await expect(page.getByLabel('Open menu')).toBeFocused();

    await page.getByLabel('Open menu').click();
    // a tap on the page below the open panel
    await page.mouse.click(195, 700);
    await expect.poll(() => menuOpen(page, 'mobile')).toBe(false);
  });

  test('desktop: the avatar menu closes after a link, Escape and a click outside', async ({ page, signInAs }) => {
    await signInAs('player');
    await page.goto('/browse');
    await page.getByLabel('Account menu').click();
    await page.locator('[data-menu="avatar"]').getByRole('link', { name: 'Profile', exact: true }).click();
    await expect(page).toHaveURL(/\/profile$/);
    expect(await menuOpen(page, 'avatar')).toBe(false);
    if (isNoJs(test.info().project.name)) return;
    await page.getByLabel('Account menu').click();
    await page.keyboard.press('Escape');
    await expect.poll(() => menuOpen(page, 'avatar')).toBe(false);
    await page.getByLabel('Account menu').click();
    await page.mouse.click(10, 400);
    await expect.poll(() => menuOpen(page, 'avatar')).toBe(false);
  });
});

test.describe('flash messages', () => {
  test('without JavaScript the message is at the top of the main content; with it, a toast', async ({ page, signInAs }) => {
    await signInAs('player');
    await page.setViewportSize(PHONE);
    await page.goto('/profile');
    // the seed's own name: other tests count on it
    await page.getByLabel('Display name').fill('PinHunter');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    if (isNoJs(test.info().project.name)) {
      const flash = page.locator('main > [data-testid="flash"]:first-child');
      await expect(flash).toContainText('Profile updated');
      const box = await flash.boundingBox();
      // in the first screen, under the sticky top bar
      expect(box!.y).toBeGreaterThan(50);
      expect(box!.y + box!.height).toBeLessThan(300);
    } else {
      await expect(page.getByTestId('toast')).toContainText('Profile updated');
      await expect(page.getByTestId('flash')).toHaveCount(0);
    }
  });
});

/** Width and height of the dark-blue shape in a picture (the test pictures are a blue disc on white). */
async function blueExtent(bytes: Buffer): Promise<{ width: number; height: number; size: [number, number] }> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (data[i + 2] > 120 && data[i] < 100 && data[i + 1] < 120) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
    }
  }
  return { width: maxX - minX + 1, height: maxY - minY + 1, size: [info.width, info.height] };
}

test.describe('profile picture on a phone', () => {
  test('the crop is square, fits the dialog and saves an undistorted 200x200 picture', async ({ page, signInAs }) => {
    await signInAs('coach');
    await page.setViewportSize(PHONE);
    await page.goto('/profile');
    // a wide picture (1200x600) with a disc in the middle: a stretched save turns it into an ellipse
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="600"><rect width="1200" height="600" fill="#fff"/><circle cx="600" cy="300" r="180" fill="#1d3fbf"/></svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    await page.getByLabel('Profile picture', { exact: true }).setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: png });
    if (isNoJs(test.info().project.name)) {
      await page.getByRole('button', { name: 'Upload Picture' }).click();
    } else {
      const dialog = page.getByRole('dialog', { name: 'Crop your picture' });
      await expect(dialog).toBeVisible();
      const selection = dialog.locator('.ReactCrop__crop-selection');
      await expect(selection).toBeVisible();
      const box = (await selection.boundingBox())!;
      expect(Math.abs(box.width - box.height)).toBeLessThanOrEqual(1);
      // the whole picture is in the dialog, and the dialog on the screen
      const picture = (await dialog.getByAltText('Picture to crop').boundingBox())!;
      const frame = (await dialog.getByTestId('crop-frame').boundingBox())!;
      const whole = (await dialog.boundingBox())!;
      expect(picture.x).toBeGreaterThanOrEqual(frame.x - 0.5);
      expect(picture.x + picture.width).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
      expect(picture.width).toBeLessThanOrEqual(400);
      expect(picture.height).toBeLessThanOrEqual(300);
      expect(Math.abs(picture.width / picture.height - 2)).toBeLessThan(0.02);
      expect(whole.x).toBeGreaterThanOrEqual(0);
      expect(whole.x + whole.width).toBeLessThanOrEqual(PHONE.width);
      // a drag on a corner handle keeps the selection square
      const handle = dialog.locator('.ReactCrop__drag-handle.ord-se');
      const h = (await handle.boundingBox())!;
      await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
      await page.mouse.down();
      await page.mouse.move(h.x - 30, h.y - 5, { steps: 4 });
      await page.mouse.up();
      const after = (await selection.boundingBox())!;
      expect(Math.abs(after.width - after.height)).toBeLessThanOrEqual(1);
      await page.screenshot({ path: test.info().outputPath('crop-phone.png') });
      await dialog.getByRole('button', { name: 'Save Picture' }).click();
      await expect(dialog).toBeHidden();
    }
    await expect(page.getByText('Profile picture updated').first()).toBeVisible();
    await page.goto('/profile');
    const src = await page.locator('section[aria-label="Your account"] img').getAttribute('src');
    const saved = await page.request.get(src!);
    const bytes = await saved.body();
    expect((await sharp(bytes).metadata()).format).toBe('jpeg');
    const disc = await blueExtent(bytes);
    expect(disc.size).toEqual([200, 200]);
    // round, not stretched: as wide as it is high (within JPEG's blur at the edge)
    expect(disc.width).toBeGreaterThan(60);
    expect(Math.abs(disc.width - disc.height)).toBeLessThanOrEqual(3);
  });
});

test.describe('browse on a phone', () => {
  test('two cards a row, names in two lines with the year kept, sort and year filter in the URL', async ({ page }) => {
    const noJs = isNoJs(test.info().project.name);
    await page.setViewportSize(PHONE);
    await page.goto('/browse');
    const cards = page.locator('main li').filter({ has: page.locator('a[href^="/pins/"]') });
    await expect(cards).toHaveCount(24);
    const [a, b, c] = await Promise.all([0, 1, 2].map(async (i) => (await cards.nth(i).boundingBox())!));
    expect(Math.abs(a.y - b.y)).toBeLessThan(1);
    expect(b.x).toBeGreaterThan(a.x + a.width - 1);
    expect(c.y).toBeGreaterThan(a.y + a.height - 1);
    // a long name takes at most two lines, and the year is on the card
    const title = cards.first().locator('h3');
    const lineHeight = await title.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect((await title.boundingBox())!.height).toBeLessThanOrEqual(lineHeight * 2 + 1);
    // (pins other tests add may have no year)
    await expect(cards.getByTestId('pin-year').first()).toHaveText(/^(19|20)\d\d$/);
    await expect(cards.getByTestId('pin-year').first()).toBeVisible();

    const submitIfNoJs = async () => {
      if (noJs) await page.getByRole('button', { name: 'Search', exact: true }).click();
    };
    // sort by name: A to Z, in the URL
    await page.getByLabel('Sort by').selectOption({ label: 'Name (A-Z)' });
    await submitIfNoJs();
    await expect(page).toHaveURL(/\/browse\?sort=name$/);
    const byName = (x: string, y: string) => x.localeCompare(y, 'en', { sensitivity: 'base' });
    // (with JavaScript the new list replaces the old one just after the URL changes)
    await expect
      .poll(async () => {
        const names = (await cards.locator('h3').allTextContents()).slice(0, 8);
        return names.join('|') === [...names].sort(byName).join('|');
      })
      .toBe(true);

    // a year: only that year's pins; the form's defaults (All Rarities, no search) stay out of the URL
    const year = await page.getByLabel('Year').locator('option').nth(1).getAttribute('value');
    await page.getByLabel('Year').selectOption(year!);
    await submitIfNoJs();
    await expect(page).toHaveURL(new RegExp(`/browse\\?year=${year}&sort=name$`));
    await expect.poll(async () => (await cards.getByTestId('pin-year').allTextContents()).every((y) => y === year)).toBe(true);
    expect(await cards.count()).toBeGreaterThan(0);

    // value, highest first, survives a reload; a hand-made URL with defaults is made short
    await page.goto(`/browse?q=&rarity=all_rarities&organizationId=&year=${year}&sort=value`);
    await expect(page).toHaveURL(new RegExp(`/browse\\?year=${year}&sort=value$`));
    await expect(page.getByLabel('Sort by')).toHaveValue('value');
    const hrefs = await cards.locator('a[href^="/pins/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!.slice(6)));
    const shown = await Promise.all(hrefs.slice(0, 4).map(async (id) => ((await (await page.request.get(`/api/pins/${id}`)).json()) as { estimatedValue: number | null }).estimatedValue ?? -1));
    expect(shown).toEqual([...shown].sort((x, y) => y - x));
    await page.screenshot({ path: test.info().outputPath('browse-phone.png') });
  });
});

test.describe('account management', () => {
  test('change password and e-mail, reset a forgotten password, delete the account', async ({ page, server }) => {
    test.setTimeout(90_000);
    const noJs = isNoJs(test.info().project.name);
    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const email = `manage-${stamp}@example.test`;
    const first = 'first-password-123';
    await page.goto('/signup');
    await page.getByLabel('First name').fill('Morgan');
    await page.getByLabel('Last name').fill('Manager');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(first);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByLabel('Display name').fill(`Morgan ${stamp}`);
    await page.getByRole('button', { name: 'Complete Setup' }).click();
    await expect(page).toHaveURL(/\/teams$/);
    const notice = (text: string) => (noJs ? page.getByTestId('flash') : page.getByTestId('toast')).filter({ hasText: text });

    // change password: the current one is required
    await page.goto('/profile');
    const passwordForm = page.getByRole('region', { name: 'Password' });
    await passwordForm.getByLabel('Current password').fill('not-my-password');
    await passwordForm.getByLabel('New password', { exact: true }).fill('second-password-456');
    await passwordForm.getByLabel('Repeat the new password').fill('second-password-456');
    await passwordForm.getByRole('button', { name: 'Change Password' }).click();
    await expect(passwordForm.getByText('Your current password is not right')).toBeVisible();
    await passwordForm.getByLabel('Current password').fill(first);
    await passwordForm.getByLabel('New password', { exact: true }).fill('second-password-456');
    await passwordForm.getByLabel('Repeat the new password').fill('second-password-456');
    await passwordForm.getByRole('button', { name: 'Change Password' }).click();
    await expect(notice('Password changed')).toBeVisible();

    // change e-mail
    const moved = `moved-${stamp}@example.test`;
    const emailForm = page.getByRole('region', { name: 'Email' });
    await emailForm.getByLabel('New email').fill(moved);
    await emailForm.getByLabel('Current password').fill('second-password-456');
    await emailForm.getByRole('button', { name: 'Change Email' }).click();
    await expect(notice('Email changed')).toContainText(moved);

    // forgotten password: this test server sends no e-mail, so the page says how to get a link
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill(moved);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByTestId('reset-sent')).toContainText('npm run user:reset-link');
    // the link the host would pass on (as the command makes it), used once
    const token = `e2e-${stamp}-${'x'.repeat(20)}`;
    const db = server.db();
    const { id: userId } = db.prepare('SELECT id FROM users WHERE email = ?').get(moved) as { id: string };
    db.prepare('INSERT INTO password_reset_tokens (id, user_id, token_hash, expires_at) VALUES (?, ?, ?, ?)').run(
      `t${stamp}`,
      userId,
      createHash('sha256').update(token).digest('hex'),
      Date.now() + 3600_000,
    );
    await page.goto(`/reset-password?token=${token}`);
    await page.getByLabel('New password', { exact: true }).fill('third-password-789');
    await page.getByLabel('Repeat the new password').fill('third-password-789');
    await page.getByRole('button', { name: 'Save New Password' }).click();
    await expect(page).toHaveURL(/\/api\/login$/);
    await expect(notice('Password changed')).toBeVisible();
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
    await page.goto(`/reset-password?token=${token}`);
    await expect(page.getByText('This reset link is invalid or has expired.')).toBeVisible();
    await signIn(page, moved, 'third-password-789');

    // delete the account: the password confirms it
    await page.goto('/profile');
    const danger = page.getByRole('region', { name: 'Delete account' });
    await danger.getByLabel('Current password').fill('third-password-789');
    await danger.getByRole('button', { name: 'Delete My Account' }).click();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    await expect(notice('Account deleted')).toBeVisible();
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
    const res = await page.request.post('/api/login', { form: { email: moved, password: 'third-password-789' } });
    expect(res.status()).toBe(400);
  });
});
