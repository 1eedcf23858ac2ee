/**
 * The admin dashboard, analytics and audit log: live figures, buckets that include quiet days,
 * the success rate, charts drawn on the server, and the audit log for super admins only (401/403).
 */
import { describe, expect, it } from 'vitest';
import { db } from '~/db/index.server';
import { auditLogs, identifications, userCollections } from '~/db/schema';
import { loader as auditLoader } from '~/routes/api.admin.audit-logs';
import { loader as auditPage } from '~/routes/admin.audit-logs';
import { bucketsOf, getAnalytics, readAnalyticsQuery } from '~/services/admin/analytics.server';
import { lineChart } from '~/services/admin/charts.server';
import { getDashboard } from '~/services/admin/dashboard.server';
import { listAuditLogs } from '~/services/admin/audit-log.server';
import { changeUserRole } from '~/services/users.server';
import { call, NON_ADMIN_ROLES, request, session } from '../support/api';
import { createPin, createUser } from '../support/factories';

describe('analytics', () => {
  it('reads the range from the URL and fills every bucket', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    expect(readAnalyticsQuery(new URLSearchParams(''), now)).toEqual({ interval: 'day', from: '2026-02-14', to: '2026-03-15' });
    expect(readAnalyticsQuery(new URLSearchParams('from=2026-03-10&to=2026-03-01&interval=week'), now)).toEqual({ interval: 'week', from: '2026-03-01', to: '2026-03-10' });
    expect(readAnalyticsQuery(new URLSearchParams('from=bad&interval=year'), now).interval).toBe('day');
    expect(bucketsOf({ interval: 'week', from: '2026-03-01', to: '2026-03-10' })).toEqual(['2026-02-23', '2026-03-02', '2026-03-09']);
    expect(bucketsOf({ interval: 'month', from: '2026-01-31', to: '2026-03-01' })).toEqual(['2026-01', '2026-02', '2026-03']);
    expect(bucketsOf({ interval: 'day', from: '2026-03-01', to: '2026-03-03' })).toHaveLength(3);
  });

  it('counts identifications by bucket, the success rate and the top pins; charts are SVG paths', async () => {
    const admin = await createUser({ role: 'admin' });
    const collector = await createUser();
    const pin = await createPin({ name: 'Most Seen' });
    const day = (d: string) => new Date(`${d}T10:00:00Z`);
    await db().insert(identifications).values([
      { pinId: pin.id, confidence: 90, createdAt: day('2025-05-01') },
      { pinId: pin.id, confidence: 80, createdAt: day('2025-05-03') },
      { pinId: null, confidence: 0, createdAt: day('2025-05-03') },
      { pinId: pin.id, confidence: 80, createdAt: day('2025-06-01') },
    ]);
    await db().insert(userCollections).values({ userId: collector.id, pinId: pin.id, status: 'owned' });
    const report = await getAnalytics(admin, { interval: 'day', from: '2025-05-01', to: '2025-05-04' });
    expect(report.identifications.map((b) => [b.key, b.value])).toEqual([
      ['2025-05-01', 1],
      ['2025-05-02', 0],
      ['2025-05-03', 2],
      ['2025-05-04', 0],
    ]);
    expect(report.success).toEqual({ total: 3, matched: 2, rate: 2 / 3 });
    expect(report.topIdentified).toEqual([{ id: pin.id, name: 'Most Seen', count: 2 }]);
    expect(report.topCollected[0]).toMatchObject({ id: pin.id, count: 1 });
    const chart = lineChart(report.identifications);
    expect(chart.line).toMatch(/^M[\d.]+,[\d.]+/);
    expect(chart.yTicks.map((t) => t.label)).toContain('2');
    await expect(getAnalytics(await createUser({ role: 'vendor' }), report.query)).rejects.toMatchObject({ status: 403 });
  });
});

describe('dashboard', () => {
  it('counts live figures; super admins get the audit log as recent activity, admins the newest sign-ups and pins', async () => {
    const admin = await createUser({ role: 'admin' });
    const superAdmin = await createUser({ role: 'super_admin' });
    await createPin();
    const forAdmin = await getDashboard(admin);
    expect(forAdmin.figures.users).toBeGreaterThanOrEqual(2);
    expect(forAdmin.figures.newUsersThisWeek).toBeGreaterThanOrEqual(2);
    expect(forAdmin.figures.pins).toBeGreaterThanOrEqual(1);
    expect(forAdmin.activity).toBeNull();
    expect(forAdmin.recent.length).toBeGreaterThan(0);
    expect((await getDashboard(superAdmin)).activity).not.toBeNull();
    await expect(getDashboard(await createUser({ role: 'manager' }))).rejects.toMatchObject({ status: 403 });
  });
});

describe('audit log', () => {
  it('GET /api/admin/audit-logs: super admins only, filtered and newest first, targets linked', async () => {
    const superAdmin = await session('super_admin');
    const target = await createUser();
    await changeUserRole({ ...superAdmin.user, vendor: null }, target.id, 'manager');
    await changeUserRole({ ...superAdmin.user, vendor: null }, target.id, 'vendor');
    const res = await call(auditLoader, request(`/api/admin/audit-logs?actorId=${superAdmin.user.id}&action=user.role_change&targetType=user`, { cookie: superAdmin.cookie }));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.entries.map((e: { details: { after: { role: string } } }) => e.details.after.role)).toEqual(['vendor', 'manager']);
    // the line the audit log and a record's history show, written by the server
    expect(res.body.entries.map((e: { summary: string }) => e.summary)).toEqual(['role: manager → vendor', 'role: player → manager']);
    expect(res.body.entries[0]).toMatchObject({ targetHref: `/admin/users?dialog=details&id=${target.id}`, actorName: expect.any(String) });
    const today = new Date().toISOString().slice(0, 10);
    expect((await listAuditLogs(superAdmin.user, { actorId: superAdmin.user.id, from: '2000-01-01', to: '2000-01-02' })).total).toBe(0);
    expect((await listAuditLogs(superAdmin.user, { actorId: superAdmin.user.id, from: today, to: today })).total).toBe(2);

    expect((await call(auditLoader, request('/api/admin/audit-logs'))).status).toBe(401);
    for (const role of [...NON_ADMIN_ROLES, 'admin'] as const) {
      const who = await session(role);
      expect((await call(auditLoader, request('/api/admin/audit-logs', { cookie: who.cookie }))).status).toBe(403);
    }
    const admin = await session('admin');
    const page = await auditPage({ request: request('/admin/audit-logs', { cookie: admin.cookie }), params: {}, context: {} });
    expect(page.status).toBe(403);
    const ok = await auditPage({ request: request('/admin/audit-logs?page=99999', { cookie: superAdmin.cookie }), params: {}, context: {} });
    expect(ok.status).toBe(200);
    expect(await db().select().from(auditLogs)).not.toHaveLength(0);
  });
});
