/**
 * Trading with JavaScript on and off: two demo collectors whose lists meet (SwapSam and TradeTina,
 * drizzle/seed-data/trading.ts) find each other on /trades; Sam proposes, Tina accepts (after a
 * confirmation: a dialog with JavaScript, a step rendered by the server without), both
 * collections show the pins moved, and Tina likes, comments on and deletes her comment on a pin she
 * received. Each project runs on its own worker's copy of the database.
 */
import type { Page } from '@playwright/test';
import { expect as baseExpect, isNoJs, test } from './support';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 90_000 });

/** Opens a ConfirmStep: the dialog with JavaScript, the server's step (its own URL) without. */
async function confirmStep(page: Page, scope: ReturnType<Page['getByTestId']>, trigger: string, noJs: boolean, url: RegExp) {
  await scope.getByRole(noJs ? 'link' : 'button', { name: trigger }).click();
  if (noJs) await expect(page).toHaveURL(url);
  return page.getByRole(noJs ? 'alertdialog' : 'dialog');
}

test('two matching collectors propose and accept a trade; both collections move; comments and reactions', async ({ page, signInAs }, info) => {
  const noJs = isNoJs(info.project.name);
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
  const accept = await confirmStep(page, card, 'Accept trade', noJs, /confirm=accept/);
  await expect(accept).toContainText('Accept this trade?');
  await expect(accept).toContainText(`receive ${givingName}`);
  await accept.getByRole('button', { name: 'Accept trade' }).click();
  await expect(page.getByText('Trade completed!')).toBeVisible();
  await expect(page.getByTestId('trade-proposal').filter({ hasText: 'From SwapSam' }).getByText('Completed', { exact: true })).toBeVisible();

  // Tina now owns what Sam gave; Sam owns what Tina gave
  await page.goto('/collection?tab=owned');
  await expect(page.getByRole('main').getByText(givingName).first()).toBeVisible();

  // on the pin she received: a like and a comment (shown on the page and counted on its card), then
  // the comment deleted after a confirmation
  await page.getByRole('main').getByRole('link', { name: givingName }).first().click();
  await expect(page.getByRole('heading', { name: givingName, level: 1 })).toBeVisible();
  const reactions = page.getByTestId('pin-reactions');
  const like = reactions.getByRole('button', { name: /^Like/ });
  const likesBefore = Number(await like.locator('.badge').innerText());
  await like.click();
  await expect(reactions.getByRole('button', { name: /^Like/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(reactions.getByRole('button', { name: /^Like/ }).locator('.badge')).toHaveText(String(likesBefore + 1));
  const text = `Thanks for the swap, Sam (${info.project.name})`;
  await page.getByLabel('Add a comment').fill(text);
  await page.getByRole('button', { name: 'Post Comment' }).click();
  const comment = page.getByTestId('pin-comment').filter({ hasText: text });
  await expect(comment).toBeVisible();
  const pinUrl = page.url().replace(/[?#].*$/, '');
  await page.goto('/collection?tab=owned');
  await expect(page.getByTestId('card-community').first()).toBeVisible();
  await page.goto(pinUrl);
  const remove = await confirmStep(page, page.getByTestId('pin-comment').filter({ hasText: text }), 'Delete', noJs, /confirm=deleteComment/);
  await expect(remove).toContainText('Delete this comment?');
  await remove.getByRole('button', { name: 'Delete comment' }).click();
  await expect(page.getByText('Comment deleted')).toBeVisible();
  await expect(page.getByTestId('pin-comment').filter({ hasText: text })).toHaveCount(0);

  await signInAs({ email: 'sam@pindex.test' });
  await page.goto('/collection?tab=owned');
  await expect(page.getByRole('main').getByText(gettingName).first()).toBeVisible();
  await page.goto('/collection?tab=trading');
  await expect(page.getByRole('main').getByText(givingName)).toHaveCount(0);
  // the public page counts the completed trade
  await page.goto('/u/SwapSam');
  await expect(page.getByTestId('profile-completed-trades')).toHaveText('1');
});
