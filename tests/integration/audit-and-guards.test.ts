/**
 * The audit helper writes its row inside the change's own transaction (a rolled-back change leaves
 * none), admin mutations record before and after, and the request guards answer each door the way
 * it should: /api 401/403 JSON, pages a sign-in redirect, a 403 or a 404, stale cookies cleared.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUserSession } from '~/auth/session.server';
import { db, transaction } from '~/db/index.server';
import { auditLogs, organizations, sessions, type Role } from '~/db/schema';
import { api } from '~/http/api.server';
import { readBody } from '~/http/body.server';
import { requirePageRole, requirePageUser, requireRole, requireUser, requireUserOr404 } from '~/http/guards.server';
import { auditHistory, changes, recordAudit } from '~/services/audit.server';
import { deleteOrganization, updateOrganization } from '~/services/organizations.server';
import { updatePin } from '~/services/pins.server';
import { createOrganization, createPin, createUser } from '../support/factories';

const auditRowsFor = (targetId: string) => db().select().from(auditLogs).where(eq(auditLogs.targetId, targetId));

describe('recordAudit', () => {
  it('commits with the change and rolls back with it', async () => {
    const admin = await createUser({ role: 'admin' });
    const org = await createOrganization();
    await expect(
      transaction(async (tx) => {
        await tx.update(organizations).set({ name: 'Renamed then undone' }).where(eq(organizations.id, org.id));
        await recordAudit(tx, { actor: admin, action: 'organization.update', targetType: 'organization', targetId: org.id, details: { before: { name: org.name } } });
        throw new Error('something later in the change failed');
      }),
    ).rejects.toThrow('something later');
    expect(await auditRowsFor(org.id)).toEqual([]);
    const [unchanged] = await db().select().from(organizations).where(eq(organizations.id, org.id));
    expect(unchanged.name).toBe(org.name);

    await transaction(async (tx) => {
      await tx.update(organizations).set({ name: `${org.name} II` }).where(eq(organizations.id, org.id));
      await recordAudit(tx, { actor: admin, action: 'organization.update', targetType: 'organization', targetId: org.id, details: { note: 'kept' } });
    });
    expect((await auditRowsFor(org.id)).map((r) => [r.userId, r.action, r.details])).toEqual([[admin.id, 'organization.update', { note: 'kept' }]]);
  });

  it('changes() keeps only the fields that differ, dates as text', () => {
    const when = new Date('2026-01-02T03:04:05Z');
    expect(changes({ name: 'A', year: 2020, at: when }, { name: 'B', year: 2020, at: new Date('2026-02-02T00:00:00Z') })).toEqual({
      before: { name: 'A', at: '2026-01-02T03:04:05.000Z' },
      after: { name: 'B', at: '2026-02-02T00:00:00.000Z' },
    });
    expect(changes({ name: 'A' }, { name: 'A' })).toBeNull();
  });
});

describe('admin mutations are audited', () => {
  it('an organization rename records before and after; a refused delete records nothing', async () => {
    const admin = await createUser({ role: 'admin' });
    const org = await createOrganization();
    await createPin({ organizationId: org.id });
    await updateOrganization(admin, org.id, { name: `${org.name} League`, description: org.description });
    await expect(deleteOrganization(admin, org.id)).rejects.toMatchObject({ status: 409 });
    const history = await auditHistory('organization', org.id);
    expect(history.map((r) => [r.action, r.userId, r.details])).toEqual([
      ['organization.update', admin.id, { before: { name: org.name }, after: { name: `${org.name} League` } }],
    ]);
  });

  it('a deleted organization keeps its name in the log', async () => {
    const admin = await createUser({ role: 'super_admin' });
    const org = await createOrganization();
    await deleteOrganization(admin, org.id);
    const [row] = await auditRowsFor(org.id);
    expect(row).toMatchObject({ action: 'organization.delete', userId: admin.id, details: { before: { name: org.name, description: org.description } } });
  });

  it("an admin's edit of someone's pin records what changed; a refused edit records nothing", async () => {
    const admin = await createUser({ role: 'admin' });
    const vendor = await createUser({ role: 'vendor' });
    const pin = await createPin({ createdBy: vendor.id, name: 'Harbor Hawks 2024', year: 2024 });
    await expect(updatePin(await createUser({ role: 'vendor' }), pin.id, { name: 'Not yours' })).rejects.toMatchObject({ status: 403 });
    await updatePin(admin, pin.id, { name: 'Harbor Hawks 2025', year: 2025 });
    const rows = await db().select().from(auditLogs).where(and(eq(auditLogs.targetType, 'pin'), eq(auditLogs.targetId, pin.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'pin.update',
      userId: admin.id,
      details: { name: 'Harbor Hawks 2024', before: { name: 'Harbor Hawks 2024', year: 2024 }, after: { name: 'Harbor Hawks 2025', year: 2025 } },
    });
  });
});

// ---------------------------------------------------------------- guards

function cookieOf(setCookie: string): string {
  return setCookie.split(';')[0];
}

async function signedInRequest(role: Role, url = 'http://localhost/teams?tab=players') {
  const user = await createUser({ role });
  const setCookie = await createUserSession(new Request('http://localhost/'), user.id);
  return { user, request: () => new Request(url, { headers: { Cookie: cookieOf(setCookie) } }), setCookie };
}

async function thrown(fn: () => Promise<unknown>): Promise<Response> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof Response) return error;
    return new Response(JSON.stringify({ status: (error as { status?: number }).status }), { status: (error as { status?: number }).status ?? 500 });
  }
  throw new Error('expected the guard to refuse');
}

describe('guards', () => {
  const adminOnly = api(async ({ request }: { request: Request }) => {
    const user = await requireRole(request, ['admin', 'super_admin']);
    return { ok: user.id };
  });

  it('/api: a visitor gets 401 JSON, the wrong role 403 JSON, the right role its answer', async () => {
    const visitor = await adminOnly({ request: new Request('http://localhost/api/x') });
    expect([visitor.status, await visitor.json()]).toEqual([401, { error: 'Please sign in to continue' }]);
    const player = await signedInRequest('player');
    const forbidden = await adminOnly({ request: player.request() });
    expect([forbidden.status, await forbidden.json()]).toEqual([403, { error: 'You do not have permission to do that' }]);
    const admin = await signedInRequest('admin');
    const ok = await adminOnly({ request: admin.request() });
    expect([ok.status, await ok.json()]).toEqual([200, { ok: admin.user.id }]);
    await expect(requireUser(new Request('http://localhost/'), 'Please sign in to add pins to your collection')).rejects.toMatchObject({
      status: 401,
      message: 'Please sign in to add pins to your collection',
    });
  });

  it('pages: a visitor is sent to sign in and back, the wrong role gets the 403 page, unregistered pages 404', async () => {
    const toLogin = await thrown(() => requirePageUser(new Request('http://localhost/teams?tab=players')));
    expect([toLogin.status, toLogin.headers.get('Location')]).toEqual([302, '/api/login?redirectTo=%2Fteams%3Ftab%3Dplayers']);
    const manager = await signedInRequest('manager', 'http://localhost/admin/users');
    expect((await requirePageUser(manager.request())).id).toBe(manager.user.id);
    const denied = await thrown(() => requirePageRole(manager.request(), ['vendor']));
    expect(denied.status).toBe(403);
    expect((await thrown(() => requireUserOr404(new Request('http://localhost/profile')))).status).toBe(404);
  });

  it('clears a cookie whose session row is gone', async () => {
    const player = await signedInRequest('player');
    const fine = await adminOnly({ request: player.request() });
    expect(fine.headers.get('Set-Cookie')).toBeNull();
    await db().delete(sessions).where(eq(sessions.userId, player.user.id));
    const stale = await adminOnly({ request: player.request() });
    expect(stale.status).toBe(401);
    const cleared = stale.headers.get('Set-Cookie') ?? '';
    expect(cleared).toMatch(/^__pindex_session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
  });
});

describe('request bodies', () => {
  it('a form type whose body is not a form is a 400, not a 500', async () => {
    const read = api(async ({ request }: { request: Request }) => readBody(request));
    for (const [type, body] of [
      ['multipart/form-data', '{"pinId":"x"}'],
      ['multipart/form-data; boundary=abc', '--abc\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated'],
    ]) {
      const response = await read({ request: new Request('http://localhost/api/collections', { method: 'POST', headers: { 'Content-Type': type }, body }) });
      expect([type, response.status, await response.json()]).toEqual([type, 400, { error: 'The form could not be read' }]);
    }
  });
});
