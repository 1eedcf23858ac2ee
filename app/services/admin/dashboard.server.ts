/** Admin dashboard: live figures, each one query, and the latest activity. */
import { count, desc, gte, inArray, notInArray } from 'drizzle-orm';
import { assertAdmin, canViewAuditLog, type Actor } from '~/auth/permissions';
import { db } from '~/db/index.server';
import { identifications, orders, pins, users, vendors } from '~/db/schema';
import type { AuditLogEntry } from '~/types/admin';
import { displayName } from '~/utils/user';
import { listAuditLogs } from './audit-log.server';

export interface DashboardFigures {
  users: number;
  newUsersThisWeek: number;
  pins: number;
  identificationsToday: number;
  identificationsThisWeek: number;
  openOrders: number;
  pendingVendorApplications: number;
}

export interface RecentItem {
  id: string;
  kind: 'user' | 'pin';
  label: string;
  at: string;
  href: string;
}

export interface Dashboard {
  figures: DashboardFigures;
  /** super admins: the latest audit rows */
  activity: AuditLogEntry[] | null;
  /** everyone else: the latest sign-ups and pins */
  recent: RecentItem[];
}

const DAY = 86_400_000;
const n = (row: { n: number } | undefined) => Number(row?.n ?? 0);

export async function getDashboard(actor: Actor | null, now = new Date()): Promise<Dashboard> {
  assertAdmin(actor);
  const weekAgo = new Date(now.getTime() - 7 * DAY);
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const q = db();
  const [u, nu, p, idToday, idWeek, open, pending] = await Promise.all([
    q.select({ n: count() }).from(users).get(),
    q.select({ n: count() }).from(users).where(gte(users.createdAt, weekAgo)).get(),
    q.select({ n: count() }).from(pins).get(),
    q.select({ n: count() }).from(identifications).where(gte(identifications.createdAt, midnight)).get(),
    q.select({ n: count() }).from(identifications).where(gte(identifications.createdAt, weekAgo)).get(),
    // active orders are all those not delivered or cancelled (spec §4)
    q.select({ n: count() }).from(orders).where(notInArray(orders.status, ['delivered', 'cancelled'])).get(),
    q.select({ n: count() }).from(vendors).where(inArray(vendors.applicationStatus, ['pending', 'under_review'])).get(),
  ]);
  const figures: DashboardFigures = {
    users: n(u),
    newUsersThisWeek: n(nu),
    pins: n(p),
    identificationsToday: n(idToday),
    identificationsThisWeek: n(idWeek),
    openOrders: n(open),
    pendingVendorApplications: n(pending),
  };
  if (canViewAuditLog(actor)) return { figures, activity: (await listAuditLogs(actor, { limit: 10 })).entries, recent: [] };
  const [newUsers, newPins] = await Promise.all([
    q.select().from(users).orderBy(desc(users.createdAt)).limit(5),
    q.select({ id: pins.id, name: pins.name, createdAt: pins.createdAt }).from(pins).orderBy(desc(pins.createdAt)).limit(5),
  ]);
  const recent: RecentItem[] = [
    ...newUsers.map((r) => ({ id: r.id, kind: 'user' as const, label: `${displayName(r)} joined`, at: r.createdAt.toISOString(), href: `/admin/users?dialog=details&id=${r.id}` })),
    ...newPins.map((r) => ({ id: r.id, kind: 'pin' as const, label: `${r.name} was added`, at: r.createdAt.toISOString(), href: `/admin/pins?dialog=edit&id=${r.id}` })),
  ]
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, 8);
  return { figures, activity: null, recent };
}
