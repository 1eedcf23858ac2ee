/**
 * The admin area as an admin and a super admin use it, with JavaScript on and off: the users,
 * pins, organizations and teams tables, and at least one form or dialog step of each; the audit
 * log for the super admin only. Each worker has its own server and database copy.
 */
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect as baseExpect, test } from './support';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

const png = () => sharp({ create: { width: 160, height: 160, channels: 3, background: { r: 30, g: 90, b: 200 } } }).png().toBuffer();

/** A dialog's trigger: a button with JavaScript, a link to its step without. */
const trigger = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true }).or(scope.getByRole('link', { name, exact: true }));
/** The open dialog (JavaScript) or the server-rendered step. */
const step = (page: Page) => page.locator('[role="dialog"], [role="alertdialog"], section[aria-labelledby]').filter({ has: page.getByRole('heading') }).last();

test.describe('admin tables', () => {
  test('users: search, details, and a role change refused and allowed', async ({ page, signInAs, server }, info) => {
    // a player of this test's own: a demo account whose role changed would change the tests after it
    const stamp = `${info.project.name === 'js' ? 'Js' : 'NoJs'}${Date.now() % 1_000_000}`;
    const nick = `RoleTarget${stamp}`;
    const email = `role-target-${stamp.toLowerCase()}@pindex.test`;
    server
      .db()
      .prepare("INSERT INTO users (id, email, first_name, last_name, nickname, role, is_onboarding_complete) VALUES (?, ?, 'Role', 'Target', ?, 'player', 1)")
      .run(`rt${stamp.toLowerCase()}`.padEnd(16, '0').slice(0, 16), email, nick);
    const byNick = new RegExp(nick);
    await signInAs('admin');
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
    await page.getByLabel('Search users').fill(email);
    if (info.project.name === 'no-js') await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(email).replace(/\./g, '\\.')}`));
    const row = page.getByRole('row', { name: byNick });
    await expect(row).toBeVisible();
    await expect(row.getByText('Active')).toBeVisible();

    await row.getByRole('link', { name: `View ${nick}` }).click();
    const details = step(page);
    await expect(details.getByRole('heading', { name: 'User Details' })).toBeVisible();
    await expect(details.getByText(email).first()).toBeVisible();

    // an admin cannot make anyone an admin: the choice is not offered
    await page.goto(`/admin/users?q=${encodeURIComponent(email)}`);
    await trigger(page.getByRole('row', { name: byNick }), `Change role of ${nick}`).click();
    const dialog = step(page);
    await expect(dialog.getByRole('heading', { name: 'Change User Role' })).toBeVisible();
    await expect(dialog.getByLabel('New role').locator('option', { hasText: 'Admin' })).toHaveCount(0);
    if (info.project.name === 'js') await expect(dialog.getByRole('button', { name: 'Update Role' })).toBeDisabled();
    await dialog.getByLabel('New role').selectOption('vendor');
    await dialog.getByRole('button', { name: 'Update Role' }).click();
    await expect(page.getByText('Role Updated')).toBeVisible();
    await expect(page.getByRole('row', { name: byNick }).getByText('Vendor')).toBeVisible();

    // the admin's own row offers no role change; the audit log is not theirs
    await page.goto('/admin/users?q=admin%40pindex.test');
    await expect(page.getByRole('row', { name: /AdminAlex/ })).toBeVisible();
    await expect(trigger(page.getByRole('row', { name: /AdminAlex/ }), 'Change role of AdminAlex')).toHaveCount(0);
    const denied = await page.goto('/admin/audit-logs');
    expect(denied?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  });

  test('pins and organizations: add a pin with a photo, feature it, delete it; organizations', async ({ page, signInAs }, info) => {
    const name = `Admin Walk Pin ${info.project.name}`;
    const org = `Walk League ${info.project.name}`;
    await signInAs('admin');

    // an organization first, through its dialog
    await page.goto('/admin/pins/organizations');
    await expect(page.getByRole('heading', { name: 'Pin Database Management' })).toBeVisible();
    await trigger(page, 'Add Organization').click();
    let dialog = step(page);
    await dialog.getByLabel('Name').fill(org);
    await dialog.getByRole('button', { name: 'Create Organization' }).click();
    await expect(page.getByText('Organization created')).toBeVisible();

    await page.goto('/admin/pins');
    await expect(page.getByRole('link', { name: /Pins \(/ })).toHaveAttribute('aria-current', 'page');
    await trigger(page, 'Add Pin').click();
    dialog = step(page);
    await expect(dialog.getByRole('heading', { name: 'Add New Pin' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Create Pin' }).click();
    await expect(step(page).getByText('Organization is required')).toBeVisible();
    dialog = step(page);
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Organization').selectOption({ label: org });
    await dialog.getByLabel('Total Quantity').fill('40');
    if (info.project.name === 'js') await dialog.getByLabel('Add photos').setInputFiles({ name: 'pin.png', mimeType: 'image/png', buffer: await png() });
    await dialog.getByRole('button', { name: 'Create Pin' }).click();
    await expect(page.getByText('Pin created')).toBeVisible();

    await page.goto(`/admin/pins?q=${encodeURIComponent(name)}`);
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row.getByText(org)).toBeVisible();
    await expect(row.getByText('Ultra Rare')).toBeVisible();
    await row.getByRole('checkbox', { name: `Select ${name}` }).check();
    await page.getByRole('button', { name: /^Feature/ }).click();
    await expect(page.getByText('1 pin featured.')).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(name) }).getByText('Featured', { exact: true })).toBeVisible();

    // the organization now has a pin: it cannot be deleted
    await page.goto(`/admin/pins/organizations?q=${encodeURIComponent(org)}`);
    await trigger(page.getByRole('row', { name: new RegExp(org) }), `Delete ${org}`).click();
    await expect(step(page).getByText('You cannot delete an organization that has pins associated with it.')).toBeVisible();
    await step(page).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Error deleting organization')).toBeVisible();

    await page.goto(`/admin/pins?q=${encodeURIComponent(name)}`);
    await trigger(page.getByRole('row', { name: new RegExp(name) }), `Delete ${name}`).click();
    await expect(step(page).getByText(/also delete all associated identification records/)).toBeVisible();
    await step(page).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Pin deleted')).toBeVisible();
    await expect(page.getByText('No pins found.')).toBeVisible();
    await expect(page.getByText('Try adjusting your filters.')).toBeVisible();
  });
});

test.describe('super admin', () => {
  test('dashboard, teams (create, details, transfer, delete), the audit log and a vendor review', async ({ page, signInAs }, info) => {
    const name = `Walk Team ${info.project.name}`;
    await signInAs('superAdmin');
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByTestId('stat-pins')).toHaveText(/\d/);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Teams', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/teams$/);
    await expect(page.getByRole('heading', { name: 'Team Management' })).toBeVisible();
    await trigger(page, 'Create Team').click();
    let dialog = step(page);
    await expect(dialog.getByRole('heading', { name: 'Create New Team' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Create Team' }).click();
    await expect(step(page).getByText('Manager is required')).toBeVisible();
    dialog = step(page);
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Location').fill('Bayside, MD');
    await dialog.getByLabel('Manager').selectOption({ label: 'CoachMorgan (manager@pindex.test)' });
    await dialog.getByRole('button', { name: 'Create Team' }).click();
    await expect(page.getByText('Team Created')).toBeVisible();

    await page.goto(`/admin/teams?q=${encodeURIComponent(name)}`);
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row.getByText('CoachMorgan')).toBeVisible();
    await row.getByRole('link', { name: `View details of ${name}` }).click();
    await expect(page.getByRole('heading', { name: 'Team Information' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Team Staff' })).toBeVisible();
    await expect(page.getByText('team.create').first()).toBeVisible();

    await page.goto(`/admin/teams?q=${encodeURIComponent(name)}`);
    await trigger(page.getByRole('row', { name: new RegExp(name) }), `Transfer ownership of ${name}`).click();
    dialog = step(page);
    await expect(dialog.getByLabel('New manager').locator('option', { hasText: 'manager@pindex.test' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Transfer Ownership' }).click();
    await expect(step(page).getByText('New manager is required')).toBeVisible();

    await page.goto(`/admin/teams?q=${encodeURIComponent(name)}`);
    await trigger(page.getByRole('row', { name: new RegExp(name) }), `Delete ${name}`).click();
    await expect(step(page).getByText(/cannot be undone and will remove all associated data/)).toBeVisible();
    await step(page).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Team Deleted')).toBeVisible();
    await expect(page.getByText('No teams found')).toBeVisible();

    await page.goto('/admin/audit-logs?targetType=team');
    await expect(page.getByRole('heading', { name: 'Audit Logs' })).toBeVisible();
    await expect(page.getByRole('row', { name: /team\.delete/ }).first()).toBeVisible();

    // a vendor application moved under review, its history shown
    await page.goto('/admin/vendors?status=pending');
    await page.getByRole('link', { name: 'Review Casey’s Pin Corner' }).click();
    await page.getByLabel('New status').selectOption('under_review');
    await page.getByLabel('Notes').fill('Checking the licence');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Application updated')).toBeVisible();
  });

  test('the dashboard and each page at a phone’s width', async ({ page, signInAs }, info) => {
    // a look for people changing the layout (ADMIN_SCREENSHOTS=<folder>), not part of every run
    test.skip(info.project.name !== 'js' || !process.env.ADMIN_SCREENSHOTS, 'set ADMIN_SCREENSHOTS to take the phone screenshots');
    await signInAs('superAdmin');
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, heading] of [
      ['/admin', 'Admin Dashboard'],
      ['/admin/users', 'User Management'],
      ['/admin/pins', 'Pin Database Management'],
      ['/admin/pins/organizations', 'Pin Database Management'],
      ['/admin/teams', 'Team Management'],
      ['/admin/audit-logs', 'Audit Logs'],
      ['/admin/analytics', 'Analytics'],
      ['/admin/vendors', 'Vendor Management'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      await page.screenshot({ path: `${process.env.ADMIN_SCREENSHOTS}/${path.replace(/\//g, '_')}.png`, fullPage: true });
    }
    await page.goto('/admin');
    await page.getByRole('link', { name: 'View pins' }).click();
    await expect(page).toHaveURL(/\/admin\/pins$/);
  });
});
