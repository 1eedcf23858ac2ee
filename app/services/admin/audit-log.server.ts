/**
 * Reading the audit log (super admins only): the filtered, paged table of /admin/audit-logs and a
 * record's own history on its admin page. Rows are written by `recordAudit` (audit.server.ts).
 */
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { assertCanViewAuditLog, type Actor } from '~/auth/permissions';
import { db } from '~/db/index.server';
import { auditLogs, users } from '~/db/schema';
import type { AuditLogEntry, AuditLogPage } from '~/types/admin';
import { displayName } from '~/utils/user';
import { auditHistory } from '../audit.server';
import { pageWindow } from './list.server';

export interface AuditLogQuery {
  actorId?: string | null;
  action?: string | null;
  targetType?: string | null;
  /** YYYY-MM-DD, inclusive, in UTC */
  from?: string | null;
  to?: string | null;
  limit?: unknown;
  offset?: unknown;
}

/** The admin page that shows a record, for the log's target links. */
export function targetHref(targetType: string, targetId: string | null): string | null {
  if (!targetId) return null;
  const id = encodeURIComponent(targetId);
  switch (targetType) {
    case 'user':
      return `/admin/users?dialog=details&id=${id}`;
    case 'pin':
      return `/admin/pins?dialog=edit&id=${id}`;
    case 'organization':
      return `/admin/pins/organizations?dialog=edit&id=${id}`;
    case 'team':
      return `/admin/teams?dialog=details&id=${id}`;
    case 'vendor':
      return `/admin/vendors?id=${id}`;
    default:
      return null;
  }
}

const day = (value: string | null | undefined) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? Date.parse(`${value}T00:00:00Z`) : null);

type Row = typeof auditLogs.$inferSelect & { email: string | null; nickname: string | null; firstName: string | null; lastName: string | null };

/** "role: player → manager" lines from an audit row's details. */
function auditSummary(details: Record<string, unknown> | null): string {
  if (!details) return '';
  const before = (details.before ?? null) as Record<string, unknown> | null;
  const after = (details.after ?? null) as Record<string, unknown> | null;
  const show = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  if (before && after) return Object.keys(after).map((k) => `${k}: ${show(before[k])} → ${show(after[k])}`).join('; ');
  if (after) return Object.entries(after).map(([k, v]) => `${k}: ${show(v)}`).join('; ');
  if (before) return `was ${Object.entries(before).filter(([, v]) => v != null && typeof v !== 'object').map(([k, v]) => `${k}: ${show(v)}`).join('; ')}`;
  return Object.entries(details).filter(([, v]) => typeof v !== 'object').map(([k, v]) => `${k}: ${show(v)}`).join('; ');
}

function toEntry(row: Row): AuditLogEntry {
  return {
    id: row.id,
    userId: row.userId,
    actorName: row.email ? displayName({ email: row.email, nickname: row.nickname, firstName: row.firstName, lastName: row.lastName }) : null,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    targetHref: targetHref(row.targetType, row.targetId),
    details: row.details ?? null,
    summary: auditSummary(row.details ?? null),
    timestamp: row.timestamp.toISOString(),
  };
}

const columns = {
  id: auditLogs.id,
  userId: auditLogs.userId,
  action: auditLogs.action,
  targetType: auditLogs.targetType,
  targetId: auditLogs.targetId,
  details: auditLogs.details,
  timestamp: auditLogs.timestamp,
  email: users.email,
  nickname: users.nickname,
  firstName: users.firstName,
  lastName: users.lastName,
};

/** /admin/audit-logs and GET /api/admin/audit-logs: filtered by actor, action, target type and date; newest first. */
export async function listAuditLogs(actor: Actor | null, query: AuditLogQuery = {}): Promise<AuditLogPage> {
  assertCanViewAuditLog(actor);
  const { limit, offset } = pageWindow(query.limit, query.offset, { fallback: 50, max: 200 });
  const conditions: SQL[] = [];
  if (query.actorId) conditions.push(eq(auditLogs.userId, query.actorId));
  if (query.action) conditions.push(eq(auditLogs.action, query.action));
  if (query.targetType) conditions.push(eq(auditLogs.targetType, query.targetType));
  const from = day(query.from);
  const to = day(query.to);
  if (from != null) conditions.push(gte(auditLogs.timestamp, new Date(from)));
  if (to != null) conditions.push(lt(auditLogs.timestamp, new Date(to + 86_400_000)));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, total] = await Promise.all([
    db()
      .select(columns)
      .from(auditLogs)
      .leftJoin(users, eq(users.id, auditLogs.userId))
      .where(where)
      .orderBy(desc(auditLogs.timestamp), desc(sql`${auditLogs}.rowid`)) // same millisecond: the later insert first
      .limit(limit)
      .offset(offset),
    db().select({ n: count() }).from(auditLogs).where(where).get(),
  ]);
  return { entries: rows.map(toEntry), total: Number(total?.n ?? 0) };
}

/** The people who appear in the log as actors (the actor filter's choices). */
export async function auditActors(actor: Actor | null): Promise<{ id: string; name: string }[]> {
  assertCanViewAuditLog(actor);
  const rows = await db()
    .select({ id: users.id, email: users.email, nickname: users.nickname, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(sql`${users.id} in (select distinct ${auditLogs.userId} from ${auditLogs} where ${auditLogs.userId} is not null)`)
    .limit(500);
  return rows.map((r) => ({ id: r.id, name: displayName(r) })).sort((a, b) => a.name.localeCompare(b.name));
}

/** A record's own history (its admin page), newest first; for super admins only, like the log. */
export async function recordHistory(actor: Actor | null, targetType: string, targetId: string, limit = 20): Promise<AuditLogEntry[]> {
  assertCanViewAuditLog(actor);
  const rows = await auditHistory(targetType, targetId, limit);
  const ids = [...new Set(rows.map((r) => r.userId).filter((id): id is string => !!id))];
  const people = ids.length
    ? await db().select({ id: users.id, email: users.email, nickname: users.nickname, firstName: users.firstName, lastName: users.lastName }).from(users).where(sql`${users.id} in ${ids}`)
    : [];
  const byId = new Map(people.map((p) => [p.id, p]));
  return rows.map((r) => {
    const person = r.userId ? byId.get(r.userId) : undefined;
    return toEntry({ ...r, email: person?.email ?? null, nickname: person?.nickname ?? null, firstName: person?.firstName ?? null, lastName: person?.lastName ?? null });
  });
}
