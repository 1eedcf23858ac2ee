/**
 * Admin pins and organizations: the calls of spec §7 by every kind of caller, bad input (4xx,
 * nothing written), an audit row for every change and none for a change that rolled back, and the
 * /admin/pins page's bulk form.
 */
import { and, count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { db } from '~/db/index.server';
import { auditLogs, organizations, pins, userCollections } from '~/db/schema';
import { action as pinsPage } from '~/routes/admin.pins';
import { action as orgAction } from '~/routes/api.admin.organizations.$id';
import { action as orgsAction, loader as orgsLoader } from '~/routes/api.admin.organizations';
import { action as pinAction } from '~/routes/api.admin.pins.$id';
import { action as bulkAction } from '~/routes/api.admin.pins.bulk.featured';
import { action as pinsAction, loader as pinsLoader } from '~/routes/api.admin.pins';
import { call, NON_ADMIN_ROLES, post, request, session } from '../support/api';
import { createOrganization, createPin } from '../support/factories';

const png = (r = 10) => sharp({ create: { width: 64, height: 64, channels: 3, background: { r, g: 120, b: 200 } } }).png().toBuffer();
const auditFor = (id: string) => db().select().from(auditLogs).where(eq(auditLogs.targetId, id));
const pinCount = async () => Number((await db().select({ n: count() }).from(pins).get())?.n ?? 0);
const auditCount = async () => Number((await db().select({ n: count() }).from(auditLogs).get())?.n ?? 0);

async function pinForm(fields: Record<string, string>, images: Buffer[] = []) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const image of images) form.append('images', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'pin.png');
  return form;
}

describe('every admin pin and organization call refuses visitors (401) and other roles (403)', () => {
  it('GET/POST pins, PATCH/DELETE a pin, bulk featured, GET/POST organizations, PATCH/DELETE one', async () => {
    const pin = await createPin();
    const org = await createOrganization();
    const calls: [unknown, string, string, Record<string, string>][] = [
      [pinsLoader, 'GET', '/api/admin/pins', {}],
      [pinsAction, 'POST', '/api/admin/pins', {}],
      [pinAction, 'PATCH', `/api/admin/pins/${pin.id}`, { id: pin.id }],
      [pinAction, 'DELETE', `/api/admin/pins/${pin.id}`, { id: pin.id }],
      [bulkAction, 'PATCH', '/api/admin/pins/bulk/featured', {}],
      [orgsLoader, 'GET', '/api/admin/organizations', {}],
      [orgsAction, 'POST', '/api/admin/organizations', {}],
      [orgAction, 'PATCH', `/api/admin/organizations/${org.id}`, { id: org.id }],
      [orgAction, 'DELETE', `/api/admin/organizations/${org.id}`, { id: org.id }],
    ];
    const before = await auditCount();
    for (const [handler, method, url, params] of calls) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : { name: 'Hijack', pinIds: [pin.id], featured: true };
      expect((await call(handler, request(url, { method, json: body }), params)).status).toBe(401);
      for (const role of NON_ADMIN_ROLES) {
        const who = await session(role);
        const res = await call(handler, request(url, { method, cookie: who.cookie, json: body }), params);
        expect({ url, method, role, status: res.status }).toEqual({ url, method, role, status: 403 });
      }
    }
    const [still] = await db().select().from(pins).where(eq(pins.id, pin.id));
    expect(still).toMatchObject({ name: pin.name, isFeatured: false });
    expect(await auditCount()).toBe(before);
  });
});

describe('admin pins', () => {
  it('lists { pins, total } with search, organization and rarity filters', async () => {
    const admin = await session('admin');
    const org = await createOrganization(`Filter League ${Date.now()}`);
    await createPin({ organizationId: org.id, name: 'Quokka Classic 2024', rarity: 'rare', estimatedValueCents: 1250 });
    await createPin({ organizationId: org.id, name: 'Quokka Open', rarity: 'common' });
    const all = await call(pinsLoader, request(`/api/admin/pins?organizationId=${org.id}`, { cookie: admin.cookie }));
    expect(all.body.total).toBe(2);
    expect(all.body.pins[0]).toMatchObject({ organizationId: org.id, organization: org.name, team: null, images: [], primaryPhotoIndex: 0 });
    const rare = await call(pinsLoader, request(`/api/admin/pins?organizationId=${org.id}&rarity=rare`, { cookie: admin.cookie }));
    expect(rare.body).toMatchObject({ total: 1, pins: [{ name: 'Quokka Classic 2024', estimatedValue: 12.5 }] });
    const search = await call(pinsLoader, request('/api/admin/pins?search=quokka%20classic', { cookie: admin.cookie }));
    expect(search.body.pins.map((p: { name: string }) => p.name)).toEqual(['Quokka Classic 2024']);
    expect((await call(pinsLoader, request('/api/admin/pins?search=%22%29(', { cookie: admin.cookie }))).body.total).toBe(0);
  });

  it('creates a pin with photos (indexed, audited, not in the admin’s collection), edits and deletes it', async () => {
    const admin = await session('super_admin');
    const org = await createOrganization();
    const form = await pinForm(
      { name: 'Admin Pin', organizationId: org.id, description: 'Made here', totalQuantity: '40', year: '2025', event: 'Cooperstown', distributionDate: '2025-07-04T00:00:00.000Z', isFeatured: 'true', primaryPhotoIndex: '1' },
      [await png(10), await png(200)],
    );
    const created = await call(pinsAction, request('/api/admin/pins', { method: 'POST', cookie: admin.cookie, body: form }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Admin Pin', organizationId: org.id, totalQuantity: 40, rarity: 'ultra_rare', isFeatured: true, distributionDate: '2025-07-04', primaryPhotoIndex: 1 });
    expect(created.body.images).toHaveLength(2);
    const id = created.body.id;
    expect((await auditFor(id)).map((r) => r.action)).toEqual(['pin.create']);
    expect(await db().select().from(userCollections).where(eq(userCollections.userId, admin.user.id))).toEqual([]);

    const patched = await call(pinAction, request(`/api/admin/pins/${id}`, { method: 'PATCH', cookie: admin.cookie, json: { name: 'Admin Pin II', isFeatured: 'false' } }), { id });
    expect(patched).toMatchObject({ status: 200, body: { name: 'Admin Pin II', isFeatured: false } });
    const bad = await call(pinAction, request(`/api/admin/pins/${id}`, { method: 'PATCH', cookie: admin.cookie, json: { totalQuantity: 0 } }), { id });
    expect(bad.status).toBe(400);
    expect((await auditFor(id)).map((r) => r.action).sort()).toEqual(['pin.create', 'pin.update']);

    expect((await call(pinAction, request('/api/admin/pins/nope', { method: 'DELETE', cookie: admin.cookie }), { id: 'nope' })).status).toBe(404);
    const deleted = await call(pinAction, request(`/api/admin/pins/${id}`, { method: 'DELETE', cookie: admin.cookie }), { id });
    expect(deleted).toMatchObject({ status: 200, body: { id } });
    expect(await db().select().from(pins).where(eq(pins.id, id))).toEqual([]);
    expect((await auditFor(id)).map((r) => r.action).sort()).toEqual(['pin.create', 'pin.delete', 'pin.update']);
  });

  it('bad input is a 4xx that writes nothing; a create that fails inside its transaction leaves no audit row', async () => {
    const admin = await session('admin');
    const org = await createOrganization();
    const [pinsBefore, auditBefore] = [await pinCount(), await auditCount()];
    const cases: [Record<string, string>, string][] = [
      [{ name: 'No org', totalQuantity: '5' }, 'Organization is required'],
      [{ name: '', organizationId: org.id }, 'Pin name is required'],
      [{ name: 'Zero', organizationId: org.id, totalQuantity: '0' }, 'Total quantity must be at least 1'],
      [{ name: 'Old', organizationId: org.id, year: '1850' }, `Year must be between 1900 and ${new Date().getFullYear()}`],
      [{ name: 'Ghost org', organizationId: 'no-such-org' }, 'Organization not found'],
      // the team is checked inside the transaction, after the organization: it rolls back
      [{ name: 'Ghost team', organizationId: org.id, teamId: 'no-such-team' }, 'Team not found'],
    ];
    for (const [fields, message] of cases) {
      const res = await call(pinsAction, request('/api/admin/pins', { method: 'POST', cookie: admin.cookie, body: await pinForm(fields) }));
      expect({ fields, status: res.status, error: res.body.error }).toEqual({ fields, status: 400, error: message });
    }
    const six = await pinForm({ name: 'Six', organizationId: org.id }, await Promise.all([1, 2, 3, 4, 5, 6].map((n) => png(n * 30))));
    expect((await call(pinsAction, request('/api/admin/pins', { method: 'POST', cookie: admin.cookie, body: six }))).status).toBe(400);
    const notImage = new FormData();
    notImage.append('name', 'PDF');
    notImage.append('organizationId', org.id);
    notImage.append('images', new Blob([new Uint8Array(Buffer.from('%PDF-1.4'))], { type: 'application/pdf' }), 'x.pdf');
    expect((await call(pinsAction, request('/api/admin/pins', { method: 'POST', cookie: admin.cookie, body: notImage }))).status).toBe(415);
    expect([await pinCount(), await auditCount()]).toEqual([pinsBefore, auditBefore]);
  });

  it('PATCH /api/admin/pins/bulk/featured features the pins named, one audit row per pin changed', async () => {
    const admin = await session('admin');
    const a = await createPin();
    const b = await createPin({ isFeatured: true });
    const before = await auditCount();
    for (const body of [{ pinIds: [a.id], featured: 'yes' }, { pinIds: [], featured: true }, { pinIds: 'x', featured: true }, { featured: true }]) {
      expect((await call(bulkAction, request('/api/admin/pins/bulk/featured', { method: 'PATCH', cookie: admin.cookie, json: body }))).status).toBe(400);
    }
    expect(await auditCount()).toBe(before);
    const res = await call(bulkAction, request('/api/admin/pins/bulk/featured', { method: 'PATCH', cookie: admin.cookie, json: { pinIds: [a.id, b.id], featured: true } }));
    expect(res).toMatchObject({ status: 200, body: { updated: 1, pinIds: [a.id] } });
    expect((await auditFor(a.id)).map((r) => [r.action, r.details])).toEqual([['pin.feature', { name: a.name, before: { isFeatured: false }, after: { isFeatured: true } }]]);
    expect(await auditFor(b.id)).toEqual([]);
  });

  it('the page’s bulk form applies to the rows checked or to every matching pin', async () => {
    const admin = await session('admin');
    const org = await createOrganization();
    const made = await Promise.all([1, 2, 3].map(() => createPin({ organizationId: org.id })));
    const one = await post(pinsPage, '/admin/pins', admin.cookie, { intent: 'feature', ids: [made[0].id], organizationId: org.id });
    expect(one.status).toBe(302);
    expect(one.headers.get('Location')).toBe(`/admin/pins?organizationId=${org.id}`);
    expect((await db().select().from(pins).where(and(eq(pins.organizationId, org.id), eq(pins.isFeatured, true)))).length).toBe(1);
    await post(pinsPage, '/admin/pins', admin.cookie, { intent: 'feature', scope: 'all', organizationId: org.id });
    expect((await db().select().from(pins).where(and(eq(pins.organizationId, org.id), eq(pins.isFeatured, true)))).length).toBe(3);
    const other = await createPin();
    expect((await db().select().from(pins).where(eq(pins.id, other.id)))[0].isFeatured).toBe(false);
  });
});

describe('admin organizations', () => {
  it('lists, creates, renames and deletes; a name clash 409; one with pins cannot be deleted (409)', async () => {
    const admin = await session('admin');
    const name = `Harbor League ${Date.now()}`;
    const created = await call(orgsAction, request('/api/admin/organizations', { method: 'POST', cookie: admin.cookie, json: { name, description: 'Bayside' } }));
    expect(created).toMatchObject({ status: 201, body: { name, description: 'Bayside' } });
    const id = created.body.id;
    const list = await call(orgsLoader, request(`/api/admin/organizations?search=${encodeURIComponent(name)}`, { cookie: admin.cookie }));
    expect(list.body).toMatchObject({ total: 1, organizations: [{ id, name, pinCount: 0 }] });
    expect((await call(orgsAction, request('/api/admin/organizations', { method: 'POST', cookie: admin.cookie, json: { name: name.toUpperCase() } }))).status).toBe(409);
    expect((await call(orgsAction, request('/api/admin/organizations', { method: 'POST', cookie: admin.cookie, json: { name: ' ' } }))).status).toBe(400);

    const renamed = await call(orgAction, request(`/api/admin/organizations/${id}`, { method: 'PATCH', cookie: admin.cookie, json: { name: `${name} II`, description: '' } }), { id });
    expect(renamed).toMatchObject({ status: 200, body: { name: `${name} II`, description: null } });

    await createPin({ organizationId: id });
    const refused = await call(orgAction, request(`/api/admin/organizations/${id}`, { method: 'DELETE', cookie: admin.cookie }), { id });
    expect(refused).toMatchObject({ status: 409, body: { error: 'You cannot delete an organization that has pins associated with it.' } });
    expect((await auditFor(id)).map((r) => r.action).sort()).toEqual(['organization.create', 'organization.update']);

    const empty = await createOrganization();
    expect((await call(orgAction, request(`/api/admin/organizations/${empty.id}`, { method: 'DELETE', cookie: admin.cookie }), { id: empty.id })).status).toBe(200);
    expect(await db().select().from(organizations).where(eq(organizations.id, empty.id))).toEqual([]);
    expect((await auditFor(empty.id)).map((r) => r.action)).toEqual(['organization.delete']);
    expect((await call(orgAction, request('/api/admin/organizations/nope', { method: 'DELETE', cookie: admin.cookie }), { id: 'nope' })).status).toBe(404);
  });
});
