import { expect, type Page } from '@playwright/test';

/** Demo accounts from the seed (drizzle/seed.ts); one password for all. */
export const DEMO_PASSWORD = 'pindex-demo-2026';
export const DEMO = {
  player: 'player@pindex.test',
  manager: 'manager@pindex.test',
  coach: 'coach@pindex.test',
  vendor: 'vendor@pindex.test',
  admin: 'admin@pindex.test',
  superAdmin: 'superadmin@pindex.test',
} as const;

/** Signs in through the real sign-in form (works with JavaScript on and off). */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/api/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  // Checking the password is meant to be slow (scrypt), and beside the server's other work on two
  // busy cores the redirect has taken longer than the default 7 s wait.
  await expect(page).not.toHaveURL(/\/api\/login/, { timeout: 15_000 });
}

/**
 * How long a test waits for the answer to a photo it sent. Alone, the server answers one in well under
 * a second; but the end-to-end tests run side by side with the server on the machine's two cores, and
 * under that load an answer has taken longer than the default 7 s wait for an assertion.
 */
export const ANSWERED = { timeout: 20_000 };

export const isNoJs = (projectName: string) => projectName === 'no-js';

/**
 * The photo the page posts to POST /api/identify (JSON `{ imageData }`) while `act` runs: the data
 * URL's media type and the decoded bytes.
 */
export async function postedPhoto(page: Page, act: () => Promise<unknown>): Promise<{ type: string; bytes: Buffer }> {
  const request = page.waitForRequest((r) => r.url().endsWith('/api/identify') && r.method() === 'POST');
  await act();
  const { imageData = '' } = JSON.parse((await request).postData() ?? '{}') as { imageData?: string };
  const [, type = '', base64 = ''] = /^data:([^;,]*);base64,(.*)$/s.exec(imageData) ?? [];
  return { type, bytes: Buffer.from(base64, 'base64') };
}
