/**
 * Admin: vendor applications by status, with their age, and one application with its history.
 * Moves between statuses go through `reviewVendorApplication` (vendor-review.server.ts), the one
 * home of the application's state machine.
 */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { assertCanReviewVendorApplications, type Actor } from '~/auth/permissions';
import { db } from '~/db/index.server';
import { users, vendors } from '~/db/schema';
import { VENDOR_STATUSES, type VendorStatus, isOneOf } from '~/utils/constants';
import { displayName } from '~/utils/user';
import { NotFound } from '../errors';
import { VENDOR_NOT_FOUND, VENDOR_STATUS_MOVES, vendorApplicationHistoryOf } from '../vendor-review.server';
import { likePattern, pageWindow } from './list.server';

export interface VendorApplicationRow {
  id: string;
  businessName: string;
  contactEmail: string;
  applicant: string;
  applicantEmail: string;
  status: VendorStatus;
  isApproved: boolean;
  createdAt: string;
  reviewedAt: string | null;
  /** whole days since the application was made */
  ageDays: number;
}

export interface VendorApplicationDetails extends VendorApplicationRow {
  userId: string;
  description: string | null;
  contactPhone: string | null;
  websiteUrl: string | null;
  businessAddress: string | null;
  yearsInBusiness: number | null;
  estimatedMonthlyVolume: string | null;
  specializations: string[];
  adminNotes: string | null;
  rejectionReason: string | null;
  /** the statuses it may move to */
  moves: VendorStatus[];
  history: { id: string; previousStatus: VendorStatus | null; newStatus: VendorStatus; changedBy: string | null; notes: string | null; createdAt: string }[];
}

const DAY = 86_400_000;

const columns = {
  vendor: vendors,
  email: users.email,
  nickname: users.nickname,
  firstName: users.firstName,
  lastName: users.lastName,
};

function toRow(r: { vendor: typeof vendors.$inferSelect; email: string | null; nickname: string | null; firstName: string | null; lastName: string | null }, now: number): VendorApplicationRow {
  return {
    id: r.vendor.id,
    businessName: r.vendor.businessName,
    contactEmail: r.vendor.contactEmail,
    applicant: r.email ? displayName({ email: r.email, nickname: r.nickname, firstName: r.firstName, lastName: r.lastName }) : '-',
    applicantEmail: r.email ?? '',
    status: r.vendor.applicationStatus,
    isApproved: r.vendor.isApproved,
    createdAt: r.vendor.createdAt.toISOString(),
    reviewedAt: r.vendor.reviewedAt ? r.vendor.reviewedAt.toISOString() : null,
    ageDays: Math.max(0, Math.floor((now - r.vendor.createdAt.getTime()) / DAY)),
  };
}

/** The applications of one status (or all), oldest waiting first; and the count of each status. */
export async function listVendorApplications(
  actor: Actor | null,
  query: { status?: string | null; search?: string | null; limit?: unknown; offset?: unknown } = {},
): Promise<{ applications: VendorApplicationRow[]; total: number; counts: Record<VendorStatus, number> }> {
  assertCanReviewVendorApplications(actor);
  const { limit, offset } = pageWindow(query.limit, query.offset, { fallback: 20, max: 200 });
  const conditions: SQL[] = [];
  if (isOneOf(VENDOR_STATUSES, query.status)) conditions.push(eq(vendors.applicationStatus, query.status));
  const pattern = likePattern(query.search);
  if (pattern) conditions.push(sql`(${vendors.businessName} like ${pattern} escape '\\' or ${users.email} like ${pattern} escape '\\')`);
  const where = conditions.length ? and(...conditions) : undefined;
  const now = Date.now();
  const [rows, total, byStatus] = await Promise.all([
    db()
      .select(columns)
      .from(vendors)
      .leftJoin(users, eq(users.id, vendors.userId))
      .where(where)
      // the oldest waiting application first, decided ones by their last review
      .orderBy(sql`case when ${vendors.applicationStatus} in ('approved', 'rejected') then 1 else 0 end`, sql`case when ${vendors.applicationStatus} in ('approved', 'rejected') then -coalesce(${vendors.reviewedAt}, 0) else ${vendors.createdAt} end`, desc(vendors.id))
      .limit(limit)
      .offset(offset),
    db().select({ n: count() }).from(vendors).leftJoin(users, eq(users.id, vendors.userId)).where(where).get(),
    db().select({ status: vendors.applicationStatus, n: count() }).from(vendors).groupBy(vendors.applicationStatus),
  ]);
  const counts = Object.fromEntries(VENDOR_STATUSES.map((s) => [s, 0])) as Record<VendorStatus, number>;
  for (const r of byStatus) counts[r.status] = Number(r.n);
  return { applications: rows.map((r) => toRow(r, now)), total: Number(total?.n ?? 0), counts };
}

export async function getVendorApplication(actor: Actor | null, vendorId: string): Promise<VendorApplicationDetails> {
  assertCanReviewVendorApplications(actor);
  const row = typeof vendorId === 'string' && vendorId.length <= 64 ? await db().select(columns).from(vendors).leftJoin(users, eq(users.id, vendors.userId)).where(eq(vendors.id, vendorId)).get() : undefined;
  if (!row) throw new NotFound(VENDOR_NOT_FOUND);
  const history = await vendorApplicationHistoryOf(actor, vendorId);
  const v = row.vendor;
  return {
    ...toRow(row, Date.now()),
    userId: v.userId,
    description: v.description,
    contactPhone: v.contactPhone,
    websiteUrl: v.websiteUrl,
    businessAddress: v.businessAddress,
    yearsInBusiness: v.yearsInBusiness,
    estimatedMonthlyVolume: v.estimatedMonthlyVolume,
    specializations: v.specializations ?? [],
    adminNotes: v.adminNotes,
    rejectionReason: v.rejectionReason,
    moves: [...VENDOR_STATUS_MOVES[v.applicationStatus]],
    history: history.map((h) => ({
      id: h.id,
      previousStatus: h.previousStatus,
      newStatus: h.newStatus,
      changedBy: h.changedByEmail,
      notes: h.notes,
      createdAt: h.createdAt.toISOString(),
    })),
  };
}
