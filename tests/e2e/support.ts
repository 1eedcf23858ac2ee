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
  await expect(page).not.toHaveURL(/\/api\/login/);
}

export const isNoJs = (projectName: string) => projectName === 'no-js';
