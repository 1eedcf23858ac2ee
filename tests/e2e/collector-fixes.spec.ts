/**
 * What a new collector noticed on a phone and a desktop, with JavaScript on and off: menus that
 * close after use, flash messages where the eye is, the pin page that knows your copy, browse on a
 * phone, identification pictures, suggestions and account management.
 */
import type { Page } from '@playwright/test';
import { expect, isNoJs, test } from './support';

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
