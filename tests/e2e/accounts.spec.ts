import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { DEMO, DEMO_PASSWORD, expect, isNoJs, signIn, test } from './support';

const PASSWORD = 'a-long-enough-password';
const uid = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

async function createAccount(page: Page, opts: { email: string; firstName?: string; lastName?: string }) {
  await page.goto('/api/login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/signup/);
  await page.getByLabel('First name').fill(opts.firstName ?? 'Robin');
  await page.getByLabel('Last name').fill(opts.lastName ?? 'Tester');
  await page.getByLabel('Email').fill(opts.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).not.toHaveURL(/\/signup/);
}

async function finishOnboarding(page: Page, nickname: string) {
  await page.getByLabel('Display name').fill(nickname);
  await page.getByRole('button', { name: 'Complete Setup' }).click();
  await expect(page).toHaveURL(/\/teams$/);
}

async function openAccountMenu(page: Page) {
  await page.getByLabel('Account menu').click();
}

test.describe('account life cycle', () => {
  test('create an account, onboarding on every path, sign out, wrong password, sign in', async ({ page, request, javaScriptEnabled }) => {
    // a long walk through many pages (and photos): beside the server and the other worker on two
    // busy cores it has taken longer than the default 45 s
    test.setTimeout(90_000);
    const email = `new-${uid()}@example.test`;
    await createAccount(page, { email, firstName: 'Robin', lastName: 'Tester' });
    // the screen the sign-up lands on (with JavaScript a client-side navigation, which loads the
    // page again: the onboarding screen is the server's HTML alone)
    await expect(page.getByRole('heading', { name: 'Set up your account' })).toBeVisible();

    // a new account on a seeded instance is a player, and setup is not complete yet
    const me = await page.request.get('/api/auth/user');
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ email, role: 'player', isOnboardingComplete: false });

    for (const path of ['/', '/browse', '/collection', '/no/such/page']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Set up your account' })).toBeVisible();
    }
    // the display name defaults to first and last name
    await expect(page.getByLabel('Display name')).toHaveValue('Robin Tester');
    await page.getByLabel('Display name').fill('R');
    await page.getByRole('button', { name: 'Complete Setup' }).click();
    await expect(page.getByText('Nickname must be at least 2 characters').first()).toBeVisible();

    // a nickname taken by someone else (any case) is refused with the server's message
    await page.getByLabel('Display name').fill('pinhunter');
    await page.getByRole('button', { name: 'Complete Setup' }).click();
    await expect(page.getByText(/This nickname is already taken/).first()).toBeVisible();
    if (javaScriptEnabled) await expect(page.getByTestId('toast').filter({ hasText: 'Error completing setup' })).toContainText(/already taken/);

    await page.getByLabel('Role').selectOption('manager');
    const nickname = `Robin ${uid()}`;
    await finishOnboarding(page, nickname);
    await expect(page.getByText('Welcome to PinDex!')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Team Management' })).toBeVisible();
    expect(await (await page.request.get('/api/auth/user')).json()).toMatchObject({ nickname, role: 'manager', isOnboardingComplete: true });

    // sign out from the avatar menu
    await openAccountMenu(page);
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);

    // a wrong password keeps the e-mail and says one thing for both mistakes
    await page.goto('/api/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not-my-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await page.getByLabel('Email').fill(`nobody-${uid()}@example.test`);
    await page.getByLabel('Password', { exact: true }).fill('not-my-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Invalid email or password')).toBeVisible();

    await signIn(page, email, PASSWORD);
    await openAccountMenu(page);
    await expect(page.getByText(nickname).first()).toBeVisible();
    void request;
  });

  test('sign-in keeps a same-site redirectTo through failures and ignores another site', async ({ page }) => {
    await page.goto('/api/login?redirectTo=%2Fbrowse');
    // a refused password and an empty form keep the target for the next attempt
    await page.getByLabel('Email').fill(DEMO.player);
    await page.getByLabel('Password', { exact: true }).fill('not-my-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await page.getByLabel('Email').fill('');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Email is required').first()).toBeVisible();
    await page.getByLabel('Email').fill(DEMO.player);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/browse$/);
    await page.goto('/api/logout');
    await page.goto('/api/login?redirectTo=https%3A%2F%2Fevil.example%2F');
    await page.getByLabel('Email').fill(DEMO.player);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  test('sign-up keeps redirectTo through a refused form', async ({ page }) => {
    await page.goto('/api/login?redirectTo=%2Fbrowse%3Frarity%3Drare');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('First name').fill('Robin');
    await page.getByLabel('Last name').fill('Redirect');
    await page.getByLabel('Email').fill(`redirect-${uid()}@example.test`);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Password must be at least 10 characters').first()).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/browse\?rarity=rare$/);
    await expect(page.getByRole('heading', { name: 'Set up your account' })).toBeVisible();
  });

  test('the 6th rapid wrong password from one client gets 429 with a clear message', async ({ page }) => {
    const email = `locked-${uid()}@example.test`;
    for (let i = 1; i <= 5; i++) {
      const res = await page.request.post('/api/login', { form: { email, password: `wrong-password-${i}` } });
      expect(res.status()).toBe(400);
    }
    await page.goto('/api/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password-6');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/login') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign In', exact: true }).click(),
    ]);
    expect(response.status()).toBe(429);
    await expect(page.getByText('Too many sign-in attempts. Please wait a few minutes and try again.')).toBeVisible();
  });
});

test.describe('profile', () => {
  test('changes the display name', async ({ page }) => {
    const email = `profile-${uid()}@example.test`;
    await createAccount(page, { email });
    await finishOnboarding(page, `Prof ${uid()}`);
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Profile Settings' })).toBeVisible();
    await expect(page.getByText('Role: Player')).toBeVisible();
    await expect(page.getByText('Robin Tester')).toBeVisible();
    if (!isNoJs(test.info().project.name)) {
      await page.getByLabel('Display name').fill('   ');
      await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
    }
    await page.getByLabel('Display name').fill('Z');
    // checked by the page's action, with JavaScript as without it
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Nickname must be at least 2 characters').first()).toBeVisible();
    const newName = `Renamed ${uid()}`;
    await page.getByLabel('Display name').fill(newName);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Profile updated')).toBeVisible();
    await expect(page.getByTestId('profile-display-name')).toHaveText(newName);
  });

  test('uploads a profile picture cropped to 200x200', async ({ page }) => {
    const email = `picture-${uid()}@example.test`;
    await createAccount(page, { email });
    await finishOnboarding(page, `Pic ${uid()}`);
    await page.goto('/profile');
    const png = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#2255aa' } }).png().toBuffer();
    await page.getByLabel('Profile picture', { exact: true }).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    if (isNoJs(test.info().project.name)) {
      await page.getByRole('button', { name: 'Upload Picture' }).click();
    } else {
      const dialog = page.getByRole('dialog', { name: 'Crop your picture' });
      await expect(dialog).toBeVisible();
      await dialog.getByLabel(/Zoom/).fill('120');
      await expect(dialog.getByText('Zoom: 120%')).toBeVisible();
      await dialog.getByRole('button', { name: 'Save Picture' }).click();
      await expect(dialog).toBeHidden();
    }
    await expect(page.getByText('Profile picture updated')).toBeVisible();
    await page.goto('/profile');
    const src = await page.locator('section[aria-label="Your account"] img').getAttribute('src');
    expect(src).toMatch(/^\/images\//);
    const image = await page.request.get(src!);
    expect(image.status()).toBe(200);
    const meta = await sharp(await image.body()).metadata();
    expect([meta.width, meta.height]).toEqual([200, 200]);
  });

  test('refuses a file that is not an image', async ({ page }) => {
    test.skip(!isNoJs(test.info().project.name), 'with JavaScript the browser checks the type before upload');
    await createAccount(page, { email: `badfile-${uid()}@example.test` });
    await finishOnboarding(page, `Bad ${uid()}`);
    await page.goto('/profile');
    await page.getByLabel('Profile picture', { exact: true }).setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('just text, not a picture') });
    await page.getByRole('button', { name: 'Upload Picture' }).click();
    await expect(page.getByText('Please select an image file.').first()).toBeVisible();
  });
});

test.describe('navigation per role', () => {
  const main = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  test('signed out: public links and Sign In', async ({ page }) => {
    await page.goto('/');
    for (const name of ['Identify Pin', 'Browse', 'Marketplace']) await expect(main(page).getByRole('link', { name, exact: true })).toBeVisible();
    for (const name of ['My Collection', 'Teams', 'Vendor', 'Admin']) await expect(main(page).getByRole('link', { name, exact: true })).toHaveCount(0);
    await expect(main(page).getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
  });

  for (const [role, has, hasNot, menu] of [
    ['player', [], ['Vendor', 'Admin'], ['Profile', 'My Collection', 'Become a Vendor']],
    ['vendor', ['Vendor'], ['Admin'], ['Profile', 'My Collection', 'Vendor Dashboard']],
    ['admin', ['Admin'], ['Vendor'], ['Profile', 'My Collection', 'Become a Vendor', 'Admin Dashboard']],
  ] as const) {
    // signed in by the session fixture for every test of the block
    test.describe(() => {
      test.use({ role });
      test(`${role}: links and avatar menu`, async ({ page }) => {
        const email = DEMO[role];
        await page.goto('/browse');
        for (const name of ['Identify Pin', 'My Collection', 'Browse', 'Marketplace', 'Teams', ...has]) {
          await expect(main(page).getByRole('link', { name, exact: true })).toBeVisible();
        }
        await expect(main(page).getByRole('link', { name: /^Badges/ })).toBeVisible();
        for (const name of hasNot) await expect(main(page).getByRole('link', { name, exact: true })).toHaveCount(0);
        await openAccountMenu(page);
        const account = page.locator('[data-menu="avatar"]');
        for (const name of menu) await expect(account.getByRole('link', { name, exact: true })).toBeVisible();
        if (role !== 'admin') await expect(account.getByRole('link', { name: 'Admin Dashboard' })).toHaveCount(0);
        await expect(account.getByText(email)).toBeVisible();
        await expect(account.getByRole('button', { name: 'Log out' })).toBeVisible();
      });
    });
  }

  test('the account menu opened before the scripts come stays open once they run', async ({ page, signInAs }, info) => {
    test.skip(isNoJs(info.project.name), 'without JavaScript the menu is a plain <details>');
    await signInAs('player');
    // a slow connection: the page's scripts are held back until the menu is open
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/build\/.*\.js(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/browse', { waitUntil: 'commit' });
    const account = page.locator('[data-menu="avatar"]');
    await openAccountMenu(page);
    await expect(account.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expect(account).not.toHaveAttribute('data-enhanced');
    release();
    await expect(account).toHaveAttribute('data-enhanced', '');
    await expect(account.getByRole('button', { name: 'Log out' })).toBeVisible();
    // and it is a menu now: Escape closes it
    await page.keyboard.press('Escape');
    await expect(account.getByRole('button', { name: 'Log out' })).toBeHidden();
  });

  test('mobile: slide-out menu with Sign In / Sign Out and the bottom bar', async ({ page, signInAs }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const quick = page.getByRole('navigation', { name: 'Quick' });
    for (const name of ['Identify', 'Browse', 'Shop']) await expect(quick.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(quick.getByRole('link', { name: 'Collection' })).toHaveCount(0);
    await page.getByLabel('Open menu').click();
    const menu = page.locator('[data-menu="mobile"]');
    for (const name of ['Identify Pin', 'Browse Pins', 'Marketplace', 'Sign In']) await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();

    await signInAs('vendor');
    await page.reload();
    await expect(quick.getByRole('link', { name: 'Collection', exact: true })).toBeVisible();
    await page.getByLabel('Open menu').click();
    for (const name of ['My Collection', 'Teams', 'Vendor Dashboard']) await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Admin Dashboard' })).toHaveCount(0);
    await menu.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  });

  test('admin area: sidebar for admins, audit logs for super_admin only, others sent home', async ({ page, signInAs }) => {
    await signInAs('manager');
    await page.goto('/admin/users');
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    // told why (a toast with JavaScript, the inline message without)
    await expect(page.getByRole('status').filter({ hasText: 'Admin Access Required' })).toContainText('The admin area is for admins. Your account is a Manager.');

    await signInAs('admin');
    await page.goto('/admin');
    const sidebar = page.getByRole('navigation', { name: 'Admin' });
    for (const name of ['Dashboard', 'Users', 'Pins', 'Teams', 'Vendors', 'Analytics', 'Back to Main Site']) {
      await expect(sidebar.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(sidebar.getByRole('link', { name: 'Audit Logs' })).toHaveCount(0);
    const denied = await page.goto('/admin/audit-logs');
    expect(denied?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();

    await signInAs('superAdmin');
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit Logs' }).click();
    await expect(page.getByRole('heading', { name: 'Audit Logs' })).toBeVisible();
  });
});

test.describe('signed-out access', () => {
  const prompts: [string, string][] = [
    ['/teams', 'Team Access Required'],
    ['/marketplace', 'Access Required'],
    ['/vendor', 'Vendor Access Required'],
    ['/inventory', 'Inventory Access Required'],
    ['/admin', 'Admin Access Required'],
    ['/admin/users', 'Admin Access Required'],
    ['/admin/pins', 'Admin Access Required'],
    ['/admin/teams', 'Admin Access Required'],
    ['/collection', 'Collection Access Required'],
  ];
  // one page visits them all: a test each cost a browser context each
  test('each area shows its access prompt with a sign-in link', async ({ page, javaScriptEnabled }) => {
    if (javaScriptEnabled) {
      // reached by a client-side navigation, the prompt is the same page
      await page.goto('/browse');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Marketplace' }).click();
      await expect(page.getByRole('heading', { name: 'Access Required', exact: true })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Sign In to Continue' })).toHaveAttribute('href', '/api/login?redirectTo=%2Fmarketplace');
    }
    for (const [path, title] of prompts) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(401);
      await expect(page.getByRole('heading', { name: title, exact: true }), path).toBeVisible();
      const link = page.getByRole('link', { name: 'Sign In to Continue' });
      await expect(link, path).toBeVisible();
      expect(await link.getAttribute('href'), path).toBe(`/api/login?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  test('/profile, /badges and /teams/{id} are not found', async ({ page }) => {
    for (const path of ['/profile', '/badges', '/teams/some-team']) {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      await expect(page.getByText('404 - Page not found')).toBeVisible();
    }
  });

  test('the Sign In to Continue link leads back to the page after signing in', async ({ page }) => {
    await page.goto('/inventory');
    await page.getByRole('link', { name: 'Sign In to Continue' }).click();
    await page.getByLabel('Email').fill(DEMO.player);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/inventory$/);
  });
});

test.describe('account calls', () => {
  test('/api/auth/user: 401 with no body signed out, the user signed in', async ({ page, signInAs }) => {
    const out = await page.request.get('/api/auth/user');
    expect(out.status()).toBe(401);
    expect((await out.body()).byteLength).toBe(0);
    await signInAs('vendor');
    const me = await page.request.get('/api/auth/user');
    expect(me.status()).toBe(200);
    const body = await me.json();
    expect(body).toMatchObject({ email: DEMO.vendor, role: 'vendor' });
    expect(body).toHaveProperty('vendor');
  });

  test('JSON calls: validation, nickname change, wrong method, cross-site refused', async ({ page, baseURL }) => {
    await createAccount(page, { email: `api-${uid()}@example.test` });
    const short = await page.request.post('/api/auth/complete-onboarding', { data: { nickname: 'a', role: 'player' } });
    expect(short.status()).toBe(400);
    expect(await short.json()).toMatchObject({ error: 'Nickname must be at least 2 characters' });
    const long = await page.request.post('/api/auth/complete-onboarding', { data: { nickname: 'x'.repeat(51), role: 'player' } });
    expect(await long.json()).toMatchObject({ error: 'Nickname too long' });
    const bad = await page.request.post('/api/auth/complete-onboarding', { headers: { 'Content-Type': 'application/json' }, data: '{not json' });
    expect(bad.status()).toBe(400);
    const nick = `Api ${uid()}`;
    const done = await page.request.post('/api/auth/complete-onboarding', { data: { nickname: nick, role: 'player' } });
    expect(done.status()).toBe(200);
    expect(await done.json()).toMatchObject({ nickname: nick, isOnboardingComplete: true });
    const renamed = await page.request.patch('/api/user/profile', { data: { nickname: `${nick} 2` } });
    expect(await renamed.json()).toMatchObject({ nickname: `${nick} 2` });
    expect((await page.request.get('/api/user/profile')).status()).toBe(405);
    const notImage = await page.request.post('/api/user/profile-picture', {
      multipart: { profilePicture: { name: 'x.png', mimeType: 'image/png', buffer: Buffer.from('plain text, not an image') } },
    });
    expect(notImage.status()).toBe(415);
    expect(await notImage.json()).toMatchObject({ error: 'Invalid file type' });

    // a write from another site is refused even with the session cookie
    const forged = await page.request.patch('/api/user/profile', { data: { nickname: 'Hijacked' }, headers: { Origin: 'https://evil.example' } });
    expect(forged.status()).toBe(403);
    const forgedForm = await page.request.post('/api/logout', { headers: { Origin: 'https://evil.example' } });
    expect(forgedForm.status()).toBe(403);
    expect(await (await page.request.get('/api/auth/user')).json()).toMatchObject({ nickname: `${nick} 2` });
    expect(baseURL).toBeTruthy();
  });

  test('signed-out JSON writes answer 401', async ({ request }) => {
    const res = await request.patch('/api/user/profile', { data: { nickname: 'Nobody' } });
    expect(res.status()).toBe(401);
    expect(await res.json()).toMatchObject({ error: expect.any(String) });
  });
});
