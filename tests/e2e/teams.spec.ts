/**
 * The Teams area as a manager, a coach and a player use it, with JavaScript on and off: /teams
 * (four tabs, their forms and lists, logo, delete with its confirm step) and /teams/{id}.
 * Each worker has its own server and database; each project still names what it creates after itself.
 */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect as baseExpect, test } from './support';

const DEMO_TEAM = 'Springfield Thunder 12U';
// a form's answer (a sign-in's scrypt, an image's encoding) beside the other engineers' runs on two cores
const expect = baseExpect.configure({ timeout: 20_000 });

const png = () => sharp({ create: { width: 120, height: 120, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();

/** The confirm step: a dialog with JavaScript, a server-rendered alertdialog without. */
const confirmStep = (page: Page) => page.locator('[role="dialog"], [role="alertdialog"]');
const tabs = (page: Page) => page.getByRole('navigation', { name: 'Team management sections' });

// signing in is slow on purpose (scrypt), and the two projects share two busy cores
test.describe.configure({ timeout: 120_000 });

test.describe('Teams as the manager', () => {
  test('create a team, upload its logo, delete it with its confirm step', async ({ page, signInAs }, info) => {
    const name = `Harbor Hawks ${info.project.name}`;
    await signInAs('manager');
    await page.goto('/teams');
    await expect(page.getByRole('heading', { name: 'Team Management' })).toBeVisible();
    for (const tab of ['Teams', 'Players', 'Coaches', 'Pin Inventory']) await expect(tabs(page).getByRole('link', { name: tab, exact: true })).toBeVisible();
    const demoCard = page.getByTestId('team-card').filter({ hasText: DEMO_TEAM });
    await expect(demoCard.getByText('Manager', { exact: true })).toBeVisible();

    // a blank name is refused with the spec's message
    await page.getByRole('button', { name: 'Create Team' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();

    await page.getByLabel('Team Name').fill(name);
    await page.getByLabel('Location').fill('Bayside, MD');
    await page.getByLabel('Description').fill('10U travel team');
    await page.getByRole('button', { name: 'Create Team' }).click();
    await expect(page.getByText('Team created successfully!')).toBeVisible();
    const card = page.getByTestId('team-card').filter({ hasText: name });
    await expect(card).toBeVisible();
    await expect(card.getByText('Bayside, MD')).toBeVisible();
    await expect(card.getByText('JPG, PNG, or GIF (max 5MB)')).toBeVisible();

    // a PDF as logo: 'Invalid file type' / 'Please select an image file.'
    await card.getByLabel('Team Logo').setInputFiles({ name: 'roster.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 not an image') });
    await card.getByRole('button', { name: 'Upload Logo' }).click();
    await expect(page.getByText('Invalid file type').first()).toBeVisible();
    await expect(page.getByText('Please select an image file.').first()).toBeVisible();

    await page.goto('/teams');
    const again = page.getByTestId('team-card').filter({ hasText: name });
    await again.getByLabel('Team Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await png() });
    await again.getByRole('button', { name: 'Upload Logo' }).click();
    await expect(page.getByText('Team logo updated')).toBeVisible();
    await expect(page.getByTestId('team-card').filter({ hasText: name }).getByRole('img', { name: `${name} logo` })).toBeVisible();

    await page.getByTestId('team-card').filter({ hasText: name }).getByRole('button', { name: 'Delete' }).or(page.getByTestId('team-card').filter({ hasText: name }).getByRole('link', { name: 'Delete' })).click();
    const step = confirmStep(page);
    await expect(step.getByText('Are you sure you want to delete this team? This action cannot be undone.')).toBeVisible();
    await expect(step.getByText(/pins stay in the pin database/)).toBeVisible();
    await step.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Team deleted successfully!')).toBeVisible();
    await expect(page.getByTestId('team-card').filter({ hasText: name })).toHaveCount(0);
  });

  test('add a player, a coach and a team pin through the tabs', async ({ page, signInAs }, info) => {
    const js = info.project.name === 'js';
    const player = `Riley Quinn ${info.project.name}`;
    await signInAs('manager');

    await page.goto('/teams?tab=players');
    await page.getByLabel('Team', { exact: true }).selectOption({ label: DEMO_TEAM });
    await page.getByRole('button', { name: 'Add Player' }).click();
    await expect(page.getByText('Player name is required')).toBeVisible();
    await page.getByLabel('Player Name').fill(player);
    await page.getByLabel('Position').selectOption('Shortstop');
    await page.getByLabel('Jersey Number').fill('2'); // Eli Carter's
    await page.getByRole('button', { name: 'Add Player' }).click();
    await expect(page.getByText('Error adding player')).toBeVisible();
    await expect(page.getByText('Jersey number 2 is already worn by an active player on this team').first()).toBeVisible();
    await page.getByLabel('Jersey Number').fill(js ? '71' : '72');
    await page.getByRole('button', { name: 'Add Player' }).click();
    await expect(page.getByText('Player added successfully!')).toBeVisible();

    await tabs(page).getByRole('link', { name: 'Coaches', exact: true }).click();
    await page.getByLabel('Team', { exact: true }).selectOption({ label: DEMO_TEAM });
    await page.getByLabel('Coach Name').fill('nobody@nowhere.test');
    await page.getByRole('button', { name: 'Add Coach' }).click();
    await expect(page.getByText('Error adding staff member')).toBeVisible();
    await expect(page.getByText(/No PinDex account matches "nobody@nowhere.test"/).first()).toBeVisible();
    await page.getByLabel('Coach Name').fill(js ? 'collector1@pindex.test' : 'collector2@pindex.test');
    await page.getByRole('button', { name: 'Add Coach' }).click();
    await expect(page.getByText('Staff member added successfully!')).toBeVisible();

    await tabs(page).getByRole('link', { name: 'Pin Inventory', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Team Pins' })).toBeVisible();
    await page.getByLabel('Team', { exact: true }).selectOption({ label: DEMO_TEAM });
    await page.getByLabel('Total Quantity').fill('0');
    await page.getByLabel('Total Quantity').press('Enter');
    await expect(page.getByText('Pin name is required')).toBeVisible();
    await expect(page.getByText('Quantity must be at least 1')).toBeVisible();
    const pinName = `Thunder Lightning Bolt ${info.project.name}`;
    await page.getByLabel('Pin Name').fill(pinName);
    await page.getByLabel('Total Quantity').fill('1625');
    await page.getByLabel('Year').fill('2026');
    await page.getByLabel('Event').fill('Cooperstown Dreams Park');
    await page.getByLabel('Photos').setInputFiles({ name: 'pin.png', mimeType: 'image/png', buffer: await png() });
    await page.getByRole('button', { name: 'Create Pin' }).click();
    await expect(page.getByText('Team pin created successfully!')).toBeVisible({ timeout: 20_000 });
    await page.getByRole('link', { name: new RegExp(pinName) }).first().click();
    await expect(page).toHaveURL(/\/pins\/[a-z0-9]+/);
    await expect(page.getByRole('heading', { name: pinName })).toBeVisible();
  });

  test('team detail: header, tabs with counts, edit and remove a player', async ({ page, signInAs }, info) => {
    const player = `Drew Hale ${info.project.name}`;
    await signInAs('manager');
    await page.goto('/teams?tab=players');
    await page.getByLabel('Team', { exact: true }).selectOption({ label: DEMO_TEAM });
    await page.getByLabel('Player Name').fill(player);
    await page.getByRole('button', { name: 'Add Player' }).click();
    await expect(page.getByText('Player added successfully!')).toBeVisible();

    await page.goto('/teams');
    await page.getByRole('link', { name: DEMO_TEAM, exact: true }).click();
    await expect(page.getByRole('heading', { name: DEMO_TEAM, level: 1 })).toBeVisible();
    await expect(page.getByText('Springfield, IL')).toBeVisible();
    await expect(page.getByRole('article').getByText('CoachMorgan')).toBeVisible();
    await expect(page.getByTestId('member-count')).toHaveText(/\d+ members/);
    await expect(page.getByRole('link', { name: /^Players \d+$/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /^Staff \d+$/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Team Pins' })).toBeVisible();

    const row = page.getByTestId('roster-row').filter({ hasText: player });
    await row.getByRole('link', { name: `Edit ${player}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Player Details' });
    await expect(edit).toBeVisible();
    await edit.getByLabel('Position').selectOption('Catcher');
    await edit.getByLabel('Jersey Number').fill('2');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Error updating player')).toBeVisible();
    await page.getByRole('dialog', { name: 'Edit Player Details' }).getByLabel('Jersey Number').fill('');
    await page.getByRole('dialog', { name: 'Edit Player Details' }).getByLabel('Active').uncheck();
    await page.getByRole('dialog', { name: 'Edit Player Details' }).getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Player updated successfully!')).toBeVisible();
    const updated = page.getByTestId('roster-row').filter({ hasText: player });
    await expect(updated.getByText('Catcher')).toBeVisible();
    await expect(updated.getByText('Inactive')).toBeVisible();

    await updated.getByRole('button', { name: 'Remove' }).or(updated.getByRole('link', { name: 'Remove' })).click();
    const step = confirmStep(page);
    await expect(step.getByText(`Are you sure you want to remove ${player} from the roster?`)).toBeVisible();
    await step.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Player removed successfully!')).toBeVisible();
    await expect(page.getByTestId('roster-row').filter({ hasText: player })).toHaveCount(0);

    await page.getByRole('link', { name: /^Staff \d+$/ }).click();
    await expect(page.getByText('assistant coach').first()).toBeVisible();
    await page.getByRole('link', { name: 'Back to Teams' }).click();
    await expect(page).toHaveURL(/\/teams$/);
  });
});

test.describe('Roster tools as the manager', () => {
  test('import players from a CSV, invite one of them, the family joins; order a team pin', async ({ page, browser, signInAs, server }, info) => {
    const kid = `Sky Rivera ${info.project.name}`;
    await signInAs('manager');
    await page.goto('/teams');
    await page.getByRole('link', { name: DEMO_TEAM, exact: true }).click();
    await expect(page.getByRole('heading', { name: DEMO_TEAM, level: 1 })).toBeVisible();
    const teamUrl = page.url();

    // a file with a bad line is refused whole, naming the line
    const csv = (text: string) => ({ name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
    await page.getByLabel('Import players from a CSV file').setInputFiles(csv(`Name,Position,Jersey\n${kid},SS,\n,Catcher,\n`));
    await page.getByRole('button', { name: 'Import Roster' }).click();
    await expect(page.getByText('The roster was not imported')).toBeVisible();
    await expect(page.getByText('Line 3: Player name is required')).toBeVisible();
    await expect(page.getByTestId('roster-row').filter({ hasText: kid })).toHaveCount(0);

    await page.getByLabel('Import players from a CSV file').setInputFiles(csv(`Name,Position,Jersey\n${kid},SS,\n`));
    await page.getByRole('button', { name: 'Import Roster' }).click();
    await expect(page.getByText('1 added, 0 updated.')).toBeVisible();
    const row = page.getByTestId('roster-row').filter({ hasText: kid });
    await expect(row.getByText('Shortstop')).toBeVisible();

    // an invite link for the new player; the family opens it signed in and joins
    await row.getByRole('button', { name: `Make an invite link for ${kid}` }).click();
    await expect(page.getByText('Invite link created')).toBeVisible();
    const link = await page.getByRole('textbox', { name: `Invite link for ${kid}` }).inputValue();
    expect(link).toMatch(/\/join\/[A-Za-z0-9_-]{20,}$/);

    const family = await browser.newContext({ baseURL: server.url, javaScriptEnabled: info.project.name === 'js' });
    await signInAs('player', family);
    const parent = await family.newPage();
    await parent.goto(new URL(link).pathname);
    await expect(parent.getByRole('heading', { name: DEMO_TEAM })).toBeVisible();
    await parent.getByRole('button', { name: `Join as ${kid}` }).click();
    await expect(parent.getByText(`Welcome to ${DEMO_TEAM}!`)).toBeVisible();
    await expect(parent.getByRole('heading', { name: DEMO_TEAM, level: 1 })).toBeVisible();
    await parent.goto(new URL(link).pathname);
    await expect(parent.getByText(`You are on the roster as ${kid}.`)).toBeVisible();
    await family.close();
    // anyone else opening the used link is told why it no longer works, after the page has started too
    const other = await browser.newContext({ baseURL: server.url, javaScriptEnabled: info.project.name === 'js' });
    const stranger = await other.newPage();
    await stranger.goto(new URL(link).pathname, { waitUntil: 'networkidle' });
    await expect(stranger.getByRole('alert')).toHaveText('This player is already linked to another account. Ask the team manager for help.');
    await other.close();

    await page.goto(teamUrl);
    await expect(page.getByTestId('roster-row').filter({ hasText: kid }).getByText('Account: player@pindex.test')).toBeVisible();
    await expect(page.getByTestId('roster-row').filter({ hasText: kid }).getByRole('button', { name: /^Make an invite link/ })).toHaveCount(0);

    // a pin order: shares that do not add up are refused, an even split is saved
    await page.getByRole('link', { name: /^(Order|Change order)$/ }).first().click();
    await expect(page.getByRole('heading', { name: 'Pin order' })).toBeVisible();
    await page.getByLabel('Quantity ordered').fill('130');
    await page.getByLabel('Set each player’s share').check();
    await page.getByLabel(kid).fill('5');
    await page.getByRole('button', { name: 'Save Order' }).click();
    await expect(page.getByText(/The players’ shares add up to [\d,]+, but the order is 130/)).toBeVisible();
    await expect(page.getByLabel('Set each player’s share')).toBeChecked();
    await expect(page.getByLabel(kid)).toHaveValue('5');
    await page.getByLabel('Split evenly among the active players').check();
    await page.getByRole('button', { name: 'Save Order' }).click();
    await expect(page.getByText('Pin order saved')).toBeVisible();
    await expect(page.getByTestId('pin-order-quantity').filter({ hasText: '130' }).first()).toBeVisible();
  });
});

test.describe('Teams as others', () => {
  test('a player sees their team without the manager controls; unknown teams and visitors', async ({ page, signInAs }) => {
    await page.goto('/teams');
    await expect(page.getByRole('heading', { name: 'Team Access Required' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In to Continue' })).toBeVisible();
    const visitor = await page.goto('/teams/anything');
    expect(visitor?.status()).toBe(404);

    await signInAs('player');
    await page.goto('/teams');
    const card = page.getByTestId('team-card').filter({ hasText: DEMO_TEAM });
    await expect(card).toBeVisible();
    await expect(card.getByText('Manager', { exact: true })).toHaveCount(0);
    await expect(card.getByRole('link', { name: 'Delete' }).or(card.getByRole('button', { name: 'Delete' }))).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Create Team' })).toHaveCount(0);
    await tabs(page).getByRole('link', { name: 'Players', exact: true }).click();
    await expect(page.getByText('No team to manage yet')).toBeVisible();

    await page.goto('/teams');
    await page.getByRole('link', { name: DEMO_TEAM, exact: true }).click();
    await expect(page.getByRole('heading', { name: DEMO_TEAM, level: 1 })).toBeVisible();
    await expect(page.getByText('Parker Player')).toBeVisible();
    await expect(page.getByRole('link', { name: /^Edit / })).toHaveCount(0);

    const unknown = await page.goto('/teams/no-such-team');
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Team Not Found' })).toBeVisible();
  });
});
