import { test } from './support';
test('shots', async ({ page, signInAs, server }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const me = await signInAs('player');
  const row = server.db().prepare("select p.id from pin_comments c join pins p on p.id = c.pin_id where c.user_id = ? limit 1").get(me.id) as { id: string };
  await page.goto(`/pins/${row.id}`);
  await page.locator('#community-heading').scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/pin-community.png' });
  await page.goto('/trades');
  await page.screenshot({ path: '/tmp/trades-matches.png', fullPage: true });
});
