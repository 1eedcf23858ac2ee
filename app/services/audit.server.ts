/**
 * The audit log: who did what to which record, written in the same transaction as the change it
 * records, so a change that rolls back leaves no row and a committed one always has its row.
 * Every admin mutation, role change and vendor decision calls `recordAudit`.
 */
import { and, desc, eq } from 'drizzle-orm';
import { db, type Db } from '~/db/index.server';
import { auditLogs } from '~/db/schema';

export interface AuditEntry {
  /** the acting user, or null for the machine's operator (CLI) and the system itself */
  actor: { id: string } | null;
  /** `noun.verb`, e.g. 'user.role_change', 'pin.update', 'organization.delete' */
  action: string;
  targetType: string;
  targetId: string | null;
  /** what changed: `{ before, after }` for updates (see `changes`), a snapshot for creates and deletes */
  details?: Record<string, unknown>;
}

/** Writes one audit row inside `tx`, the transaction of the change it records. */
export async function recordAudit(tx: Db, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLogs).values({
    userId: entry.actor?.id ?? null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: entry.details ?? null,
  });
}

/**
 * The fields of `after` whose value differs from `before`, as `{ before: {...}, after: {...} }`
 * holding only those fields (dates compared and stored as ISO text). Null when nothing changed.
 */
export function changes<T extends Record<string, unknown>>(before: T, after: Partial<T>): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    const a = plain(before[key]);
    const b = plain(after[key]);
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    was[key] = a;
    now[key] = b;
  }
  return Object.keys(now).length ? { before: was, after: now } : null;
}

function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value === undefined ? null : value;
}

export interface AuditRow {
  id: string;
  userId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown> | null;
  timestamp: Date;
}

/** A record's own history, newest first (each record's admin page shows it). */
export async function auditHistory(targetType: string, targetId: string, limit = 50): Promise<AuditRow[]> {
  return db()
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.targetType, targetType), eq(auditLogs.targetId, targetId)))
    .orderBy(desc(auditLogs.timestamp))
    .limit(limit);
}
