/**
 * What a youth-team manager expects beyond the spec: invite links to the roster, the roster as a
 * CSV both ways, and a pin order per team pin split among the players. Services and their /api
 * calls, by every kind of caller.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUserSession } from '~/auth/session.server';
import { db } from '~/db/index.server';
import { rosters, teamInvites, teamPinAllocations, teamPinOrders, type Role } from '~/db/schema';
import { action as acceptAction } from '~/routes/api.invites.$token.accept';
import { action as invitesAction, loader as invitesLoader } from '~/routes/api.teams.$id.invites';
import { action as revokeAction } from '~/routes/api.teams.$id.invites.$inviteId';
import { action as orderAction, loader as orderLoader } from '~/routes/api.teams.$id.pins.$pinId.order';
import { action as importAction } from '~/routes/api.teams.$id.players.import';
import { loader as csvLoader } from '~/routes/teams_.$id.roster[.]csv';
import { acceptInvite, createInvite, previewInvite } from '~/services/team-invites.server';
import { evenSplit, getPinOrder, setPinOrder } from '~/services/team-pin-orders.server';
import { importRosterCsv, rosterCsv } from '~/services/team-roster-csv.server';
import { addPlayer, createTeam, deleteTeam, getTeamDetails, listMyTeams } from '~/services/teams.server';
import { createPin, createUser } from '../support/factories';

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<Response>;

async function session(role: Role) {
  const user = await createUser({ role });
  const cookie = (await createUserSession(new Request('http://localhost/'), user.id)).split(';')[0];
  return { user, cookie };
}

function request(url: string, init: RequestInit & { cookie?: string; json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set('Cookie', init.cookie);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return new Request(`http://localhost${url}`, { method: init.method ?? 'GET', headers, body });
}

async function call(handler: Handler, req: Request, params: Record<string, string> = {}) {
  const response = await handler({ request: req, params, context: {} });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, body: body as Record<string, unknown> };
}

async function teamWithRoster(count = 3) {
  const manager = await session('manager');
  const team = await createTeam(manager.user, { name: `Bayside ${count}` });
  const players = [];
  for (let i = 0; i < count; i++) players.push(await addPlayer(manager.user, team.id, { playerName: `Player ${i + 1}`, jerseyNumber: String(i + 1) }));
  return { manager, team, players };
}

const tokenOf = (path: string) => path.split('/').pop() as string;

describe('invite links', () => {
  it('a parent opens the link, joins as the player, and sees the team in their own list', async () => {
    const { manager, team, players } = await teamWithRoster(2);
    const parent = await createUser({ role: 'player' });
    const invite = await createInvite(manager.user, team.id, players[0].id);
    expect(invite.path).toMatch(/^\/join\/[A-Za-z0-9_-]{20,}$/);
    expect(await previewInvite(null, tokenOf(invite.path))).toMatchObject({ teamName: team.name, playerName: 'Player 1', status: 'active', alreadyJoined: false });

    expect(await listMyTeams(parent)).toEqual([]);
    expect(await acceptInvite(parent, tokenOf(invite.path))).toEqual({ teamId: team.id, teamName: team.name, playerName: 'Player 1' });
    expect((await listMyTeams(parent)).map((t) => [t.id, t.relation])).toEqual([[team.id, 'player']]);
    expect((await getTeamDetails(parent, team.id)).roster.find((r) => r.id === players[0].id)?.email).toBe(parent.email);
    // opening it again is fine for the same account, and the link is used up for anyone else
    expect((await acceptInvite(parent, tokenOf(invite.path))).teamId).toBe(team.id);
    expect(await previewInvite(parent, tokenOf(invite.path))).toMatchObject({ status: 'accepted', alreadyJoined: true });
    const someoneElse = await createUser({ role: 'player' });
    await expect(acceptInvite(someoneElse, tokenOf(invite.path))).rejects.toMatchObject({ status: 409 });
    // a second link for the linked player is refused
    await expect(createInvite(manager.user, team.id, players[0].id)).rejects.toMatchObject({ status: 409 });
  });

  it('expired and revoked links answer 410 and join nobody; unknown ones 404', async () => {
    const { manager, team, players } = await teamWithRoster(2);
    const parent = await createUser({ role: 'player' });
    const expired = await createInvite(manager.user, team.id, players[0].id);
    await db().update(teamInvites).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(teamInvites.token, tokenOf(expired.path)));
    await expect(acceptInvite(parent, tokenOf(expired.path))).rejects.toMatchObject({ status: 410, message: expect.stringContaining('expired') });

    const revoked = await createInvite(manager.user, team.id, players[1].id);
    const res = await call(revokeAction as Handler, request(`/api/teams/${team.id}/invites/${revoked.id}`, { method: 'DELETE', cookie: manager.cookie }), { id: team.id, inviteId: revoked.id });
    expect(res).toEqual({ status: 200, body: { message: 'Invite link revoked', id: revoked.id, playerName: 'Player 2' } });
    await expect(acceptInvite(parent, tokenOf(revoked.path))).rejects.toMatchObject({ status: 410, message: expect.stringContaining('revoked') });
    await expect(acceptInvite(parent, 'not-a-real-token-at-all')).rejects.toMatchObject({ status: 404 });
    const roster = await db().select().from(rosters).where(eq(rosters.teamId, team.id));
    expect(roster.every((r) => r.playerId === null)).toBe(true);
  });

  it('the calls: visitor 401, player 403, another manager 403, the manager and an admin succeed; accept needs a session', async () => {
    const { manager, team, players } = await teamWithRoster(1);
    const player = await session('player');
    const other = await session('manager');
    const admin = await session('admin');
    const make = (cookie: string) => call(invitesAction as Handler, request(`/api/teams/${team.id}/invites`, { method: 'POST', cookie, json: { rosterId: players[0].id } }), { id: team.id });
    expect((await make('')).status).toBe(401);
    expect((await make(player.cookie)).status).toBe(403);
    expect((await make(other.cookie)).status).toBe(403);
    const made = await make(manager.cookie);
    expect(made.status).toBe(201);
    expect((await make(admin.cookie)).status).toBe(201);
    expect((await call(invitesLoader as Handler, request(`/api/teams/${team.id}/invites`, { cookie: player.cookie }), { id: team.id })).status).toBe(403);
    const listed = await call(invitesLoader as Handler, request(`/api/teams/${team.id}/invites`, { cookie: manager.cookie }), { id: team.id });
    expect(listed.body.invites).toHaveLength(2);
    // a roster id of another team, and none at all
    const elsewhere = await teamWithRoster(1);
    expect((await call(invitesAction as Handler, request(`/api/teams/${team.id}/invites`, { method: 'POST', cookie: manager.cookie, json: { rosterId: elsewhere.players[0].id } }), { id: team.id })).status).toBe(404);
    expect((await call(invitesAction as Handler, request(`/api/teams/${team.id}/invites`, { method: 'POST', cookie: manager.cookie, json: {} }), { id: team.id })).status).toBe(404);
    // revoking another team's invite through this team is not found
    expect((await call(revokeAction as Handler, request(`/api/teams/${elsewhere.team.id}/invites/x`, { method: 'DELETE', cookie: other.cookie }), { id: elsewhere.team.id, inviteId: String(made.body.id) })).status).toBe(403);

    const token = tokenOf(String(made.body.path));
    expect((await call(acceptAction as Handler, request(`/api/invites/${token}/accept`, { method: 'POST' }), { token })).status).toBe(401);
    const accepted = await call(acceptAction as Handler, request(`/api/invites/${token}/accept`, { method: 'POST', cookie: player.cookie }), { token });
    expect(accepted).toEqual({ status: 200, body: { teamId: team.id, teamName: team.name, playerName: 'Player 1' } });
  });

  it('deleting the team removes its invites and pin orders, and says so', async () => {
    const { manager, team, players } = await teamWithRoster(2);
    await createInvite(manager.user, team.id, players[0].id);
    const pin = await createPin({ teamId: team.id });
    await setPinOrder(manager.user, team.id, pin.id, { quantity: 250 });
    const deleted = await deleteTeam(manager.user, team.id);
    expect(deleted.removedPlayers).toBe(2);
    expect(await db().select().from(teamInvites).where(eq(teamInvites.teamId, team.id))).toEqual([]);
    expect(await db().select().from(teamPinOrders).where(eq(teamPinOrders.teamId, team.id))).toEqual([]);
  });
});

describe('roster CSV', () => {
  it('exports the roster and imports adds and updates in one go', async () => {
    const { manager, team } = await teamWithRoster(2);
    const csv = '\ufeffName,Position,Jersey Number\r\nPlayer 1,SS,12\r\n"O\'Neil, Sam",catcher,#5\r\nAva Lee,,\r\n';
    expect(await importRosterCsv(manager.user, team.id, csv)).toEqual({ added: 2, updated: 1 });
    const details = await getTeamDetails(manager.user, team.id);
    const byName = Object.fromEntries(details.roster.map((r) => [r.playerName, [r.position, r.jerseyNumber]]));
    expect(byName).toEqual({ 'Player 1': ['Shortstop', '12'], 'Player 2': [null, '2'], "O'Neil, Sam": ['Catcher', '5'], 'Ava Lee': [null, null] });

    const exported = await rosterCsv(manager.user, team.id);
    const lines = exported.csv.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Name,Position,Jersey Number,Active');
    expect(lines.slice(1)).toEqual(['Player 2,,2,yes', '"O\'Neil, Sam",Catcher,5,yes', 'Player 1,Shortstop,12,yes', 'Ava Lee,,,yes']);
    // an exported file imports back without changes to the roster's size
    expect(await importRosterCsv(manager.user, team.id, exported.csv)).toEqual({ added: 0, updated: 4 });
  });

  it('refuses a file with bad lines whole, naming each line, and writes nothing', async () => {
    const { manager, team } = await teamWithRoster(2);
    const before = await db().select().from(rosters).where(eq(rosters.teamId, team.id));
    const bad = 'Name,Position,Jersey\nNew Kid,Pitcher,7\n,Catcher,8\nOther Kid,Goalie,9\nThird Kid,,7\n';
    await expect(importRosterCsv(manager.user, team.id, bad)).rejects.toMatchObject({
      status: 400,
      issues: { file: ['Line 3: Player name is required', 'Line 4: Choose a position from the list ("Goalie")', 'Line 5: jersey number 7 is already on line 2'] },
    });
    // a number worn by a player the file leaves alone
    await expect(importRosterCsv(manager.user, team.id, 'New Kid,Pitcher,2\n')).rejects.toMatchObject({ status: 400, issues: { file: ['Line 1: jersey number 2 is worn by Player 2'] } });
    expect(await db().select().from(rosters).where(eq(rosters.teamId, team.id))).toEqual(before);
    // two players may swap numbers in one file
    expect(await importRosterCsv(manager.user, team.id, 'Player 1,,2\nPlayer 2,,1\n')).toEqual({ added: 0, updated: 2 });
  });

  it('the calls: visitor 401, player 403, another manager 403; empty, too large and unreadable files 4xx', async () => {
    const { manager, team } = await teamWithRoster(1);
    const player = await session('player');
    const other = await session('manager');
    const post = (cookie: string, body: BodyInit, type = 'text/csv') =>
      call(importAction as Handler, request(`/api/teams/${team.id}/players/import`, { method: 'POST', cookie, body, headers: type ? { 'Content-Type': type } : {} }), { id: team.id });
    expect((await post('', 'A,,1')).status).toBe(401);
    expect((await post(player.cookie, 'A,,1')).status).toBe(403);
    expect((await post(other.cookie, 'A,,1')).status).toBe(403);
    expect(await post(manager.cookie, '')).toMatchObject({ status: 400, body: { error: 'Choose a CSV file with the roster.' } });
    expect((await post(manager.cookie, 'x'.repeat(101 * 1024))).status).toBe(413);
    expect((await post(manager.cookie, 'Name\n"unclosed')).status).toBe(400);
    const form = new FormData();
    form.append('file', new Blob(['Name,Jersey\nZoe Park,21\n'], { type: 'text/csv' }), 'roster.csv');
    expect(await post(manager.cookie, form, '')).toEqual({ status: 200, body: { added: 1, updated: 0 } });

    const csv = (cookie: string) => csvLoader({ request: request(`/teams/${team.id}/roster.csv`, { cookie }), params: { id: team.id }, context: {} });
    const ok = await csv(manager.cookie);
    expect(ok.headers.get('Content-Type')).toContain('text/csv');
    expect(await ok.text()).toContain('Zoe Park,,21,yes');
    await expect(csv(player.cookie)).rejects.toMatchObject({ status: 403 });
    await expect(csv('')).rejects.toMatchObject({ status: 404 });
  });
});

describe('team pin orders', () => {
  it('splits evenly among active players, the first by number getting the remainder', () => {
    expect([...evenSplit(10, [{ id: 'a' }, { id: 'b' }, { id: 'c' }]).values()]).toEqual([4, 3, 3]);
    expect(evenSplit(5, []).size).toBe(0);
  });

  it('an order starts at 125 a player, splits evenly, and takes custom shares that add up', async () => {
    const { manager, team, players } = await teamWithRoster(3);
    const pin = await createPin({ teamId: team.id });
    const fresh = await getPinOrder(manager.user, team.id, pin.id);
    expect(fresh).toMatchObject({ quantity: null, suggestedQuantity: 375, split: 'even', canManage: true });

    const even = await setPinOrder(manager.user, team.id, pin.id, { quantity: 400 });
    expect(even.shares.map((s) => [s.playerName, s.quantity])).toEqual([['Player 1', 134], ['Player 2', 133], ['Player 3', 133]]);

    const custom = await setPinOrder(manager.user, team.id, pin.id, { quantity: 300, shares: { [players[0].id]: 200, [players[1].id]: 100 } });
    expect(custom.split).toBe('custom');
    expect(custom.shares.map((s) => s.quantity)).toEqual([200, 100, 0]);

    await expect(setPinOrder(manager.user, team.id, pin.id, { quantity: 300, shares: { [players[0].id]: 10 } })).rejects.toMatchObject({
      status: 400,
      message: 'The players’ shares add up to 10, but the order is 300',
    });
    await expect(setPinOrder(manager.user, team.id, pin.id, { quantity: 0 })).rejects.toMatchObject({ status: 400, issues: { quantity: ['Quantity must be at least 1'] } });
    await expect(setPinOrder(manager.user, team.id, pin.id, { quantity: 10, shares: { [players[0].id]: -1, [players[1].id]: 11 } })).rejects.toMatchObject({ status: 400 });
    // nothing of the refused changes was written
    const rows = await db().select().from(teamPinAllocations);
    expect(rows.filter((r) => players.some((p) => p.id === r.rosterId)).map((r) => r.quantity).sort()).toEqual([0, 100, 200]);
    // back to an even split
    expect((await setPinOrder(manager.user, team.id, pin.id, { quantity: 300, shares: null })).shares.map((s) => s.quantity)).toEqual([100, 100, 100]);
  });

  it('the calls: members read, only the manager and admins write; a pin of another team is 404', async () => {
    const { manager, team, players } = await teamWithRoster(2);
    const pin = await createPin({ teamId: team.id });
    const outsider = await session('player');
    const member = await session('player');
    await acceptInvite(member.user, tokenOf((await createInvite(manager.user, team.id, players[0].id)).path));
    const admin = await session('admin');
    const get = (cookie: string, pinId = pin.id) => call(orderLoader as Handler, request(`/api/teams/${team.id}/pins/${pinId}/order`, { cookie }), { id: team.id, pinId });
    const put = (cookie: string, json: unknown) => call(orderAction as Handler, request(`/api/teams/${team.id}/pins/${pin.id}/order`, { method: 'PUT', cookie, json }), { id: team.id, pinId: pin.id });
    expect((await get('')).status).toBe(401);
    expect((await get(outsider.cookie)).status).toBe(403);
    expect((await get(member.cookie)).body).toMatchObject({ canManage: false, quantity: null });
    expect((await put(member.cookie, { quantity: 10 })).status).toBe(403);
    expect((await put('', { quantity: 10 })).status).toBe(401);
    expect((await put(manager.cookie, { quantity: 'lots' })).status).toBe(400);
    expect(await put(manager.cookie, { quantity: 250 })).toMatchObject({ status: 200, body: { quantity: 250, split: 'even' } });
    expect((await put(admin.cookie, { quantity: 260 })).status).toBe(200);
    const foreign = await createPin();
    expect((await get(manager.cookie, foreign.id)).status).toBe(404);
  });
});
