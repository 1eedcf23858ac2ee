/**
 * The teams service against a real database (both drivers): teams, roster, staff, logo, team pins,
 * deletion, and who may do each of them.
 */
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Actor } from '~/auth/permissions';
import { db } from '~/db/index.server';
import { auditLogs, pins, rosters, staff, teams, userCollections } from '~/db/schema';
import {
  addPlayer,
  addStaff,
  createTeam,
  createTeamPin,
  deleteTeam,
  getTeamDetails,
  listMyTeams,
  listTeamPins,
  listUserTeamPins,
  noAccountMessage,
  removePlayer,
  updatePlayer,
  updateTeamLogo,
} from '~/services/teams.server';
import { createPin as makePin, createUser } from '../support/factories';

async function png(color = { r: 200, g: 30, b: 40 }, width = 64, height = 48) {
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
}

/** A team with its manager, an admin, a player, another manager and a visitor (null). */
async function world() {
  const manager = await createUser({ role: 'manager', nickname: `mgr${Math.random().toString(36).slice(2, 8)}` });
  const team = await createTeam(manager, { name: 'Springfield Thunder 12U', description: 'Travel team', location: 'Springfield, IL' });
  return {
    manager,
    team,
    admin: await createUser({ role: 'admin' }),
    player: await createUser({ role: 'player' }),
    otherManager: await createUser({ role: 'manager' }),
    visitor: null as Actor | null,
  };
}

describe('creating and listing teams', () => {
  it('a manager creates a team and manages it; it is listed with the Manager relation', async () => {
    const { manager, team } = await world();
    expect(team).toMatchObject({ name: 'Springfield Thunder 12U', location: 'Springfield, IL', description: 'Travel team', managerId: manager.id, relation: 'manager' });
    const mine = await listMyTeams(manager);
    expect(mine.map((t) => [t.id, t.relation, t.memberCount])).toEqual([[team.id, 'manager', 1]]);
    const details = await getTeamDetails(manager, team.id);
    expect(details.staff).toMatchObject([{ userId: manager.id, role: 'manager', email: manager.email }]);
  });

  it('refuses a blank name with the spec message, and players and visitors', async () => {
    const manager = await createUser({ role: 'manager' });
    await expect(createTeam(manager, { name: '   ' })).rejects.toMatchObject({ status: 400, issues: { name: ['Name is required'] } });
    await expect(createTeam(manager, { name: 'x'.repeat(101) })).rejects.toMatchObject({ status: 400, issues: { name: ['Name too long'] } });
    await expect(createTeam(await createUser({ role: 'player' }), { name: 'Mine' })).rejects.toMatchObject({ status: 403 });
    await expect(createTeam(null, { name: 'Mine' })).rejects.toMatchObject({ status: 401 });
    expect((await createTeam(await createUser({ role: 'admin' }), { name: 'Admin team' })).relation).toBe('manager');
  });

  it('the list holds the teams a user manages, coaches or plays on, and no others', async () => {
    const { manager, team, player, otherManager } = await world();
    const coach = await createUser({ role: 'assistant_coach', email: `coach-${Date.now()}@example.test` });
    expect(await listMyTeams(coach)).toEqual([]);
    await addStaff(manager, team.id, { userName: coach.email, role: 'assistant_coach' });
    expect((await listMyTeams(coach)).map((t) => [t.id, t.relation])).toEqual([[team.id, 'coach']]);
    // a player account on the roster sees it too
    await db().insert(rosters).values({ teamId: team.id, playerId: player.id, playerName: 'Parker Player' });
    expect((await listMyTeams(player)).map((t) => [t.id, t.relation, t.memberCount])).toEqual([[team.id, 'player', 3]]);
    expect(await listMyTeams(otherManager)).toEqual([]);
    await expect(listMyTeams(null)).rejects.toMatchObject({ status: 401 });
  });
});

describe('team details', () => {
  it('returns the team with its manager name, roster and staff in the spec shape', async () => {
    const { manager, team } = await world();
    await addPlayer(manager, team.id, { playerName: 'Eli Carter', position: 'Pitcher', jerseyNumber: '7' });
    await addPlayer(manager, team.id, { playerName: 'Mason Reyes', position: 'Catcher', jerseyNumber: 12 });
    await addPlayer(manager, team.id, { playerName: 'Noah Brooks' });
    const details = await getTeamDetails(manager, team.id);
    expect(details.team).toMatchObject({ id: team.id, name: team.name, managerName: manager.nickname, location: 'Springfield, IL' });
    expect(details.roster.map((r) => [r.playerName, r.position, r.jerseyNumber, r.isActive, r.email])).toEqual([
      ['Eli Carter', 'Pitcher', '7', true, null],
      ['Mason Reyes', 'Catcher', '12', true, null],
      ['Noah Brooks', null, null, true, null],
    ]);
    expect(Object.keys(details.roster[0]).sort()).toEqual(['email', 'id', 'isActive', 'jerseyNumber', 'joinedAt', 'playerName', 'position']);
    expect(Object.keys(details.staff[0]).sort()).toEqual(['email', 'id', 'isActive', 'joinedAt', 'role', 'userId', 'userName']);
  });

  it('is seen by members, the manager and admins; others get 403, visitors 401, unknown ids 404', async () => {
    const { manager, team, admin, player, otherManager } = await world();
    await expect(getTeamDetails(null, team.id)).rejects.toMatchObject({ status: 401 });
    await expect(getTeamDetails(player, team.id)).rejects.toMatchObject({ status: 403 });
    await expect(getTeamDetails(otherManager, team.id)).rejects.toMatchObject({ status: 403 });
    await expect(listTeamPins(player, team.id)).rejects.toMatchObject({ status: 403 });
    expect((await getTeamDetails(admin, team.id)).team.id).toBe(team.id);
    expect((await getTeamDetails(manager, team.id)).team.id).toBe(team.id);
    await addStaff(manager, team.id, { userName: player.email });
    expect((await getTeamDetails(player, team.id)).team.id).toBe(team.id);
    await expect(getTeamDetails(manager, 'no-such-team')).rejects.toMatchObject({ status: 404, message: 'Team Not Found' });
  });
});

describe('the roster', () => {
  it('adds players with the spec messages; a jersey number is worn by one active player only', async () => {
    const { manager, team } = await world();
    await expect(addPlayer(manager, team.id, { playerName: '' })).rejects.toMatchObject({ status: 400, issues: { playerName: ['Player name is required'] } });
    await expect(addPlayer(manager, team.id, { playerName: 'Eli', position: 'Goalie' })).rejects.toMatchObject({ status: 400, issues: { position: ['Choose a position from the list'] } });
    await expect(addPlayer(manager, team.id, { playerName: 'Eli', jerseyNumber: '-3' })).rejects.toMatchObject({ status: 400, issues: { jerseyNumber: [expect.any(String)] } });
    const eli = await addPlayer(manager, team.id, { playerName: 'Eli Carter', position: 'Shortstop', jerseyNumber: '7' });
    const taken = addPlayer(manager, team.id, { playerName: 'Liam Foster', jerseyNumber: ' 7 ' });
    await expect(taken).rejects.toMatchObject({ status: 409, issues: { jerseyNumber: ['Jersey number 7 is already worn by an active player on this team'] } });
    expect(await db().select().from(rosters).where(eq(rosters.teamId, team.id))).toHaveLength(1);
    // '07' is another shirt; an inactive player's number is free again
    await addPlayer(manager, team.id, { playerName: 'Owen Price', jerseyNumber: '07' });
    await updatePlayer(manager, team.id, eli.id, { isActive: false });
    const liam = await addPlayer(manager, team.id, { playerName: 'Liam Foster', jerseyNumber: '7' });
    // ... and Eli cannot come back wearing it
    await expect(updatePlayer(manager, team.id, eli.id, { isActive: true })).rejects.toMatchObject({ status: 409 });
    const after = await updatePlayer(manager, team.id, eli.id, { isActive: true, jerseyNumber: '8' });
    expect([after.isActive, after.jerseyNumber, after.position]).toEqual([true, '8', 'Shortstop']);
    expect(liam.jerseyNumber).toBe('7');
  });

  it('the same child may be on two teams with the same number', async () => {
    const { manager, team } = await world();
    const other = await createTeam(manager, { name: 'Springfield Thunder Fall Ball' });
    await addPlayer(manager, team.id, { playerName: 'Eli Carter', jerseyNumber: '7' });
    await addPlayer(manager, other.id, { playerName: 'Eli Carter', jerseyNumber: '7' });
    expect((await getTeamDetails(manager, other.id)).roster.map((r) => r.playerName)).toEqual(['Eli Carter']);
  });

  it('edits clear position and jersey number; a roster id of another team is not found', async () => {
    const { manager, team } = await world();
    const other = await createTeam(manager, { name: 'Other' });
    const eli = await addPlayer(manager, team.id, { playerName: 'Eli Carter', position: 'Pitcher', jerseyNumber: '7' });
    const cleared = await updatePlayer(manager, team.id, eli.id, { position: null, jerseyNumber: '' });
    expect([cleared.position, cleared.jerseyNumber, cleared.isActive]).toEqual([null, null, true]);
    await expect(updatePlayer(manager, other.id, eli.id, { position: 'Catcher' })).rejects.toMatchObject({ status: 404, message: 'Player not found' });
    await expect(removePlayer(manager, other.id, eli.id)).rejects.toMatchObject({ status: 404 });
    await expect(updatePlayer(manager, team.id, 'nope', { position: 'Catcher' })).rejects.toMatchObject({ status: 404 });
    expect(await removePlayer(manager, team.id, eli.id)).toEqual({ id: eli.id, playerName: 'Eli Carter' });
    expect((await getTeamDetails(manager, team.id)).roster).toEqual([]);
  });
});

describe('the staff', () => {
  it('finds the account by e-mail, nickname or full name, and says so when there is none', async () => {
    const { manager, team } = await world();
    const casey = await createUser({ role: 'assistant_coach', nickname: `CaseyC${Date.now()}`, firstName: 'Casey', lastName: `Coach${Date.now()}` });
    const byNick = await addStaff(manager, team.id, { userName: casey.nickname!.toUpperCase() });
    expect(byNick).toMatchObject({ userId: casey.id, userName: casey.nickname, role: 'assistant_coach', email: casey.email });
    await expect(addStaff(manager, team.id, { userName: casey.email })).rejects.toMatchObject({ status: 409 });
    const drew = await createUser({ firstName: 'Drew', lastName: `Unique${Date.now()}` });
    expect((await addStaff(manager, team.id, { userName: ` drew  ${drew.lastName}` })).userId).toBe(drew.id);
    await expect(addStaff(manager, team.id, { userName: 'nobody@nowhere.test' })).rejects.toMatchObject({
      status: 400,
      issues: { userName: [noAccountMessage('nobody@nowhere.test')] },
    });
    await expect(addStaff(manager, team.id, { userName: '' })).rejects.toMatchObject({ status: 400, issues: { userName: ['Name is required'] } });
    await expect(addStaff(manager, team.id, { userName: drew.email, role: 'owner' })).rejects.toMatchObject({ status: 400 });
    // two accounts with the same full name: ask for the e-mail
    const twin = `Twin${Date.now()}`;
    await createUser({ firstName: 'Sam', lastName: twin });
    await createUser({ firstName: 'Sam', lastName: twin });
    await expect(addStaff(manager, team.id, { userName: `Sam ${twin}` })).rejects.toMatchObject({ status: 400, message: expect.stringContaining('e-mail') });
  });
});

describe('logo', () => {
  it('stores an image through the image store and refuses PDFs, big files and nothing', async () => {
    const { manager, team, otherManager } = await world();
    const header = await updateTeamLogo(manager, team.id, new Blob([new Uint8Array(await png())], { type: 'image/png' }));
    expect(header.logoUrl).toMatch(/^\/images\/[a-f0-9]{32}$/);
    expect(header.logoThumbUrl).toBe(`${header.logoUrl}?s=thumb`);
    expect((await listMyTeams(manager))[0].logoThumbUrl).toBe(header.logoThumbUrl);
    const pdf = new Blob([new TextEncoder().encode('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n')], { type: 'application/pdf' });
    await expect(updateTeamLogo(manager, team.id, pdf)).rejects.toMatchObject({ status: 415, message: 'Invalid file type' });
    await expect(updateTeamLogo(manager, team.id, new Blob([new Uint8Array(6 * 1024 * 1024)]))).rejects.toMatchObject({ status: 413, message: 'File too large' });
    await expect(updateTeamLogo(manager, team.id, new Blob([]))).rejects.toMatchObject({ status: 400, message: 'Please select an image file.' });
    await expect(updateTeamLogo(otherManager, team.id, new Blob([new Uint8Array(await png())]))).rejects.toMatchObject({ status: 403 });
    const [row] = await db().select().from(teams).where(eq(teams.id, team.id));
    expect(row.logoUrl).toBe(header.logoUrl);
  });
});

describe('team pins', () => {
  it('enter the catalogue through createPin with the team, in the creator collection; 5 images kept', async () => {
    const { manager, team, player, admin } = await world();
    await expect(createTeamPin(manager, team.id, { name: '', totalQuantity: 100 })).rejects.toMatchObject({ status: 400, issues: { name: ['Pin name is required'] } });
    await expect(createTeamPin(manager, team.id, { name: 'Thunder 2026', totalQuantity: 0 })).rejects.toMatchObject({
      status: 400,
      issues: { totalQuantity: ['Quantity must be at least 1'] },
    });
    await expect(createTeamPin(manager, team.id, { name: 'Thunder 2026', totalQuantity: 10, year: 1850 })).rejects.toMatchObject({ status: 400, issues: { year: [expect.any(String)] } });
    const images = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => png({ r: 40 * i, g: 100, b: 255 - 30 * i })));
    const pin = await createTeamPin(manager, team.id, { name: 'Thunder 2026', totalQuantity: '150', year: '2026', event: 'Cooperstown', description: 'Our pin' }, images);
    expect(pin).toMatchObject({ name: 'Thunder 2026', teamId: team.id, team: { id: team.id, name: team.name }, totalQuantity: 150, year: 2026, event: 'Cooperstown', createdBy: manager.id });
    expect(pin.images).toHaveLength(5);
    expect(pin.organization?.name).toBe(team.name);
    const owned = await db().select().from(userCollections).where(and(eq(userCollections.userId, manager.id), eq(userCollections.pinId, pin.id)));
    expect(owned).toHaveLength(1);
    expect((await listTeamPins(manager, team.id)).map((p) => p.id)).toEqual([pin.id]);
    expect((await listUserTeamPins(manager, manager.id)).map((p) => p.id)).toEqual([pin.id]);
    // the user's team pins are theirs to read (and an admin's)
    await expect(listUserTeamPins(player, manager.id)).rejects.toMatchObject({ status: 403 });
    await expect(listUserTeamPins(null, manager.id)).rejects.toMatchObject({ status: 401 });
    expect(await listUserTeamPins(admin, manager.id)).toHaveLength(1);
    expect(await listUserTeamPins(player, player.id)).toEqual([]);
  });
});

describe('deleting a team', () => {
  it('removes roster and staff in one go, keeps the pins without a team, and is audited', async () => {
    const { manager, team, player } = await world();
    await addPlayer(manager, team.id, { playerName: 'Eli Carter', jerseyNumber: '7' });
    await addStaff(manager, team.id, { userName: player.email });
    const pin = await makePin({ teamId: team.id, createdBy: manager.id });
    const result = await deleteTeam(manager, team.id);
    expect(result).toEqual({ id: team.id, name: team.name, removedPlayers: 1, removedStaff: 2, keptPins: 1 });
    expect(await db().select().from(teams).where(eq(teams.id, team.id))).toEqual([]);
    expect(await db().select().from(rosters).where(eq(rosters.teamId, team.id))).toEqual([]);
    expect(await db().select().from(staff).where(eq(staff.teamId, team.id))).toEqual([]);
    const [kept] = await db().select().from(pins).where(eq(pins.id, pin.id));
    expect(kept.teamId).toBeNull();
    const [audit] = await db().select().from(auditLogs).where(and(eq(auditLogs.targetType, 'team'), eq(auditLogs.targetId, team.id)));
    expect(audit).toMatchObject({ action: 'team.delete', userId: manager.id, details: { before: { name: team.name }, pinsKeptWithoutTeam: [pin.id] } });
    expect(await listMyTeams(player)).toEqual([]);
    await expect(deleteTeam(manager, team.id)).rejects.toMatchObject({ status: 404 });
  });

  it("an admin deleting or changing someone else's team leaves audit rows", async () => {
    const { team, admin } = await world();
    await addPlayer(admin, team.id, { playerName: 'Added by admin' });
    await deleteTeam(admin, team.id);
    const rows = await db().select().from(auditLogs).where(eq(auditLogs.targetId, team.id));
    expect(rows.map((r) => [r.action, r.userId]).sort()).toEqual([
      ['team.delete', admin.id],
      ['team.player_add', admin.id],
    ]);
  });
});

describe('permission matrix', () => {
  type Who = 'visitor' | 'player' | 'otherManager' | 'manager' | 'admin';
  const expected: Record<Who, number | 'ok'> = { visitor: 401, player: 403, otherManager: 403, manager: 'ok', admin: 'ok' };

  const operations: Record<string, (actor: Actor | null, teamId: string, ctx: { rosterId: string; coachEmail: string }) => Promise<unknown>> = {
    details: (a, t) => getTeamDetails(a, t),
    'add player': (a, t) => addPlayer(a, t, { playerName: 'Matrix Kid' }),
    'update player': (a, t, c) => updatePlayer(a, t, c.rosterId, { position: 'Catcher' }),
    'remove player': (a, t, c) => removePlayer(a, t, c.rosterId),
    'add staff': (a, t, c) => addStaff(a, t, { userName: c.coachEmail }),
    logo: async (a, t) => updateTeamLogo(a, t, await png()),
    'team pin': (a, t) => createTeamPin(a, t, { name: 'Matrix pin', totalQuantity: 10 }),
    delete: (a, t) => deleteTeam(a, t),
  };

  for (const [name, run] of Object.entries(operations)) {
    it(`${name}: visitor 401, player 403, another manager 403, the manager and an admin may`, async () => {
      const w = await world();
      for (const who of ['visitor', 'player', 'otherManager', 'manager', 'admin'] as Who[]) {
        // a fresh team for the actors who succeed, so that each starts from the same state
        const team = who === 'manager' || who === 'admin' ? await createTeam(w.manager, { name: `Matrix ${who}` }) : w.team;
        const [roster] = await db().insert(rosters).values({ teamId: team.id, playerName: 'Matrix Player' }).returning();
        const coach = await createUser({ role: 'assistant_coach' });
        const outcome = run(w[who], team.id, { rosterId: roster.id, coachEmail: coach.email });
        if (expected[who] === 'ok') await expect(outcome, `${name} by ${who}`).resolves.toBeDefined();
        else await expect(outcome, `${name} by ${who}`).rejects.toMatchObject({ status: expected[who] });
      }
    });
  }
});
