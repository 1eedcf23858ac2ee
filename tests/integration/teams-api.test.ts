/**
 * The Teams calls of spec §7 through their real route modules: a Request with a session cookie,
 * the route's loader or action, and the JSON answer (shape and status) for each kind of caller.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createUserSession } from '~/auth/session.server';
import type { Role } from '~/db/schema';
import { loader as teamsLoader, action as teamsAction } from '~/routes/api.teams';
import { action as teamAction } from '~/routes/api.teams.$id';
import { loader as detailsLoader } from '~/routes/api.teams.$id.details';
import { action as logoAction } from '~/routes/api.teams.$id.logo';
import { action as playersAction } from '~/routes/api.teams.$id.players';
import { action as playerAction } from '~/routes/api.teams.$id.players.$rosterId';
import { action as staffAction } from '~/routes/api.teams.$id.staff';
import { action as pinsAction } from '~/routes/api.teams.$id.pins';
import { loader as teamPinsLoader } from '~/routes/api.users.$id.team-pins';
import { addPlayer, createTeam } from '~/services/teams.server';
import { createUser } from '../support/factories';

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<Response>;
type Who = 'visitor' | 'player' | 'otherManager' | 'manager' | 'admin';

async function session(role: Role) {
  const user = await createUser({ role });
  const cookie = (await createUserSession(new Request('http://localhost/'), user.id)).split(';')[0];
  return { user, cookie };
}

async function people() {
  const entries = await Promise.all((['player', 'manager', 'manager', 'admin'] as Role[]).map((r) => session(r)));
  const [player, manager, otherManager, admin] = entries;
  return { visitor: { user: null, cookie: '' }, player, manager, otherManager, admin };
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
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const png = () => sharp({ create: { width: 40, height: 40, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();

describe('GET/POST /api/teams', () => {
  it('lists the caller’s teams and creates one; a visitor 401, a player 403, a blank name 400', async () => {
    const p = await people();
    const created = await call(teamsAction as Handler, request('/api/teams', { method: 'POST', cookie: p.manager.cookie, json: { name: 'Harbor Hawks', location: 'Bayside', description: '12U' } }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Harbor Hawks', location: 'Bayside', description: '12U', managerId: p.manager.user.id, logoUrl: null });
    const list = await call(teamsLoader as Handler, request('/api/teams', { cookie: p.manager.cookie }));
    expect(list.status).toBe(200);
    expect(list.body.map((t: { id: string }) => t.id)).toEqual([created.body.id]);
    expect(Object.keys(list.body[0])).toEqual(expect.arrayContaining(['id', 'name', 'location', 'description', 'managerId', 'logoUrl']));

    expect(await call(teamsLoader as Handler, request('/api/teams'))).toEqual({ status: 401, body: { error: 'Please sign in to continue' } });
    expect((await call(teamsAction as Handler, request('/api/teams', { method: 'POST', json: { name: 'X' } }))).status).toBe(401);
    expect((await call(teamsAction as Handler, request('/api/teams', { method: 'POST', cookie: p.player.cookie, json: { name: 'X' } }))).status).toBe(403);
    expect(await call(teamsAction as Handler, request('/api/teams', { method: 'POST', cookie: p.manager.cookie, json: { name: '' } }))).toEqual({
      status: 400,
      body: { error: 'Name is required', issues: { name: ['Name is required'] } },
    });
    const broken = await call(teamsAction as Handler, request('/api/teams', { method: 'POST', cookie: p.manager.cookie, body: '{nope', headers: { 'Content-Type': 'application/json' } }));
    expect(broken.status).toBe(400);
    expect((await call(teamsAction as Handler, request('/api/teams', { method: 'PUT', cookie: p.manager.cookie }))).status).toBe(405);
  });
});

describe('the calls on one team, by every kind of caller', () => {
  const expected: Record<Who, number> = { visitor: 401, player: 403, otherManager: 403, manager: 0, admin: 0 };

  // each call: the request to make on a team (fresh per caller who may succeed) and the success status
  const calls: Record<string, { ok: number; make: (teamId: string, rosterId: string, cookie: string) => Promise<[Handler, Request, Record<string, string>]> }> = {
    'GET details': { ok: 200, make: async (t, _r, c) => [detailsLoader as Handler, request(`/api/teams/${t}/details`, { cookie: c }), { id: t }] },
    'POST players': { ok: 201, make: async (t, _r, c) => [playersAction as Handler, request(`/api/teams/${t}/players`, { method: 'POST', cookie: c, json: { playerName: 'Kid', position: 'Catcher', jerseyNumber: '44' } }), { id: t }] },
    'PUT player': { ok: 200, make: async (t, r, c) => [playerAction as Handler, request(`/api/teams/${t}/players/${r}`, { method: 'PUT', cookie: c, json: { position: null, jerseyNumber: '9', isActive: false } }), { id: t, rosterId: r }] },
    'DELETE player': { ok: 200, make: async (t, r, c) => [playerAction as Handler, request(`/api/teams/${t}/players/${r}`, { method: 'DELETE', cookie: c }), { id: t, rosterId: r }] },
    'POST staff': {
      ok: 201,
      make: async (t, _r, c) => {
        const coach = await createUser({ role: 'assistant_coach' });
        return [staffAction as Handler, request(`/api/teams/${t}/staff`, { method: 'POST', cookie: c, json: { userName: coach.email, role: 'assistant_coach' } }), { id: t }];
      },
    },
    'POST logo': {
      ok: 200,
      make: async (t, _r, c) => {
        const form = new FormData();
        form.append('logo', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'logo.png');
        return [logoAction as Handler, request(`/api/teams/${t}/logo`, { method: 'POST', cookie: c, body: form }), { id: t }];
      },
    },
    'POST pins': {
      ok: 201,
      make: async (t, _r, c) => {
        const form = new FormData();
        for (const [k, v] of Object.entries({ name: 'Team pin', description: 'Ours', totalQuantity: '125', year: '2026', event: 'Cooperstown' })) form.append(k, v);
        form.append('images', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'pin.png');
        return [pinsAction as Handler, request(`/api/teams/${t}/pins`, { method: 'POST', cookie: c, body: form }), { id: t }];
      },
    },
    DELETE: { ok: 200, make: async (t, _r, c) => [teamAction as Handler, request(`/api/teams/${t}`, { method: 'DELETE', cookie: c }), { id: t }] },
  };

  for (const [name, spec] of Object.entries(calls)) {
    it(`${name}: visitor 401, player 403, another manager 403, the manager and an admin succeed`, async () => {
      const p = await people();
      for (const who of ['visitor', 'player', 'otherManager', 'manager', 'admin'] as Who[]) {
        const team = await createTeam(p.manager.user, { name: `Team for ${who}` });
        const roster = await addPlayer(p.manager.user, team.id, { playerName: 'Eli Carter', jerseyNumber: '7' });
        const [handler, req, params] = await spec.make(team.id, roster.id, p[who].cookie);
        const answer = await call(handler, req, params);
        const status = expected[who] || spec.ok;
        expect(answer.status, `${name} by ${who}: ${JSON.stringify(answer.body)}`).toBe(status);
        if (status >= 400) expect(typeof answer.body.error).toBe('string');
      }
    });
  }
});

describe('answers of the team calls', () => {
  it('details in the spec shape; an unknown team 404; a roster id of another team 404; a taken jersey 409', async () => {
    const p = await people();
    const team = await createTeam(p.manager.user, { name: 'Harbor Hawks' });
    const other = await createTeam(p.manager.user, { name: 'Other' });
    const eli = await addPlayer(p.manager.user, team.id, { playerName: 'Eli Carter', position: 'Pitcher', jerseyNumber: '7' });
    const details = await call(detailsLoader as Handler, request(`/api/teams/${team.id}/details`, { cookie: p.manager.cookie }), { id: team.id });
    expect(details.body.team).toMatchObject({ id: team.id, name: 'Harbor Hawks', managerName: expect.any(String) });
    expect(details.body.roster).toEqual([{ id: eli.id, playerName: 'Eli Carter', email: null, position: 'Pitcher', jerseyNumber: '7', isActive: true, joinedAt: expect.any(String) }]);
    expect(details.body.staff[0]).toMatchObject({ userName: expect.any(String), email: p.manager.user.email, role: 'manager', isActive: true });

    expect(await call(detailsLoader as Handler, request('/api/teams/nope/details', { cookie: p.manager.cookie }), { id: 'nope' })).toEqual({ status: 404, body: { error: 'Team Not Found' } });
    const wrongTeam = await call(playerAction as Handler, request(`/api/teams/${other.id}/players/${eli.id}`, { method: 'PUT', cookie: p.manager.cookie, json: { position: 'Catcher' } }), {
      id: other.id,
      rosterId: eli.id,
    });
    expect(wrongTeam).toEqual({ status: 404, body: { error: 'Player not found' } });
    const taken = await call(playersAction as Handler, request(`/api/teams/${team.id}/players`, { method: 'POST', cookie: p.manager.cookie, json: { playerName: 'Liam', jerseyNumber: 7 } }), { id: team.id });
    expect(taken.status).toBe(409);
    expect(taken.body.issues.jerseyNumber[0]).toMatch(/Jersey number 7 is already worn/);
    const blank = await call(playersAction as Handler, request(`/api/teams/${team.id}/players`, { method: 'POST', cookie: p.manager.cookie, json: { playerName: ' ' } }), { id: team.id });
    expect(blank).toEqual({ status: 400, body: { error: 'Player name is required', issues: { playerName: ['Player name is required'] } } });
    const nobody = await call(staffAction as Handler, request(`/api/teams/${team.id}/staff`, { method: 'POST', cookie: p.manager.cookie, json: { userName: 'ghost@nowhere.test' } }), { id: team.id });
    expect(nobody.status).toBe(400);
    expect(nobody.body.issues.userName[0]).toMatch(/No PinDex account matches "ghost@nowhere.test"/);
  });

  it('logo: a PDF 415, 6 MB 413, no file 400; team pin errors carry `error`; delete says what it kept', async () => {
    const p = await people();
    const team = await createTeam(p.manager.user, { name: 'Harbor Hawks' });
    const upload = async (blob: Blob) => {
      const form = new FormData();
      form.append('logo', blob, 'file');
      return call(logoAction as Handler, request(`/api/teams/${team.id}/logo`, { method: 'POST', cookie: p.manager.cookie, body: form }), { id: team.id });
    };
    expect(await upload(new Blob([new TextEncoder().encode('%PDF-1.7 not an image at all')], { type: 'application/pdf' }))).toEqual({ status: 415, body: { error: 'Invalid file type' } });
    expect((await upload(new Blob([new Uint8Array(6 * 1024 * 1024)], { type: 'image/png' }))).status).toBe(413);
    expect((await upload(new Blob([], { type: 'image/png' }))).status).toBe(400);
    const ok = await upload(new Blob([new Uint8Array(await png())], { type: 'image/png' }));
    expect(ok.body.logoUrl).toMatch(/^\/images\//);

    const form = new FormData();
    form.append('name', '');
    form.append('totalQuantity', '0');
    const bad = await call(pinsAction as Handler, request(`/api/teams/${team.id}/pins`, { method: 'POST', cookie: p.manager.cookie, body: form }), { id: team.id });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Pin name is required');
    expect(bad.body.issues.totalQuantity).toEqual(['Quantity must be at least 1']);

    const json = await call(pinsAction as Handler, request(`/api/teams/${team.id}/pins`, { method: 'POST', cookie: p.manager.cookie, json: { name: 'JSON pin', totalQuantity: 50 } }), { id: team.id });
    expect(json.status).toBe(201);
    expect(json.body).toMatchObject({ name: 'JSON pin', teamId: team.id, totalQuantity: 50 });

    const pinsOf = await call(teamPinsLoader as Handler, request(`/api/users/${p.manager.user.id}/team-pins`, { cookie: p.manager.cookie }), { id: p.manager.user.id });
    expect(pinsOf.body.map((x: { name: string }) => x.name)).toEqual(['JSON pin']);
    expect(Object.keys(pinsOf.body[0])).toEqual(expect.arrayContaining(['images', 'name', 'description', 'year', 'event', 'totalQuantity']));
    expect((await call(teamPinsLoader as Handler, request(`/api/users/${p.manager.user.id}/team-pins`, { cookie: p.player.cookie }), { id: p.manager.user.id })).status).toBe(403);
    expect((await call(teamPinsLoader as Handler, request(`/api/users/${p.manager.user.id}/team-pins`), { id: p.manager.user.id })).status).toBe(401);
    expect((await call(teamPinsLoader as Handler, request(`/api/users/${p.manager.user.id}/team-pins`, { cookie: p.admin.cookie }), { id: p.manager.user.id })).status).toBe(200);

    const deleted = await call(teamAction as Handler, request(`/api/teams/${team.id}`, { method: 'DELETE', cookie: p.manager.cookie }), { id: team.id });
    expect(deleted).toEqual({ status: 200, body: { message: 'Team deleted successfully!', id: team.id, name: 'Harbor Hawks', removedPlayers: 0, removedStaff: 1, keptPins: 1 } });
  });
});
