/**
 * Admin users: GET /api/admin/users, PATCH /api/admin/users/{id}/role and the /admin/users page
 * action, by every role; the role rules tried by every role against every other; the audit row of
 * every change and none for a refusal.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { db } from '~/db/index.server';
import { auditLogs, users, type Role } from '~/db/schema';
import { loader as usersLoader } from '~/routes/api.admin.users';
import { action as roleAction } from '~/routes/api.admin.users.$id.role';
import { action as pageAction, loader as pageLoader } from '~/routes/admin.users';
import { ROLES } from '~/utils/constants';
import { call, NON_ADMIN_ROLES, post, request, session } from '../support/api';
import { createUser } from '../support/factories';

const auditFor = (id: string) => db().select().from(auditLogs).where(eq(auditLogs.targetId, id));

describe('GET /api/admin/users', () => {
  it('answers { users, total } to admins with search, role, limit and offset; 401 and 403 to others', async () => {
    const admin = await session('admin');
    const tag = `zebra${Date.now()}`;
    for (let i = 0; i < 3; i++) await createUser({ email: `${tag}-${i}@example.test`, role: 'manager', isOnboardingComplete: i !== 0 });
    await createUser({ email: `${tag}-p@example.test`, role: 'player' });

    const all = await call(usersLoader, request(`/api/admin/users?search=${tag}`, { cookie: admin.cookie }));
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    const managers = await call(usersLoader, request(`/api/admin/users?search=${tag}&role=manager&limit=2&offset=0`, { cookie: admin.cookie }));
    expect(managers.body.total).toBe(3);
    expect(managers.body.users).toHaveLength(2);
    const next = await call(usersLoader, request(`/api/admin/users?search=${tag}&role=manager&limit=2&offset=2`, { cookie: admin.cookie }));
    expect(next.body.users).toHaveLength(1);
    const statuses = [...managers.body.users, ...next.body.users].map((u: { status: string }) => u.status).sort();
    expect(statuses).toEqual(['Active', 'Active', 'Pending Setup']);
    expect(Object.keys(all.body.users[0])).toEqual(expect.arrayContaining(['id', 'email', 'firstName', 'lastName', 'nickname', 'role', 'isOnboardingComplete', 'createdAt']));
    // a LIKE wildcard is a literal character
    expect((await call(usersLoader, request('/api/admin/users?search=%25%25%25', { cookie: admin.cookie }))).body.total).toBe(0);
    // odd paging falls back rather than failing
    expect((await call(usersLoader, request('/api/admin/users?limit=abc&offset=-4', { cookie: admin.cookie }))).status).toBe(200);

    expect(await call(usersLoader, request('/api/admin/users'))).toMatchObject({ status: 401 });
    for (const role of NON_ADMIN_ROLES) {
      const other = await session(role);
      expect((await call(usersLoader, request('/api/admin/users', { cookie: other.cookie }))).status).toBe(403);
    }
    const superAdmin = await session('super_admin');
    expect((await call(usersLoader, request('/api/admin/users', { cookie: superAdmin.cookie }))).status).toBe(200);
  });
});

/** The rules of spec §6 plus "nobody changes their own role", as a table. */
function expected(actor: Role, target: Role, next: Role): number {
  if (actor !== 'admin' && actor !== 'super_admin') return 403;
  if (actor === 'super_admin') return 200;
  return ['admin', 'super_admin'].includes(target) || ['admin', 'super_admin'].includes(next) ? 403 : 200;
}

describe('PATCH /api/admin/users/{id}/role', () => {
  it('every role against every other, to every other role: the spec’s rules, one audit row per change', async () => {
    for (const actorRole of ROLES) {
      const actor = await session(actorRole);
      for (const targetRole of ROLES) {
        for (const next of ROLES.filter((r) => r !== targetRole)) {
          const target = await createUser({ role: targetRole });
          const res = await call(roleAction, request(`/api/admin/users/${target.id}/role`, { method: 'PATCH', cookie: actor.cookie, json: { role: next } }), { id: target.id });
          const want = expected(actorRole, targetRole, next);
          expect({ actorRole, targetRole, next, status: res.status }).toEqual({ actorRole, targetRole, next, status: want });
          const [after] = await db().select().from(users).where(eq(users.id, target.id));
          const log = await auditFor(target.id);
          if (want === 200) {
            expect(res.body).toMatchObject({ id: target.id, role: next });
            expect(after.role).toBe(next);
            expect(log.map((l) => [l.action, l.userId, l.details])).toEqual([['user.role_change', actor.user.id, { email: target.email, before: { role: targetRole }, after: { role: next } }]]);
          } else {
            expect(after.role).toBe(targetRole);
            expect(log).toEqual([]);
          }
        }
      }
    }
  });

  it('nobody changes their own role; the last super admin stays; bad input is a 4xx that writes nothing', async () => {
    const only = await session('super_admin');
    // every other super admin goes first, so `only` is the last
    await db().update(users).set({ role: 'admin' }).where(eq(users.role, 'super_admin'));
    await db().update(users).set({ role: 'super_admin' }).where(eq(users.id, only.user.id));
    const self = await call(roleAction, request(`/api/admin/users/${only.user.id}/role`, { method: 'PATCH', cookie: only.cookie, json: { role: 'player' } }), { id: only.user.id });
    expect(self).toMatchObject({ status: 403, body: { error: 'You cannot change your own role' } });

    // another super admin, made by the CLI path, may demote... but not the last one
    const second = await session('player');
    await db().update(users).set({ role: 'super_admin' }).where(eq(users.id, second.user.id));
    const demoted = await call(roleAction, request(`/api/admin/users/${only.user.id}/role`, { method: 'PATCH', cookie: second.cookie, json: { role: 'admin' } }), { id: only.user.id });
    expect(demoted.status).toBe(200);
    // `second` is now the last super admin; `only` is an admin and may not touch it anyway
    const { assertKeepsSuperAdmin } = await import('~/auth/permissions');
    expect(() => assertKeepsSuperAdmin({ role: 'super_admin' }, 'admin', 1)).toThrow(/last super admin/);
    expect(() => assertKeepsSuperAdmin({ role: 'super_admin' }, 'admin', 2)).not.toThrow();

    const target = await createUser({ role: 'player' });
    const url = `/api/admin/users/${target.id}/role`;
    for (const body of [{ role: 'wizard' }, {}, { role: 'player' }, { role: 42 }]) {
      const res = await call(roleAction, request(url, { method: 'PATCH', cookie: second.cookie, json: body }), { id: target.id });
      expect(res.status).toBe(400);
    }
    expect((await call(roleAction, request(url, { method: 'PATCH', cookie: second.cookie, body: '{oops', headers: { 'Content-Type': 'application/json' } }), { id: target.id })).status).toBe(400);
    expect((await call(roleAction, request('/api/admin/users/nope/role', { method: 'PATCH', cookie: second.cookie, json: { role: 'vendor' } }), { id: 'nope' })).status).toBe(404);
    expect((await call(roleAction, request(url, { method: 'POST', cookie: second.cookie, json: { role: 'vendor' } }), { id: target.id })).status).toBe(405);
    expect((await call(roleAction, request(url, { method: 'PATCH', json: { role: 'vendor' } }), { id: target.id })).status).toBe(401);
    expect(await auditFor(target.id)).toEqual([]);
  });
});

describe('/admin/users page', () => {
  it('lists, shows details and changes a role through its form; refusals become the Error toast', async () => {
    const admin = await session('admin');
    const player = await createUser({ role: 'player', email: `page-${Date.now()}@example.test` });
    const res = await pageLoader({ request: request(`/admin/users?q=${encodeURIComponent(player.email)}&dialog=details&id=${player.id}`, { cookie: admin.cookie }), params: {}, context: {} });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the loader's JSON, read freely
    const data: any = await res.json();
    expect(data).toMatchObject({ state: 'ok', total: 1, dialog: 'details', details: { id: player.id, status: 'Active' } });
    expect(data.rows[0].assignable).toEqual(['manager', 'assistant_coach', 'vendor']);
    // an admin's history view is not theirs to see (super admins only)
    expect(data.history).toBeNull();

    const ok = await post(pageAction, '/admin/users', admin.cookie, { userId: player.id, currentRole: 'player', role: 'vendor', back: '/admin/users?page=2' });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('Location')).toBe('/admin/users?page=2');
    const same = await post(pageAction, '/admin/users', admin.cookie, { userId: player.id, currentRole: 'vendor', role: 'vendor' });
    expect(same.status).toBe(400);
    expect(same.body.lastResult.error.role).toEqual(['Choose a role other than the current one']);
    const none = await post(pageAction, '/admin/users', admin.cookie, { userId: player.id, currentRole: 'vendor', role: '' });
    expect(none.body.lastResult.error.role).toEqual(['Choose a role']);
    const refused = await post(pageAction, '/admin/users', admin.cookie, { userId: player.id, currentRole: 'vendor', role: 'admin' });
    expect(refused.status).toBe(302);
    expect(refused.headers.get('Set-Cookie')).toContain('__pindex_toast');
    expect((await db().select().from(users).where(eq(users.id, player.id)))[0].role).toBe('vendor');
    expect(await auditFor(player.id)).toHaveLength(1);

    const visitor = await post(pageAction, '/admin/users', '', { userId: player.id, role: 'manager' });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('Location')).toContain('/api/login');
    const vendor = await session('vendor');
    const home = await post(pageAction, '/admin/users', vendor.cookie, { userId: player.id, role: 'manager' });
    expect(home.headers.get('Location')).toBe('/');
  });
});
