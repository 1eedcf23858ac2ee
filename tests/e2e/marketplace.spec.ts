/**
 * The marketplace loop in a real browser, with JavaScript on and off: a buyer finds a pin, adds it
 * to the cart, checks out (pay the vendor offline), sees the pending order; the vendor lists a pin,
 * marks the order paid, shipped and delivered; the buyer finds it in the inventory and adds it to
 * the collection. And a user applies to become a vendor. Each project uses its own accounts.
 */
import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from './support';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

/** Click a submit button and wait for the page the POST leads to. */
async function submit(page: Page, name: string, scope = page.locator('body')) {
  await scope.getByRole('button', { name, exact: true }).first().click();
}

test('buyer and vendor: find, cart, checkout offline, pay, ship, deliver, inventory, collection', async ({ page, signInAs }, info) => {
  const js = info.project.name === 'js';
  const buyer = { email: js ? 'collector1@pindex.test' : 'collector2@pindex.test' };

  // ---------------------------------------------------------------- the buyer finds and buys
  await signInAs(buyer);
  await page.goto('/marketplace');
  await expect(page.getByRole('heading', { name: 'Pin Marketplace' })).toBeVisible();
  await page.getByLabel('Category').selectOption('Trading Set');
  if (!js) await submit(page, 'Search');
  await expect(page).toHaveURL(/category=Trading\+Set|category=Trading%20Set/);
  const card = page.getByTestId('listing-card');
  await expect(card).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Clear Filters' })).toBeVisible();
  const name = (await card.getByRole('heading').innerText()).trim();
  await expect(card.getByTestId('listing-price')).toHaveText(/^\$\d+\.\d{2}$/);
  await submit(page, 'Add to Cart', card);
  await expect(page.getByText('Added to cart').first()).toBeVisible();

  // a search that finds nothing
  await page.goto('/marketplace?q=zzzz-no-such-pin');
  await expect(page.getByRole('heading', { name: 'No pins found' })).toBeVisible();

  await page.goto('/cart');
  const line = page.getByTestId('cart-line').filter({ hasText: name });
  await line.getByRole('spinbutton').fill('2');
  await submit(page, 'Update', line);
  await expect(page.getByText('Cart updated').first()).toBeVisible();
  await expect(page.getByTestId('cart-line').filter({ hasText: name }).getByRole('spinbutton')).toHaveValue('2');
  await submit(page, 'Place Order');
  await expect(page.getByText('Order placed').first()).toBeVisible();
  await expect(page).toHaveURL(/\/orders\?checkout=/);
  const order = page.getByTestId('order-card').filter({ hasText: name });
  await expect(order.getByText('Pending', { exact: true }).first()).toBeVisible();
  const number = (await order.getByRole('heading').innerText()).replace('Order #', '').trim();
  expect(number).toHaveLength(8);

  // ---------------------------------------------------------------- the vendor lists, is paid, ships, delivers
  await signInAs('vendor');
  await page.goto('/vendor?tab=pins');
  await page.getByRole('button', { name: 'List a Pin' }).or(page.getByRole('link', { name: 'List a Pin' })).click();
  await submit(page, 'List Pin');
  await expect(page.getByText('Pin name is required').first()).toBeVisible();
  await page.getByLabel('Pin Name').fill(`Booth special ${info.project.name}`);
  await page.getByLabel('Price ($)').fill('7.5');
  await page.getByLabel('Stock Quantity').fill('12');
  await submit(page, 'List Pin');
  await expect(page.getByText('Pin listed successfully').first()).toBeVisible();
  await expect(page.getByTestId('vendor-listing').filter({ hasText: `Booth special ${info.project.name}` }).getByText('$7.50')).toBeVisible();

  await page.goto('/vendor?tab=orders');
  const mine = () => page.getByTestId('vendor-order').filter({ hasText: `Order #${number}` });
  await submit(page, 'Mark as Paid', mine());
  await expect(page.getByText('Order marked paid').first()).toBeVisible();
  await submit(page, 'Mark as Shipped', mine());
  await expect(page.getByText('Order fulfilled').first()).toBeVisible();
  await submit(page, 'Mark as Delivered', mine());
  // delivered orders leave the active list (with JavaScript the toast may still wait behind the last one)
  await expect(mine()).toHaveCount(0);
  await page.getByRole('link', { name: /^Delivered \d+$/ }).click();
  await expect(mine().getByText('Delivered', { exact: true }).first()).toBeVisible();

  // ---------------------------------------------------------------- the buyer owns it
  await signInAs(buyer);
  await page.goto('/orders');
  const done = page.getByTestId('order-card').filter({ hasText: `Order #${number}` });
  await expect(done.getByText('Delivered', { exact: true }).first()).toBeVisible();
  await done.getByText('Timeline').click();
  await expect(done.getByRole('list', { name: 'Order timeline' }).getByRole('listitem')).toHaveCount(4);

  await page.goto('/inventory');
  const item = page.getByTestId('inventory-item').filter({ hasText: name });
  await expect(item.getByText(`Order #${number}`)).toBeVisible();
  await expect(item.getByText('2 pieces', { exact: false })).toBeVisible();
  await submit(page, 'Add to My Collection', item);
  await expect(page.getByText('Added to your collection').first()).toBeVisible();
  await expect(page.getByTestId('inventory-item').filter({ hasText: name }).getByText('In your collection')).toBeVisible();
});

test('a user applies to become a vendor and then sees Application Pending', async ({ page, signInAs }, info) => {
  await signInAs({ email: info.project.name === 'js' ? 'collector6@pindex.test' : 'collector7@pindex.test' });
  await page.goto('/vendor');
  await page.getByRole('button', { name: 'Become a Vendor' }).or(page.getByRole('link', { name: 'Become a Vendor' })).click();
  await page.getByLabel('Business Name').fill('');
  await page.getByLabel('Contact Email').fill('not-an-email');
  await submit(page, 'Submit Application');
  await expect(page.getByText('Business name is required').first()).toBeVisible();
  await expect(page.getByText('Valid email is required').first()).toBeVisible();
  await page.getByLabel('Business Name').fill(`Booth ${info.project.name}`);
  await page.getByLabel('Contact Email').fill('booth@example.test');
  await submit(page, 'Submit Application');
  await expect(page.getByText('Vendor application submitted').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Application Pending' })).toBeVisible();
});
