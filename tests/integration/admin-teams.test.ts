/**
 * Admin teams: the calls of spec §7 by every kind of caller, create with a manager, edit, transfer
 * (the current manager refused), delete, bad input writing nothing, and the audit row of each.
 */
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { db } from '~/db/index.server';
import { auditLogs, staff, teams } from '~/db/schema';
import { action as teamAction } from '~/routes/api.admin.teams.$id';
import { loader as detailsLoader } from '~/routes/api.admin.teams.$id.details';
import { action as managerAction } from '~/routes/api.admin.teams.$id.manager';
import { action as teamsAction, loader as teamsLoader } from '~/routes/api.admin.teams';
import { action as pageAction } from '~/routes/admin.teams';
import { addPlayer, createTeam } from '~/services/teams.server';
import { call, NON_ADMIN_ROLES, post, request, session } from '../support/api';
import { createUser } from '../support/factories';

const auditFor = (id: string) => db().select().from(auditLogs).where(eq(auditLogs.targetId, id));
const counts = async () => [Number((await db().select({ n: count() }).from(teams).get())?.n), Number((await db().select({ n: count() }).from(auditLogs).get())?.n)];

describe('admin team calls refuse visitors (401) and every other role (403)', () => {
  it('GET/POST teams, GET details, PATCH, PATCH manager, DELETE', async () => {
    const manager = await createUser({ role: 'manager' });
    const team = await createTeam(manager, { name: 'Guarded' });
    const calls: [unknown, string, string, Record<string, string>][] = [
      [teamsLoader, 'GET', '/api/admin/teams', {}],
      [teamsAction, 'POST', '/api/admin/teams', {}],
      [detailsLoader, 'GET', `/api/admin/teams/${team.id}/details`, { id: team.id }],
      [teamAction, 'PATCH', `/api/admin/teams/${team.id}`, { id: team.id }],
      [managerAction, 'PATCH', `/api/admin/teams/${team.id}/manager`, { id: team.id }],
      [teamAction, 'DELETE', `/api/admin/teams/${team.id}`, { id: team.id }],
    ];
    const before = await counts();
    for (const [handler, method, url, params] of calls) {
      const json = method === 'GET' || method === 'DELETE' ? undefined : { name: 'Hijacked', managerId: manager.id, newManagerId: manager.id };
      expect((await call(handler, request(url, { method, json }), params)).status).toBe(401);
      for (const role of NON_ADMIN_ROLES) {
        // the team's own manager is no admin either
        const who = role === 'manager' ? { cookie: (await session('manager')).cookie } : await session(role);
        expect({ url, method, role, status: (await call(handler, request(url, { method, cookie: who.cookie, json }), params)).status }).toEqual({ url, method, role, status: 403 });
      }
    }
    expect(await counts()).toEqual(before);
    expect((await db().select().from(teams).where(eq(teams.id, team.id)))[0].name).toBe('Guarded');
  });
});

describe('admin teams', () => {
  it('lists with search by name, location or manager; creates, edits, transfers and deletes, each audited', async () => {
    const admin = await session('admin');
    const tag = `Otter${Date.now()}`;
    const mgr = await createUser({ role: 'manager', nickname: `${tag} Coach` });
    const other = await createUser({ role: 'manager' });
    const player = await createUser({ role: 'player' });

    const created = await call(teamsAction, request('/api/admin/teams', { method: 'POST', cookie: admin.cookie, json: { name: `${tag} Hawks`, location: 'Bayside', description: 'x'.repeat(80), managerId: mgr.id } }));
    expect(created).toMatchObject({ status: 201, body: { name: `${tag} Hawks`, managerId: mgr.id, managerName: `${tag} Coach`, memberCount: 1 } });
    const id = created.body.id;
    await addPlayer(mgr, id, { playerName: 'Kid', jerseyNumber: '4' });

    for (const search of [tag, 'bayside', `${tag} coach`]) {
      const list = await call(teamsLoader, request(`/api/admin/teams?search=${encodeURIComponent(search)}&limit=50&offset=0`, { cookie: admin.cookie }));
      expect(list.body.items.map((t: { id: string }) => t.id)).toContain(id);
    }
    const list = await call(teamsLoader, request(`/api/admin/teams?search=${tag}`, { cookie: admin.cookie }));
    expect(list.body).toMatchObject({ total: 1, items: [{ id, managerName: `${tag} Coach`, memberCount: 2, location: 'Bayside' }] });

    const details = await call(detailsLoader, request(`/api/admin/teams/${id}/details`, { cookie: admin.cookie }), { id });
    expect(details.body).toMatchObject({ team: { id, managerName: `${tag} Coach` }, roster: [{ playerName: 'Kid' }], staff: [{ role: 'manager' }] });

    const edited = await call(teamAction, request(`/api/admin/teams/${id}`, { method: 'PATCH', cookie: admin.cookie, json: { location: '', name: `${tag} Herons` } }), { id });
    expect(edited).toMatchObject({ status: 200, body: { name: `${tag} Herons`, location: null } });

    // the current manager is refused; a player cannot manage; then a real transfer
    for (const [newManagerId, status] of [[mgr.id, 400], [player.id, 400], ['', 400], ['ghost', 400]] as const) {
      expect((await call(managerAction, request(`/api/admin/teams/${id}/manager`, { method: 'PATCH', cookie: admin.cookie, json: { newManagerId } }), { id })).status).toBe(status);
    }
    const moved = await call(managerAction, request(`/api/admin/teams/${id}/manager`, { method: 'PATCH', cookie: admin.cookie, json: { newManagerId: other.id } }), { id });
    expect(moved).toMatchObject({ status: 200, body: { managerId: other.id } });
    const staffRows = await db().select().from(staff).where(eq(staff.teamId, id));
    expect(staffRows.map((s) => [s.userId, s.role])).toEqual([[other.id, 'manager']]);

    const gone = await call(teamAction, request(`/api/admin/teams/${id}`, { method: 'DELETE', cookie: admin.cookie }), { id });
    expect(gone).toMatchObject({ status: 200, body: { message: 'Team Deleted', id, removedPlayers: 1 } });
    expect((await auditFor(id)).map((r) => r.action).sort()).toEqual(['team.create', 'team.delete', 'team.transfer', 'team.update']);
  });

  it('bad input is a 4xx that writes nothing', async () => {
    const admin = await session('super_admin');
    const mgr = await createUser({ role: 'manager' });
    const player = await createUser({ role: 'player' });
    const before = await counts();
    const cases: [Record<string, unknown>, string][] = [
      [{ managerId: mgr.id }, 'Name is required'],
      [{ name: 'x'.repeat(101), managerId: mgr.id }, 'Name too long'],
      [{ name: 'No manager' }, 'Manager is required'],
      [{ name: 'Player manager', managerId: player.id }, 'Choose a user with the manager role'],
    ];
    for (const [json, error] of cases) {
      const res = await call(teamsAction, request('/api/admin/teams', { method: 'POST', cookie: admin.cookie, json }));
      expect({ json, status: res.status, error: res.body.error }).toEqual({ json, status: 400, error });
    }
    const team = await createTeam(mgr, { name: 'Stays' });
    const after = await counts();
    expect((await call(teamAction, request(`/api/admin/teams/${team.id}`, { method: 'PATCH', cookie: admin.cookie, json: { name: '' } }), { id: team.id })).status).toBe(400);
    expect((await call(teamAction, request('/api/admin/teams/nope', { method: 'PATCH', cookie: admin.cookie, json: { name: 'X' } }), { id: 'nope' })).status).toBe(404);
    expect((await call(teamAction, request('/api/admin/teams/nope', { method: 'DELETE', cookie: admin.cookie }), { id: 'nope' })).status).toBe(404);
    expect((await call(detailsLoader, request('/api/admin/teams/nope/details', { cookie: admin.cookie }), { id: 'nope' })).status).toBe(404);
    expect(after[0]).toBe(before[0] + 1);
    expect(await counts()).toEqual(after);
  });

  it('the page’s forms: Create Team errors stay in the form; a refusal is the Error toast', async () => {
    const admin = await session('admin');
    const mgr = await createUser({ role: 'manager' });
    const blank = await post(pageAction, '/admin/teams', admin.cookie, { intent: 'createTeam', name: '', managerId: '' });
    expect(blank.status).toBe(400);
    expect(blank.body.lastResult.error).toMatchObject({ name: ['Name is required'], managerId: ['Manager is required'] });
    const ok = await post(pageAction, '/admin/teams', admin.cookie, { intent: 'createTeam', name: 'Page Team', managerId: mgr.id, back: '/admin/teams?q=Page' });
    expect(ok.headers.get('Location')).toBe('/admin/teams?q=Page');
    const none = await post(pageAction, '/admin/teams', admin.cookie, { intent: 'deleteTeam', id: 'nope' });
    expect(none.status).toBe(302);
    expect(none.headers.get('Set-Cookie')).toContain('__pindex_toast');
  });
});
