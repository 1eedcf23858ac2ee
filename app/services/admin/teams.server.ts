/**
 * Admin: the teams table of /admin/teams and GET /api/admin/teams (every team, with its manager's
 * name and member count), and the manager choices. Creating, editing, transferring and deleting a
 * team are in teams.server.ts.
 */
import { asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { assertAdmin, type Actor } from '~/auth/permissions';
import { db } from '~/db/index.server';
import { teams, users } from '~/db/schema';
import type { AdminTeam, AdminTeamList, ManagerCandidate } from '~/types/admin';
import { displayName } from '~/utils/user';
import { likePattern, pageWindow } from './list.server';

export interface AdminTeamQuery {
  search?: string | null;
  sort?: 'createdAt' | 'name';
  dir?: 'asc' | 'desc';
  limit?: unknown;
  offset?: unknown;
}

// (written out: inside a select, drizzle leaves columns unqualified, which a subquery would misread)
const memberCountSql = sql<number>`((select count(*) from rosters r where r.team_id = "teams"."id") + (select count(*) from staff s where s.team_id = "teams"."id"))`;

function teamSearch(search: string | null | undefined): SQL | undefined {
  const pattern = likePattern(search);
  if (!pattern) return undefined;
  return sql`(${teams.name} like ${pattern} escape '\\' or ${teams.location} like ${pattern} escape '\\' or ${teams.managerId} in (select u.id from users u where u.email like ${pattern} escape '\\' or u.nickname like ${pattern} escape '\\' or (coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) like ${pattern} escape '\\'))`;
}

/** `{ items, total }`: id, name, description, location, managerId, managerName, memberCount, createdAt. */
export async function listAdminTeams(actor: Actor | null, query: AdminTeamQuery = {}): Promise<AdminTeamList> {
  assertAdmin(actor);
  const { limit, offset } = pageWindow(query.limit, query.offset, { fallback: 50, max: 1000 });
  const where = teamSearch(query.search);
  const dir = query.dir === 'asc' ? asc : desc;
  const order = query.sort === 'name' ? dir(sql`lower(${teams.name})`) : dir(teams.createdAt);
  const [rows, total] = await Promise.all([
    db()
      .select({
        id: teams.id,
        name: teams.name,
        description: teams.description,
        location: teams.location,
        managerId: teams.managerId,
        createdAt: teams.createdAt,
        memberCount: memberCountSql,
        email: users.email,
        nickname: users.nickname,
        firstName: users.firstName,
        lastName: users.lastName,
      })
      .from(teams)
      .leftJoin(users, eq(users.id, teams.managerId))
      .where(where)
      .orderBy(order, asc(teams.id))
      .limit(limit)
      .offset(offset),
    db().select({ n: count() }).from(teams).where(where).get(),
  ]);
  return {
    items: rows.map(
      (r): AdminTeam => ({
        id: r.id,
        name: r.name,
        description: r.description,
        location: r.location,
        managerId: r.managerId,
        managerName: r.email ? displayName({ email: r.email, nickname: r.nickname, firstName: r.firstName, lastName: r.lastName }) : null,
        memberCount: Number(r.memberCount),
        createdAt: r.createdAt.toISOString(),
      }),
    ),
    total: Number(total?.n ?? 0),
  };
}

/** The users a team may be given to: role manager (spec §6), by name; at most 1000 (spec §9). */
export async function managerCandidates(actor: Actor | null): Promise<ManagerCandidate[]> {
  assertAdmin(actor);
  const rows = await db()
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, nickname: users.nickname })
    .from(users)
    .where(eq(users.role, 'manager'))
    .orderBy(asc(sql`lower(coalesce(${users.nickname}, ${users.firstName}, ${users.email}))`))
    .limit(1000);
  return rows;
}

/** The team as the admin list shows it (after a create or an edit). */
export async function getAdminTeam(actor: Actor | null, teamId: string): Promise<AdminTeam | null> {
  assertAdmin(actor);
  const rows = await db()
    .select({ id: teams.id, name: teams.name, description: teams.description, location: teams.location, managerId: teams.managerId, createdAt: teams.createdAt, memberCount: memberCountSql })
    .from(teams)
    .where(eq(teams.id, teamId))
    .limit(1);
  const r = rows[0];
  if (!r) return null;
  const manager = r.managerId ? await db().select().from(users).where(eq(users.id, r.managerId)).get() : undefined;
  return { ...r, managerName: manager ? displayName(manager) : null, memberCount: Number(r.memberCount), createdAt: r.createdAt.toISOString() };
}
