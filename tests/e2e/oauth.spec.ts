import { expect, test } from './support';

/**
 * The whole OAuth2 / OpenID Connect flow against oauth2-mock-server, which the global setup
 * (tests/e2e/global-setup.ts) starts on 127.0.0.1 (E2E_PORT + 1) and every worker's server is
 * configured with (OAUTH_ISSUER etc.). The mock signs in whoever the `login_hint` names, so each
 * test uses its own e-mail.
 */
const uid = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

async function oauthHref(page: import('@playwright/test').Page, loginHint: string) {
  await page.goto('/api/login');
  const link = page.getByRole('link', { name: 'Continue with PinDex Test ID' });
  await expect(link).toBeVisible();
  const href = await link.getAttribute('href');
  expect(href).toMatch(/^\/api\/login\/oauth/);
  return `${href}${href!.includes('?') ? '&' : '?'}login_hint=${encodeURIComponent(loginHint)}`;
}

test('a new user signs in with the provider, completes onboarding and is signed in', async ({ page }) => {
  const email = `oauth-${uid()}@example.test`;
  await page.goto(await oauthHref(page, email));
  // back from the provider: signed in, and setup comes first
  await expect(page.getByRole('heading', { name: 'Set up your account' })).toBeVisible();
  await expect(page.getByLabel('Display name')).toHaveValue('Olivia Auth');
  const me = await page.request.get('/api/auth/user');
  expect(await me.json()).toMatchObject({ email, role: 'player', firstName: 'Olivia', lastName: 'Auth' });
  const nickname = `Olivia ${uid()}`;
  await page.getByLabel('Display name').fill(nickname);
  await page.getByRole('button', { name: 'Complete Setup' }).click();
  await expect(page).toHaveURL(/\/teams$/);

  // signing in again with the provider finds the same account
  await page.goto('/api/logout');
  await page.goto(await oauthHref(page, email));
  await expect(page.getByRole('heading', { name: 'Set up your account' })).toHaveCount(0);
  expect(await (await page.request.get('/api/auth/user')).json()).toMatchObject({ email, nickname });
});

test('links an existing local account by its verified e-mail and keeps redirectTo', async ({ page }) => {
  const email = `linked-${uid()}@example.test`;
  await page.goto('/signup');
  await page.getByLabel('First name').fill('Lee');
  await page.getByLabel('Last name').fill('Local');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('a-long-enough-password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  const nickname = `Lee ${uid()}`;
  await page.getByLabel('Display name').fill(nickname);
  await page.getByRole('button', { name: 'Complete Setup' }).click();
  await expect(page).toHaveURL(/\/teams$/);
  const localId = (await (await page.request.get('/api/auth/user')).json()).id;
  await page.goto('/api/logout');

  await page.goto('/api/login?redirectTo=%2Fbrowse');
  const href = await page.getByRole('link', { name: 'Continue with PinDex Test ID' }).getAttribute('href');
  await page.goto(`${href}&login_hint=${encodeURIComponent(email)}`);
  await expect(page).toHaveURL(/\/browse$/);
  expect(await (await page.request.get('/api/auth/user')).json()).toMatchObject({ id: localId, nickname });
});

test('an unverified e-mail is not signed in', async ({ page }) => {
  await page.goto(await oauthHref(page, `unverified+${uid()}@example.test`));
  await expect(page).toHaveURL(/\/api\/login\?error=oauth_unverified/);
  await expect(page.getByText('Your account at the sign-in provider has no verified e-mail address.')).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
});
