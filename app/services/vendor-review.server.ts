/**
 * The vendor application's state machine (spec §4): the one place that moves a vendors row between
 * pending, under_review, approved, rejected and needs_revision.
 *
 * Moves an admin may make (anything else is refused with 409):
 *   pending        -> under_review | approved | rejected | needs_revision
 *   under_review   -> approved | rejected | needs_revision
 *   needs_revision -> under_review | approved | rejected
 *   approved       -> under_review | rejected          (suspend for review, or revoke)
 *   rejected       -> under_review | approved          (reconsider)
 * A vendor's own resubmission (needs_revision or rejected -> pending) is not a review: the vendors
 * service writes it through `recordApplicationMove`, so both write the same history row.
 *
 * Every move writes, in one transaction: the vendors row (status, reviewer, notes, reason), a
 * vendor_application_history row (who, from, to, notes, when) and an audit row. Approval sets
 * isApproved and gives the user the vendor role; leaving approved clears isApproved and lowers a
 * vendor back to player. Admin and super admin roles are never touched either way.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { assertCanReviewVendorApplications, isAdminRole, type Actor } from '~/auth/permissions';
import { db, transaction, type Db } from '~/db/index.server';
import { users, vendorApplicationHistory, vendors, type Vendor } from '~/db/schema';
import { VENDOR_STATUSES, type Role, type VendorStatus } from '~/utils/constants';
import { parseWith } from '~/utils/validation';
import { recordAudit } from './audit.server';
import { Conflict, NotFound } from './errors';

/** The machine's operator acting from the command line (trusted, like `npm run user:role`). */
export const SYSTEM_ACTOR = { system: true, via: 'cli' } as const;
export type SystemActor = typeof SYSTEM_ACTOR;
type Reviewer = Actor | SystemActor | null | undefined;

export const VENDOR_NOT_FOUND = 'Vendor application not found';
export const REJECTION_REASON_REQUIRED = 'A reason is required to reject an application';

export const VENDOR_STATUS_MOVES: Record<VendorStatus, readonly VendorStatus[]> = {
  pending: ['under_review', 'approved', 'rejected', 'needs_revision'],
  under_review: ['approved', 'rejected', 'needs_revision'],
  needs_revision: ['under_review', 'approved', 'rejected'],
  approved: ['under_review', 'rejected'],
  rejected: ['under_review', 'approved'],
};

export const VENDOR_STATUS_LABELS: Record<VendorStatus, string> = {
  pending: 'Pending',
  under_review: 'Under Review',
  approved: 'Approved',
  rejected: 'Rejected',
  needs_revision: 'Needs Revision',
};

export function canMoveVendorStatus(from: VendorStatus, to: VendorStatus): boolean {
  return VENDOR_STATUS_MOVES[from].includes(to);
}

export const reviewSchema = z
  .object({
    status: z.enum(VENDOR_STATUSES, { errorMap: () => ({ message: 'Choose a valid status' }) }),
    notes: z
      .string()
      .trim()
      .max(2000, 'Notes must be at most 2000 characters')
      .optional()
      .transform((v) => v || null),
    rejectionReason: z
      .string()
      .trim()
      .max(2000, 'The reason must be at most 2000 characters')
      .optional()
      .transform((v) => v || null),
  })
  .superRefine((v, ctx) => {
    if (v.status === 'rejected' && !v.rejectionReason) {
      ctx.addIssue({ code: 'custom', path: ['rejectionReason'], message: REJECTION_REASON_REQUIRED });
    }
  });
export type ReviewInput = z.input<typeof reviewSchema>;

function isSystem(actor: Reviewer): actor is SystemActor {
  return !!actor && 'system' in actor && actor.system === true;
}

export interface ApplicationMove {
  vendor: Vendor;
  from: VendorStatus | null;
  to: VendorStatus;
  changedBy: string | null;
  notes?: string | null;
  via?: string;
}

/** Writes the history row and the audit row of one move (inside the caller's transaction). */
export async function recordApplicationMove(tx: Db, move: ApplicationMove): Promise<void> {
  await tx.insert(vendorApplicationHistory).values({
    vendorId: move.vendor.id,
    previousStatus: move.from,
    newStatus: move.to,
    changedBy: move.changedBy,
    notes: move.notes ?? null,
  });
  await recordAudit(tx, {
    actor: move.changedBy ? { id: move.changedBy } : null,
    action: move.from === null ? 'vendor.apply' : 'vendor.status_change',
    targetType: 'vendor',
    targetId: move.vendor.id,
    details: {
      businessName: move.vendor.businessName,
      before: { applicationStatus: move.from },
      after: { applicationStatus: move.to },
      ...(move.notes ? { notes: move.notes } : {}),
      ...(move.via ? { via: move.via } : {}),
    },
  });
}

/** The role a user holds after their application moves (admins keep theirs). */
function roleAfter(current: Role, approved: boolean): Role {
  if (isAdminRole(current)) return current;
  if (approved) return 'vendor';
  return current === 'vendor' ? 'player' : current;
}

/**
 * Moves a vendor application to `status`. Admins only (or the CLI's SYSTEM_ACTOR). 404 for an
 * unknown vendor, 400 for bad input (a rejection without a reason), 409 for a move the machine
 * does not allow (including "to the same status").
 */
export async function reviewVendorApplication(actor: Reviewer, vendorId: string, input: ReviewInput | Record<string, unknown>): Promise<Vendor> {
  let reviewerId: string | null = null;
  if (!isSystem(actor)) {
    assertCanReviewVendorApplications(actor);
    reviewerId = actor.id;
  }
  const data = parseWith(reviewSchema, input);
  return transaction(async (tx) => {
    const vendor = typeof vendorId === 'string' && vendorId ? await tx.select().from(vendors).where(eq(vendors.id, vendorId)).get() : undefined;
    if (!vendor) throw new NotFound(VENDOR_NOT_FOUND);
    const from = vendor.applicationStatus;
    if (!canMoveVendorStatus(from, data.status)) {
      throw new Conflict(
        from === data.status
          ? `The application is already ${VENDOR_STATUS_LABELS[from].toLowerCase()}`
          : `An application that is ${VENDOR_STATUS_LABELS[from].toLowerCase()} cannot be moved to ${VENDOR_STATUS_LABELS[data.status].toLowerCase()}`,
      );
    }
    const approved = data.status === 'approved';
    const [updated] = await tx
      .update(vendors)
      .set({
        applicationStatus: data.status,
        isApproved: approved,
        reviewedBy: reviewerId,
        reviewedAt: new Date(),
        adminNotes: data.notes ?? vendor.adminNotes,
        rejectionReason: data.status === 'rejected' ? data.rejectionReason : null,
      })
      // the status read above still holds: a concurrent review of the same application loses
      .where(sql`${vendors.id} = ${vendor.id} and ${vendors.applicationStatus} = ${from}`)
      .returning();
    if (!updated) throw new Conflict('The application was changed meanwhile; reload and try again');

    const user = await tx.select({ id: users.id, role: users.role }).from(users).where(eq(users.id, vendor.userId)).get();
    if (user) {
      const role = roleAfter(user.role, approved);
      if (role !== user.role) {
        await tx.update(users).set({ role }).where(eq(users.id, user.id));
        await recordAudit(tx, {
          actor: reviewerId ? { id: reviewerId } : null,
          action: 'user.role_change',
          targetType: 'user',
          targetId: user.id,
          details: { before: { role: user.role }, after: { role }, reason: `vendor application ${data.status}` },
        });
      }
    }
    const notes = [data.notes, data.status === 'rejected' ? `Reason: ${data.rejectionReason}` : null].filter(Boolean).join('\n') || null;
    await recordApplicationMove(tx, { vendor: updated, from, to: data.status, changedBy: reviewerId, notes, via: isSystem(actor) ? 'cli' : undefined });
    return updated;
  });
}

/** Approves the application of the account with this e-mail (CLI: `npm run vendor:approve -- email`). */
export async function approveVendorByEmail(email: string, notes?: string): Promise<{ vendor: Vendor; previous: VendorStatus }> {
  const row = await db()
    .select({ vendor: vendors })
    .from(vendors)
    .innerJoin(users, eq(users.id, vendors.userId))
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .get();
  if (!row) throw new NotFound(`No vendor application for ${email}`);
  const vendor = await reviewVendorApplication(SYSTEM_ACTOR, row.vendor.id, { status: 'approved', notes: notes ?? 'Approved from the command line' });
  return { vendor, previous: row.vendor.applicationStatus };
}

export interface ApplicationHistoryEntry {
  id: string;
  previousStatus: VendorStatus | null;
  newStatus: VendorStatus;
  changedBy: string | null;
  changedByEmail: string | null;
  notes: string | null;
  createdAt: Date;
}

/** An application's moves, oldest first (admins, and the vendor themself). */
export async function vendorApplicationHistoryOf(actor: Actor | null, vendorId: string): Promise<ApplicationHistoryEntry[]> {
  const vendor = await db().select({ userId: vendors.userId }).from(vendors).where(eq(vendors.id, vendorId)).get();
  if (!vendor) throw new NotFound(VENDOR_NOT_FOUND);
  if (!actor || actor.id !== vendor.userId) assertCanReviewVendorApplications(actor);
  return db()
    .select({
      id: vendorApplicationHistory.id,
      previousStatus: vendorApplicationHistory.previousStatus,
      newStatus: vendorApplicationHistory.newStatus,
      changedBy: vendorApplicationHistory.changedBy,
      changedByEmail: users.email,
      notes: vendorApplicationHistory.notes,
      createdAt: vendorApplicationHistory.createdAt,
    })
    .from(vendorApplicationHistory)
    .leftJoin(users, eq(users.id, vendorApplicationHistory.changedBy))
    .where(eq(vendorApplicationHistory.vendorId, vendorId))
    .orderBy(asc(vendorApplicationHistory.createdAt), asc(vendorApplicationHistory.id));
}
