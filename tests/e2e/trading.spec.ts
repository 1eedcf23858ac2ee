/**
 * Trading with JavaScript on and off: two demo collectors whose lists meet (SwapSam and TradeTina,
 * drizzle/seed-data/trading.ts) find each other on /trades; Sam proposes, Tina accepts, and both
 * collections show the pins moved. Each project runs on its own worker's copy of the database.
 */
import { expect as baseExpect, test } from './support';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 90_000 });

test('two matching collectors propose and accept a trade; both collections move', async ({ page, signInAs }) => {
  await signInAs({ email: 'sam@pindex.test' });
  await page.goto('/trades');
  await expect(page.getByRole('heading', { name: 'Trades', level: 1 })).toBeVisible();
  const match = page.getByTestId('trade-match').filter({ hasText: 'TradeTina' });
  await expect(match.getByText('Two-way match')).toBeVisible();
  await match.getByRole('link', { name: 'Propose a trade' }).click();

  await expect(page.getByRole('heading', { name: 'Propose a trade to TradeTina' })).toBeVisible();
  const give = page.getByRole('group', { name: /You give/ });
  const receive = page.getByRole('group', { name: /You receive/ });
  // the pins each wants are ticked already
  const giving = (await give.locator('label', { has: page.locator('input:checked') }).innerText()).trim();
  const getting = (await receive.locator('label', { has: page.locator('input:checked') }).innerText()).trim();
  const givingName = giving.replace(/\s*They want$/, '');
  const gettingName = getting.replace(/\s*You want$/, '');
  await page.getByLabel('Note (optional)').fill('Swap at the next tournament?');
  await page.getByRole('button', { name: 'Send proposal' }).click();
  await expect(page.getByText('Trade proposed')).toBeVisible();
  await expect(page.getByTestId('trade-proposal').filter({ hasText: 'To TradeTina' })).toBeVisible();

  await signInAs({ email: 'tina@pindex.test' });
  await page.goto('/trades?tab=incoming');
  await expect(page.getByTestId('trade-notifications').getByText('SwapSam proposed a trade')).toBeVisible();
  const card = page.getByTestId('trade-proposal').filter({ hasText: 'From SwapSam' });
  await expect(card.getByText('Swap at the next tournament?')).toBeVisible();
  await card.getByRole('button', { name: 'Accept trade' }).click();
  await expect(page.getByText('Trade completed!')).toBeVisible();
  await expect(page.getByTestId('trade-proposal').filter({ hasText: 'From SwapSam' }).getByText('Completed', { exact: true })).toBeVisible();

  // Tina now owns what Sam gave; Sam owns what Tina gave
  await page.goto('/collection?tab=owned');
  await expect(page.getByRole('main').getByText(givingName).first()).toBeVisible();
  await signInAs({ email: 'sam@pindex.test' });
  await page.goto('/collection?tab=owned');
  await expect(page.getByRole('main').getByText(gettingName).first()).toBeVisible();
  await page.goto('/collection?tab=trading');
  await expect(page.getByRole('main').getByText(givingName)).toHaveCount(0);
  // the public page counts the completed trade
  await page.goto('/u/SwapSam');
  await expect(page.getByTestId('profile-completed-trades')).toHaveText('1');
});
