/** Admin vendor applications: the list by status with age, a review move with its history, and the calls' guards. */
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { db } from '~/db/index.server';
import { auditLogs, users, vendorApplicationHistory, vendors } from '~/db/schema';
import { action as pageAction, loader as pageLoader } from '~/routes/admin.vendors';
import { action as vendorAction, loader as vendorLoader } from '~/routes/api.admin.vendors.$id';
import { loader as vendorsLoader } from '~/routes/api.admin.vendors';
import { call, NON_ADMIN_ROLES, post, request, session } from '../support/api';
import { createUser } from '../support/factories';

async function application(daysAgo = 3) {
  const user = await createUser({ role: 'player' });
  const [row] = await db()
    .insert(vendors)
    .values({ userId: user.id, businessName: `Shop ${user.id}`, contactEmail: user.email, createdAt: new Date(Date.now() - daysAgo * 86_400_000) })
    .returning();
  return { user, vendor: row };
}

describe('admin vendor applications', () => {
  it('lists by status with their age; refuses visitors and other roles', async () => {
    const admin = await session('admin');
    const { vendor } = await application(3);
    const list = await call(vendorsLoader, request('/api/admin/vendors?status=pending', { cookie: admin.cookie }));
    expect(list.status).toBe(200);
    expect(list.body.counts.pending).toBeGreaterThanOrEqual(1);
    expect(list.body.applications.find((a: { id: string }) => a.id === vendor.id)).toMatchObject({ status: 'pending', ageDays: 3 });
    expect((await call(vendorsLoader, request('/api/admin/vendors'))).status).toBe(401);
    for (const role of NON_ADMIN_ROLES) {
      const who = await session(role);
      expect((await call(vendorsLoader, request('/api/admin/vendors', { cookie: who.cookie }))).status).toBe(403);
      expect((await call(vendorAction, request(`/api/admin/vendors/${vendor.id}`, { method: 'PATCH', cookie: who.cookie, json: { status: 'approved' } }), { id: vendor.id })).status).toBe(403);
      expect((await call(vendorLoader, request(`/api/admin/vendors/${vendor.id}`, { cookie: who.cookie }), { id: vendor.id })).status).toBe(403);
    }
    expect((await db().select().from(vendors).where(eq(vendors.id, vendor.id)))[0].applicationStatus).toBe('pending');
  });

  it('moves an application with notes and a reason; approval gives the vendor role; bad moves write nothing', async () => {
    const admin = await session('super_admin');
    const { user, vendor } = await application(1);
    const url = `/api/admin/vendors/${vendor.id}`;
    const before = Number((await db().select({ n: count() }).from(auditLogs).get())?.n);
    const noReason = await call(vendorAction, request(url, { method: 'PATCH', cookie: admin.cookie, json: { status: 'rejected' } }), { id: vendor.id });
    expect(noReason).toMatchObject({ status: 400, body: { error: 'A reason is required to reject an application' } });
    expect((await call(vendorAction, request(url, { method: 'PATCH', cookie: admin.cookie, json: { status: 'pending' } }), { id: vendor.id })).status).toBe(409);
    expect(Number((await db().select({ n: count() }).from(auditLogs).get())?.n)).toBe(before);

    // the page's form: a review step, then approval
    const review = await post(pageAction, '/admin/vendors', admin.cookie, { id: vendor.id, status: 'under_review', notes: 'Checking the licence', back: '/admin/vendors?status=pending' });
    expect(review.headers.get('Location')).toBe('/admin/vendors?status=pending');
    const refused = await post(pageAction, '/admin/vendors', admin.cookie, { id: vendor.id, status: 'rejected' });
    expect(refused.status).toBe(400);
    expect(refused.body.lastResult.error.rejectionReason).toEqual(['A reason is required to reject an application']);
    const approved = await call(vendorAction, request(url, { method: 'PATCH', cookie: admin.cookie, json: { status: 'approved', notes: 'Welcome' } }), { id: vendor.id });
    expect(approved).toMatchObject({ status: 200, body: { status: 'approved', isApproved: true, moves: ['under_review', 'rejected'] } });
    expect(approved.body.history.map((h: { newStatus: string }) => h.newStatus)).toEqual(['under_review', 'approved']);
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0].role).toBe('vendor');
    expect(await db().select().from(vendorApplicationHistory).where(eq(vendorApplicationHistory.vendorId, vendor.id))).toHaveLength(2);

    const page = await pageLoader({ request: request(`/admin/vendors?id=${vendor.id}`, { cookie: admin.cookie }), params: {}, context: {} });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the loader's JSON, read freely
    const data: any = await page.json();
    expect(data.details).toMatchObject({ id: vendor.id, status: 'approved', adminNotes: 'Welcome' });
  });
});
