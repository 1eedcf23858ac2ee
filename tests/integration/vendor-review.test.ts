/**
 * The vendor application's state machine: who may move it, which moves are allowed, and what each
 * move writes (vendors row, history, audit, the user's role) in one transaction. Plus the CLI.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDatabase } from '~/db/client.server';
import { db } from '~/db/index.server';
import { auditLogs, users, vendorApplicationHistory, vendors, type Role } from '~/db/schema';
import { reviewVendorApplication, SYSTEM_ACTOR, vendorApplicationHistoryOf } from '~/services/vendor-review.server';
import { createUser } from '../support/factories';

async function applicant(role: Role = 'player', status: 'pending' | 'approved' = 'pending') {
  const user = await createUser({ role });
  const [vendor] = await db()
    .insert(vendors)
    .values({ userId: user.id, businessName: `Shop of ${user.id.slice(-4)}`, contactEmail: user.email, applicationStatus: status, isApproved: status === 'approved' })
    .returning();
  return { user, vendor };
}

const roleOf = async (id: string) => (await db().select({ role: users.role }).from(users).where(eq(users.id, id)).get())?.role;
const historyOf = (vendorId: string) => db().select().from(vendorApplicationHistory).where(eq(vendorApplicationHistory.vendorId, vendorId));

describe('reviewVendorApplication', () => {
  it('an admin approves: isApproved, vendor role, history and audit rows with who and when', async () => {
    const admin = await createUser({ role: 'admin' });
    const { user, vendor } = await applicant();
    const updated = await reviewVendorApplication(admin, vendor.id, { status: 'approved', notes: 'Looks good' });
    expect(updated).toMatchObject({ applicationStatus: 'approved', isApproved: true, reviewedBy: admin.id, adminNotes: 'Looks good' });
    expect(updated.reviewedAt).toBeInstanceOf(Date);
    expect(await roleOf(user.id)).toBe('vendor');
    const history = await historyOf(vendor.id);
    expect(history.map((h) => [h.previousStatus, h.newStatus, h.changedBy, h.notes])).toEqual([['pending', 'approved', admin.id, 'Looks good']]);
    expect(history[0].createdAt).toBeInstanceOf(Date);
    const audit = await db().select().from(auditLogs).where(eq(auditLogs.targetId, vendor.id));
    expect(audit.map((a) => [a.userId, a.action, a.details?.after])).toEqual([[admin.id, 'vendor.status_change', { applicationStatus: 'approved' }]]);
    const roleAudit = await db().select().from(auditLogs).where(and(eq(auditLogs.targetId, user.id), eq(auditLogs.action, 'user.role_change')));
    expect(roleAudit).toHaveLength(1);
    // the vendor reads their own history; another user may not
    expect(await vendorApplicationHistoryOf(user, vendor.id)).toHaveLength(1);
    await expect(vendorApplicationHistoryOf(await createUser(), vendor.id)).rejects.toMatchObject({ status: 403 });
  });

  it('refuses visitors (401), non-admins (403), unknown ids (404), bad input (400) and disallowed moves (409), writing nothing', async () => {
    const { user, vendor } = await applicant();
    const admin = await createUser({ role: 'super_admin' });
    await expect(reviewVendorApplication(null, vendor.id, { status: 'approved' })).rejects.toMatchObject({ status: 401 });
    await expect(reviewVendorApplication(user, vendor.id, { status: 'approved' })).rejects.toMatchObject({ status: 403 });
    await expect(reviewVendorApplication(await createUser({ role: 'vendor' }), vendor.id, { status: 'approved' })).rejects.toMatchObject({ status: 403 });
    await expect(reviewVendorApplication(admin, 'nope', { status: 'approved' })).rejects.toMatchObject({ status: 404 });
    await expect(reviewVendorApplication(admin, vendor.id, { status: 'closed' })).rejects.toMatchObject({ status: 400 });
    await expect(reviewVendorApplication(admin, vendor.id, { status: 'rejected' })).rejects.toMatchObject({
      status: 400,
      issues: { rejectionReason: ['A reason is required to reject an application'] },
    });
    await expect(reviewVendorApplication(admin, vendor.id, { status: 'pending' })).rejects.toMatchObject({ status: 409 });
    expect(await historyOf(vendor.id)).toEqual([]);
    expect((await db().select().from(vendors).where(eq(vendors.id, vendor.id)).get())?.applicationStatus).toBe('pending');
    expect(await roleOf(user.id)).toBe('player');
  });

  it('walks review -> needs revision -> reject with reason -> reconsider -> approve -> revoke; revoking lowers a vendor to player', async () => {
    const admin = await createUser({ role: 'admin' });
    const { user, vendor } = await applicant();
    await reviewVendorApplication(admin, vendor.id, { status: 'under_review' });
    await reviewVendorApplication(admin, vendor.id, { status: 'needs_revision', notes: 'Add a tax id' });
    const rejected = await reviewVendorApplication(admin, vendor.id, { status: 'rejected', rejectionReason: 'No reply' });
    expect(rejected).toMatchObject({ rejectionReason: 'No reply', isApproved: false });
    await expect(reviewVendorApplication(admin, vendor.id, { status: 'needs_revision' })).rejects.toMatchObject({ status: 409 });
    await reviewVendorApplication(admin, vendor.id, { status: 'under_review' });
    const approved = await reviewVendorApplication(admin, vendor.id, { status: 'approved' });
    expect(approved.rejectionReason).toBeNull();
    expect(await roleOf(user.id)).toBe('vendor');
    await expect(reviewVendorApplication(admin, vendor.id, { status: 'approved' })).rejects.toMatchObject({ status: 409, message: 'The application is already approved' });
    const revoked = await reviewVendorApplication(admin, vendor.id, { status: 'rejected', rejectionReason: 'Sold counterfeit pins' });
    expect(revoked.isApproved).toBe(false);
    expect(await roleOf(user.id)).toBe('player');
    expect((await historyOf(vendor.id)).map((h) => h.newStatus)).toEqual(['under_review', 'needs_revision', 'rejected', 'under_review', 'approved', 'rejected']);
  });

  it('never changes an admin’s role, approving or revoking', async () => {
    const reviewer = await createUser({ role: 'super_admin' });
    const { user, vendor } = await applicant('admin');
    await reviewVendorApplication(reviewer, vendor.id, { status: 'approved' });
    expect(await roleOf(user.id)).toBe('admin');
    await reviewVendorApplication(reviewer, vendor.id, { status: 'rejected', rejectionReason: 'Test' });
    expect(await roleOf(user.id)).toBe('admin');
  });

  it('the system actor (CLI) approves with no user as reviewer', async () => {
    const { user, vendor } = await applicant();
    const updated = await reviewVendorApplication(SYSTEM_ACTOR, vendor.id, { status: 'approved' });
    expect(updated).toMatchObject({ isApproved: true, reviewedBy: null });
    expect(await roleOf(user.id)).toBe('vendor');
    const [audit] = await db().select().from(auditLogs).where(eq(auditLogs.targetId, vendor.id));
    expect(audit).toMatchObject({ userId: null, details: expect.objectContaining({ via: 'cli' }) });
  });

  it('npm run vendor:approve -- email approves the application of that account', async () => {
    const { user, vendor } = await applicant();
    const run = promisify(execFile);
    const url = getDatabase().url;
    const ok = await run('npx', ['tsx', 'app/cli/vendor-approve.ts', '--', user.email.toUpperCase()], { env: { ...process.env, DATABASE_URL: url } });
    expect(ok.stdout).toContain('pending -> approved');
    expect((await db().select().from(vendors).where(eq(vendors.id, vendor.id)).get())?.isApproved).toBe(true);
    expect(await roleOf(user.id)).toBe('vendor');
    const missing = await run('npx', ['tsx', 'app/cli/vendor-approve.ts', '--', 'nobody@example.test'], { env: { ...process.env, DATABASE_URL: url } }).catch((e) => e);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No vendor application for nobody@example.test');
  });
});
