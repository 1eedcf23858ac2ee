/**
 * Teams: create, list, detail, delete, logo; the roster (players), the staff (coaches) and the
 * team's pins. Spec: §2 (Team management, Team detail), §3, §5, §6, §7 (Teams calls).
 *
 * Who may do what (app/auth/permissions.ts): managers (and admins) create teams, and the creator
 * becomes the team's manager; a team is changed only by its manager or an admin; it is seen by
 * its manager, its members (roster player accounts, staff users) and admins. An admin's change to
 * a team that is not theirs, and every deletion, is written to the audit log in the change's own
 * transaction.
 *
 * Rules kept here:
 * - a jersey number is worn by one active player of a team at a time (409 with a field message;
 *   a unique index backs it against races); the same child may be on two teams;
 * - a staff row points at a real account, found by e-mail or display name;
 * - a roster id of another team is not found (404), never changed through this team;
 * - deleting a team removes its roster, staff, invite links and pin orders in one transaction;
 *   its pins stay in the catalogue without a team;
 * - team pins enter the catalogue through `createPin` like every other new pin.
 */
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  assertAdmin,
  assertCanCreateTeam,
  assertCanManageTeam,
  assertCanViewTeam,
  assertCanViewUserTeams,
  assertSignedIn,
  MANAGER_ROLES,
  type Actor,
} from '~/auth/permissions';
import { db, transaction, type Db } from '~/db/index.server';
import { pins, rosters, staff, teamInvites, teamPinOrders, teams, users, type Team } from '~/db/schema';
import {
  createTeamSchema,
  MAX_PIN_PHOTOS,
  playerFields,
  staffFields,
  teamPinFields,
  updatePlayerSchema,
  type AddPlayerInput,
  type AddStaffInput,
  type CreateTeamInput,
  type TeamPinInput,
  type UpdatePlayerInput,
} from '~/forms/teams';
import type { DeletedTeam, RosterEntry, StaffEntry, TeamDetails, TeamHeader, TeamRelation, TeamSummary } from '~/types/teams';
import { displayName } from '~/utils/user';
import { parseWith } from '~/utils/validation';
import { adminTeamCreateSchema, adminTeamEditSchema, transferTeamSchema, type AdminTeamCreateInput, type AdminTeamEditInput } from '~/forms/admin';
import { changes, recordAudit } from './audit.server';
import { Conflict, Invalid, NotFound } from './errors';
import { imageIdOf, imageUrl, prepareImage, savePreparedImage } from './images.server';
import { createPin, getPinsByIds, type PinDto } from './pins.server';
import { isOneOf } from '~/utils/constants';

export type { DeletedTeam, RosterEntry, StaffEntry, TeamDetails, TeamHeader, TeamSummary };

export const TEAM_NOT_FOUND = 'Team Not Found';
export const PLAYER_NOT_FOUND = 'Player not found';
export const LOGO_REQUIRED = 'Please select an image file.';

type ImageInput = Blob | Buffer | string;

// ---------------------------------------------------------------- helpers (also used by the team's other services: invites, roster CSV, pin orders)

export const validId = (id: unknown): id is string => typeof id === 'string' && id.length > 0 && id.length <= 64;

export async function getTeamRow(q: Db, teamId: string): Promise<Team> {
  const row = validId(teamId) ? await q.select().from(teams).where(eq(teams.id, teamId)).get() : undefined;
  if (!row) throw new NotFound(TEAM_NOT_FOUND);
  return row;
}

/** The team, after checking that the actor may change it (404 before 403: an unknown id is unknown). */
export async function teamToManage(actor: Actor | null, teamId: string): Promise<Team> {
  assertSignedIn(actor);
  const team = await getTeamRow(db(), teamId);
  assertCanManageTeam(actor, team);
  return team;
}

export async function membership(q: Db, teamId: string, userId: string) {
  const [onRoster, onStaff] = await Promise.all([
    q.select({ id: rosters.id }).from(rosters).where(and(eq(rosters.teamId, teamId), eq(rosters.playerId, userId))).get(),
    q.select({ id: staff.id }).from(staff).where(and(eq(staff.teamId, teamId), eq(staff.userId, userId))).get(),
  ]);
  return { onRoster: !!onRoster, onStaff: !!onStaff };
}

/** An admin acting on a team that is not theirs leaves a row in the audit log. */
export async function auditIfNotManager(tx: Db, actor: Actor, team: Team, action: string, details: Record<string, unknown>) {
  if (team.managerId === actor.id) return;
  await recordAudit(tx, { actor, action, targetType: 'team', targetId: team.id, details: { team: team.name, ...details } });
}

function uniqueViolation(error: unknown, index: string): boolean {
  const e = error as { message?: string; cause?: { message?: string } } | null;
  const text = `${e?.message ?? ''} ${e?.cause?.message ?? ''}`;
  return /UNIQUE constraint failed/i.test(text) && text.includes(index);
}

const jerseyTaken = (number: string) => {
  const message = `Jersey number ${number} is already worn by an active player on this team`;
  return new Conflict(message, { jerseyNumber: [message] });
};

export async function assertJerseyFree(tx: Db, teamId: string, jerseyNumber: string | null | undefined, exceptRosterId?: string) {
  if (!jerseyNumber) return;
  const conditions: SQL[] = [eq(rosters.teamId, teamId), eq(rosters.jerseyNumber, jerseyNumber), eq(rosters.isActive, true)];
  if (exceptRosterId) conditions.push(sql`${rosters.id} <> ${exceptRosterId}`);
  const taken = await tx.select({ id: rosters.id }).from(rosters).where(and(...conditions)).get();
  if (taken) throw jerseyTaken(jerseyNumber);
}

/** Runs a roster write, turning the jersey index's refusal (a race the check lost) into the same 409. */
export async function rosterWrite<T>(jerseyNumber: string | null | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (uniqueViolation(error, 'rosters.team_id')) throw jerseyTaken(jerseyNumber ?? '');
    throw error;
  }
}

const logoThumb = (logoUrl: string | null) => {
  const id = logoUrl ? imageIdOf(logoUrl) : null;
  return id ? imageUrl(id, 'thumb') : logoUrl;
};

// (written out: inside a select, drizzle leaves columns unqualified, which a subquery would misread)
const memberCountSql = sql<number>`((select count(*) from rosters r where r.team_id = "teams"."id") + (select count(*) from staff s where s.team_id = "teams"."id"))`;
const onStaffSql = (userId: string) => sql<number>`exists (select 1 from staff s where s.team_id = "teams"."id" and s.user_id = ${userId})`;
const onRosterSql = (userId: string) => sql<number>`exists (select 1 from rosters r where r.team_id = "teams"."id" and r.player_id = ${userId})`;

// ---------------------------------------------------------------- reading

/** Ids of the teams a user manages, coaches (staff) or plays on (roster). */
async function teamIdsOf(userId: string): Promise<string[]> {
  const rows = await db()
    .select({ id: teams.id })
    .from(teams)
    .where(
      or(
        eq(teams.managerId, userId),
        onRosterSql(userId),
        onStaffSql(userId),
      ),
    );
  return rows.map((r) => r.id);
}

/** GET /api/teams and /teams: the teams the user manages, coaches or plays on, newest first. */
export async function listMyTeams(actor: Actor | null): Promise<TeamSummary[]> {
  assertSignedIn(actor);
  const userId = actor.id;
  const onStaff = onStaffSql(userId);
  const onRoster = onRosterSql(userId);
  const rows = await db()
    .select({
      id: teams.id,
      name: teams.name,
      location: teams.location,
      description: teams.description,
      managerId: teams.managerId,
      logoUrl: teams.logoUrl,
      createdAt: teams.createdAt,
      onStaff,
      onRoster,
      memberCount: memberCountSql,
    })
    .from(teams)
    .where(or(eq(teams.managerId, userId), onStaff, onRoster))
    .orderBy(desc(teams.createdAt), asc(teams.id));
  return rows.map((r) => {
    const relation: TeamRelation = r.managerId === userId ? 'manager' : Number(r.onStaff) ? 'coach' : 'player';
    return {
      id: r.id,
      name: r.name,
      location: r.location,
      description: r.description,
      managerId: r.managerId,
      logoUrl: r.logoUrl,
      logoThumbUrl: logoThumb(r.logoUrl),
      createdAt: r.createdAt.toISOString(),
      relation,
      memberCount: Number(r.memberCount),
    };
  });
}

/** The teams whose forms this actor may use (the ones they manage; every team for an admin is too many). */
export async function listManagedTeams(actor: Actor | null): Promise<TeamSummary[]> {
  return (await listMyTeams(actor)).filter((t) => t.relation === 'manager');
}

/** GET /api/teams/{id}/details and /teams/{id}: the team with its manager's name, roster and staff. */
export async function getTeamDetails(actor: Actor | null, teamId: string): Promise<TeamDetails> {
  assertSignedIn(actor);
  const team = await getTeamRow(db(), teamId);
  assertCanViewTeam(actor, { managerId: team.managerId, ...(await membership(db(), team.id, actor.id)) });

  const manager = team.managerId
    ? await db()
        .select({ email: users.email, nickname: users.nickname, firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(eq(users.id, team.managerId))
        .get()
    : undefined;

  const rosterRows = await db()
    .select({
      id: rosters.id,
      playerName: rosters.playerName,
      email: users.email,
      position: rosters.position,
      jerseyNumber: rosters.jerseyNumber,
      isActive: rosters.isActive,
      joinedAt: rosters.joinedAt,
    })
    .from(rosters)
    .leftJoin(users, eq(users.id, rosters.playerId))
    .where(eq(rosters.teamId, team.id))
    // active players first, then by jersey number (numerically; none last), then by name
    .orderBy(
      desc(rosters.isActive),
      sql`${rosters.jerseyNumber} is null`,
      sql`cast(${rosters.jerseyNumber} as integer)`,
      asc(rosters.jerseyNumber),
      asc(rosters.playerName),
    );

  const staffRows = await db()
    .select({
      id: staff.id,
      userId: staff.userId,
      name: staff.name,
      role: staff.role,
      isActive: staff.isActive,
      joinedAt: staff.joinedAt,
      email: users.email,
      nickname: users.nickname,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(staff)
    .leftJoin(users, eq(users.id, staff.userId))
    .where(eq(staff.teamId, team.id))
    .orderBy(sql`case ${staff.role} when 'manager' then 0 else 1 end`, asc(staff.joinedAt), asc(staff.id));

  return {
    team: toHeader(team, manager ? displayName(manager) : null),
    roster: rosterRows.map((r) => ({
      id: r.id,
      playerName: r.playerName,
      email: r.email ?? null,
      position: r.position,
      jerseyNumber: r.jerseyNumber,
      isActive: r.isActive,
      joinedAt: r.joinedAt.toISOString(),
    })),
    staff: staffRows.map((r) => ({
      id: r.id,
      userId: r.userId,
      userName: r.email ? displayName({ email: r.email, nickname: r.nickname, firstName: r.firstName, lastName: r.lastName }) : r.name,
      email: r.email ?? null,
      role: r.role,
      isActive: r.isActive,
      joinedAt: r.joinedAt.toISOString(),
    })),
  };
}

function toHeader(team: Team, managerName: string | null): TeamHeader {
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    location: team.location,
    managerId: team.managerId,
    managerName,
    logoUrl: team.logoUrl,
    logoThumbUrl: logoThumb(team.logoUrl),
    createdAt: team.createdAt.toISOString(),
    updatedAt: team.updatedAt.toISOString(),
  };
}

/** The team's pins, newest first (the team detail page; members only). */
export async function listTeamPins(actor: Actor | null, teamId: string): Promise<PinDto[]> {
  assertSignedIn(actor);
  const team = await getTeamRow(db(), teamId);
  assertCanViewTeam(actor, { managerId: team.managerId, ...(await membership(db(), team.id, actor.id)) });
  const rows = await db().select({ id: pins.id }).from(pins).where(eq(pins.teamId, team.id)).orderBy(desc(pins.createdAt), desc(pins.id)).limit(200);
  return getPinsByIds(rows.map((r) => r.id));
}

/**
 * GET /api/users/{userId}/team-pins and the Pin Inventory tab: the pins of every team the user
 * manages, coaches or plays on, newest first (read by the user or an admin).
 */
export async function listUserTeamPins(actor: Actor | null, userId: string): Promise<PinDto[]> {
  assertCanViewUserTeams(actor, userId);
  const ids = await teamIdsOf(userId);
  if (ids.length === 0) return [];
  const rows = await db().select({ id: pins.id }).from(pins).where(inArray(pins.teamId, ids)).orderBy(desc(pins.createdAt), desc(pins.id)).limit(500);
  return getPinsByIds(rows.map((r) => r.id));
}

// ---------------------------------------------------------------- teams

/** POST /api/teams: a new team, managed by its creator (who is also its first staff member). */
export async function createTeam(actor: Actor | null, input: CreateTeamInput | Record<string, unknown>): Promise<TeamSummary> {
  assertCanCreateTeam(actor);
  const data = parseWith(createTeamSchema, input);
  const creator = await db().select().from(users).where(eq(users.id, actor.id)).get();
  if (!creator) throw new NotFound('User not found');
  const team = await transaction(async (tx) => {
    const [row] = await tx
      .insert(teams)
      .values({ name: data.name, description: data.description ?? null, location: data.location ?? null, managerId: actor.id })
      .returning();
    await tx.insert(staff).values({ teamId: row.id, userId: actor.id, name: displayName(creator), role: 'manager' });
    return row;
  });
  return {
    id: team.id,
    name: team.name,
    location: team.location,
    description: team.description,
    managerId: team.managerId,
    logoUrl: null,
    logoThumbUrl: null,
    createdAt: team.createdAt.toISOString(),
    relation: 'manager',
    memberCount: 1,
  };
}

/**
 * DELETE /api/teams/{id}: the team, its roster, staff, invite links and pin orders go in one
 * transaction; its pins stay in the catalogue with no team. Recorded in the audit log.
 */
export async function deleteTeam(actor: Actor | null, teamId: string): Promise<DeletedTeam> {
  const team = await teamToManage(actor, teamId);
  const user = actor as Actor;
  return transaction(async (tx) => {
    const kept = await tx.update(pins).set({ teamId: null }).where(eq(pins.teamId, team.id)).returning({ id: pins.id });
    // written out although the foreign keys cascade: the transaction says what it removes
    await tx.delete(teamPinOrders).where(eq(teamPinOrders.teamId, team.id));
    await tx.delete(teamInvites).where(eq(teamInvites.teamId, team.id));
    const removedPlayers = await tx.delete(rosters).where(eq(rosters.teamId, team.id)).returning({ id: rosters.id });
    const removedStaff = await tx.delete(staff).where(eq(staff.teamId, team.id)).returning({ id: staff.id });
    const gone = await tx.delete(teams).where(eq(teams.id, team.id)).returning({ id: teams.id });
    if (gone.length === 0) throw new NotFound(TEAM_NOT_FOUND);
    const result: DeletedTeam = { id: team.id, name: team.name, removedPlayers: removedPlayers.length, removedStaff: removedStaff.length, keptPins: kept.length };
    await recordAudit(tx, {
      actor: user,
      action: 'team.delete',
      targetType: 'team',
      targetId: team.id,
      details: {
        before: { name: team.name, description: team.description, location: team.location, managerId: team.managerId, logoUrl: team.logoUrl },
        removedPlayers: result.removedPlayers,
        removedStaff: result.removedStaff,
        pinsKeptWithoutTeam: kept.map((p) => p.id),
      },
    });
    return result;
  });
}

/**
 * POST /api/teams/{id}/logo: the image store checks the file (415 'Invalid file type', 413 'File
 * too large'), normalises and keeps it; the team points at it and cards show its small variant.
 */
export async function updateTeamLogo(actor: Actor | null, teamId: string, file: ImageInput | null | undefined): Promise<TeamHeader> {
  const team = await teamToManage(actor, teamId);
  const user = actor as Actor;
  if (file == null || (typeof file === 'string' && !file.trim()) || (file instanceof Blob && file.size === 0)) {
    throw new Invalid(LOGO_REQUIRED, { logo: [LOGO_REQUIRED] });
  }
  if (typeof file !== 'string' && !(file instanceof Uint8Array) && !(file instanceof Blob)) throw new Invalid(LOGO_REQUIRED, { logo: [LOGO_REQUIRED] });
  const prepared = await prepareImage(file);
  const updated = await transaction(async (tx) => {
    const stored = await savePreparedImage(tx, prepared);
    const [row] = await tx.update(teams).set({ logoUrl: imageUrl(stored.id) }).where(eq(teams.id, team.id)).returning();
    if (!row) throw new NotFound(TEAM_NOT_FOUND);
    await auditIfNotManager(tx, user, team, 'team.logo', { before: { logoUrl: team.logoUrl }, after: { logoUrl: row.logoUrl } });
    return row;
  });
  return toHeader(updated, null);
}

// ---------------------------------------------------------------- players

/** POST /api/teams/{teamId}/players: a player on the roster (a name; the child needs no account). */
export async function addPlayer(actor: Actor | null, teamId: string, input: AddPlayerInput | Record<string, unknown>): Promise<RosterEntry> {
  const team = await teamToManage(actor, teamId);
  const user = actor as Actor;
  const data = parseWith(playerFields, input);
  const row = await rosterWrite(data.jerseyNumber, () =>
    transaction(async (tx) => {
      await assertJerseyFree(tx, team.id, data.jerseyNumber);
      const [inserted] = await tx
        .insert(rosters)
        .values({ teamId: team.id, playerName: data.playerName, position: data.position ?? null, jerseyNumber: data.jerseyNumber ?? null })
        .returning();
      await auditIfNotManager(tx, user, team, 'team.player_add', { after: { playerName: inserted.playerName, position: inserted.position, jerseyNumber: inserted.jerseyNumber } });
      return inserted;
    }),
  );
  return toRosterEntry(row, null);
}

function toRosterEntry(row: typeof rosters.$inferSelect, email: string | null): RosterEntry {
  return {
    id: row.id,
    playerName: row.playerName,
    email,
    position: row.position,
    jerseyNumber: row.jerseyNumber,
    isActive: row.isActive,
    joinedAt: row.joinedAt.toISOString(),
  };
}

async function rosterRowOf(q: Db, teamId: string, rosterId: string) {
  // a roster id of another team is not found here: it is never changed through this team
  const row = validId(rosterId) ? await q.select().from(rosters).where(and(eq(rosters.id, rosterId), eq(rosters.teamId, teamId))).get() : undefined;
  if (!row) throw new NotFound(PLAYER_NOT_FOUND);
  return row;
}

/**
 * PUT /api/teams/{teamId}/players/{rosterId}: position and jersey number (each may be cleared with
 * null or ''), and the active flag. Fields left out stay as they are.
 */
export async function updatePlayer(
  actor: Actor | null,
  teamId: string,
  rosterId: string,
  input: UpdatePlayerInput | Record<string, unknown>,
): Promise<RosterEntry> {
  const team = await teamToManage(actor, teamId);
  const user = actor as Actor;
  const data = parseWith(updatePlayerSchema, input);
  const { row, email } = await rosterWrite(data.jerseyNumber, () =>
    transaction(async (tx) => {
      const current = await rosterRowOf(tx, team.id, rosterId);
      const patch: Partial<typeof rosters.$inferInsert> = {};
      if (data.position !== undefined) patch.position = data.position;
      if (data.jerseyNumber !== undefined) patch.jerseyNumber = data.jerseyNumber;
      if (data.isActive !== undefined) patch.isActive = data.isActive;
      const jersey = patch.jerseyNumber !== undefined ? patch.jerseyNumber : current.jerseyNumber;
      const active = patch.isActive ?? current.isActive;
      if (active) await assertJerseyFree(tx, team.id, jersey, current.id);
      const [updated] = Object.keys(patch).length ? await tx.update(rosters).set(patch).where(eq(rosters.id, current.id)).returning() : [current];
      if (Object.keys(patch).length) {
        const before = Object.fromEntries(Object.keys(patch).map((k) => [k, current[k as keyof typeof current]]));
        await auditIfNotManager(tx, user, team, 'team.player_update', { rosterId: current.id, playerName: current.playerName, before, after: patch });
      }
      const account = current.playerId ? await tx.select({ email: users.email }).from(users).where(eq(users.id, current.playerId)).get() : undefined;
      return { row: updated, email: account?.email ?? null };
    }),
  );
  return toRosterEntry(row, email);
}

/** DELETE /api/teams/{teamId}/players/{rosterId}. */
export async function removePlayer(actor: Actor | null, teamId: string, rosterId: string): Promise<{ id: string; playerName: string }> {
  const team = await teamToManage(actor, teamId);
  const user = actor as Actor;
  return transaction(async (tx) => {
    const current = await rosterRowOf(tx, team.id, rosterId);
    await tx.delete(rosters).where(eq(rosters.id, current.id));
    await auditIfNotManager(tx, user, team, 'team.player_remove', {
      before: { rosterId: current.id, playerName: current.playerName, position: current.position, jerseyNumber: current.jerseyNumber },
    });
    return { id: current.id, playerName: current.playerName };
  });
}

/** The roster row's player name (for the remove confirmation), or NotFound. */
export async function getRosterEntry(actor: Actor | null, teamId: string, rosterId: string): Promise<RosterEntry> {
  const team = await teamToManage(actor, teamId);
  const row = await rosterRowOf(db(), team.id, rosterId);
  return toRosterEntry(row, null);
}

// ---------------------------------------------------------------- staff

export const noAccountMessage = (name: string) =>
  `No PinDex account matches "${name}". Ask them to sign up first, then add them by e-mail or display name.`;
export const ambiguousAccountMessage = (name: string) => `More than one account is named "${name}". Add them by e-mail instead.`;

/** The one account an e-mail or display name (nickname, or first and last name) names. */
async function findAccount(q: Db, name: string) {
  const key = name.trim().toLowerCase();
  const byEmail = await q.select().from(users).where(sql`lower(${users.email}) = ${key}`).get();
  if (byEmail) return byEmail;
  const byNickname = await q.select().from(users).where(sql`lower(${users.nickname}) = ${key}`).get();
  if (byNickname) return byNickname;
  const byFullName = await q
    .select()
    .from(users)
    .where(sql`lower(trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, ''))) = ${key.replace(/\s+/g, ' ')}`)
    .limit(2);
  if (byFullName.length > 1) throw new Invalid(ambiguousAccountMessage(name), { userName: [ambiguousAccountMessage(name)] });
  if (byFullName.length === 1) return byFullName[0];
  throw new Invalid(noAccountMessage(name), { userName: [noAccountMessage(name)] });
}

/**
 * POST /api/teams/{teamId}/staff: an existing account (by e-mail or display name) joins the staff,
 * as assistant_coach unless told manager; the team then shows in that person's own team list.
 */
export async function addStaff(actor: Actor | null, teamId: string, input: AddStaffInput | Record<string, unknown>): Promise<StaffEntry> {
  const team = await teamToManage(actor, teamId);
  const user = actor as Actor;
  const data = parseWith(staffFields, input);
  try {
    return await transaction(async (tx) => {
      const account = await findAccount(tx, data.userName);
      const name = displayName(account);
      const already = await tx.select({ id: staff.id }).from(staff).where(and(eq(staff.teamId, team.id), eq(staff.userId, account.id))).get();
      if (already) throw alreadyStaff(name);
      const [row] = await tx.insert(staff).values({ teamId: team.id, userId: account.id, name, role: data.role }).returning();
      await auditIfNotManager(tx, user, team, 'team.staff_add', { after: { userId: account.id, name, role: data.role } });
      return { id: row.id, userId: account.id, userName: name, email: account.email, role: row.role, isActive: row.isActive, joinedAt: row.joinedAt.toISOString() };
    });
  } catch (error) {
    if (uniqueViolation(error, 'staff.team_id')) throw alreadyStaff(data.userName);
    throw error;
  }
}

function alreadyStaff(name: string) {
  const message = `${name} is already on this team’s staff`;
  return new Conflict(message, { userName: [message] });
}

// ---------------------------------------------------------------- team pins

/**
 * POST /api/teams/{teamId}/pins: a team pin enters the catalogue through `createPin`, the one path
 * of every new pin (identifiable on the next photo, and in its creator's collection). Its
 * organization is the team's name (found or created, as the new-pin form does with a typed name).
 * At most 5 images are kept; further ones are left out.
 */
export async function createTeamPin(
  actor: Actor | null,
  teamId: string,
  input: TeamPinInput | Record<string, unknown>,
  images: unknown[] = [],
): Promise<PinDto> {
  const team = await teamToManage(actor, teamId);
  const data = parseWith(teamPinFields, input);
  const files = images.filter((i): i is ImageInput => {
    if (typeof i === 'string') return i.trim().length > 0;
    if (i instanceof Blob) return i.size > 0;
    return i instanceof Uint8Array;
  });
  const { newlyUnlockedBadges: _badges, completedChallenges: _challenges, ...pin } = await createPin(actor, {
    name: data.name,
    description: data.description ?? null,
    totalQuantity: data.totalQuantity,
    year: data.year ?? null,
    event: data.event ?? null,
    teamId: team.id,
    organizationName: team.name,
    images: files.slice(0, MAX_PIN_PHOTOS),
  });
  return pin;
}

// ---------------------------------------------------------------- admin: create with a manager, edit, transfer

export const MANAGER_NOT_FOUND = 'Choose a user with the manager role';
export const SAME_MANAGER = 'Choose a manager other than the current one';

/** The account that is to manage a team: it must exist and hold the manager role (spec §6). */
async function managerAccount(q: Db, userId: string, field: 'managerId' | 'newManagerId') {
  const account = validId(userId) ? await q.select().from(users).where(eq(users.id, userId)).get() : undefined;
  if (!account || !isOneOf(MANAGER_ROLES, account.role)) throw new Invalid(MANAGER_NOT_FOUND, { [field]: [MANAGER_NOT_FOUND] });
  return account;
}

/** The manager's staff row: added, or turned into the manager row. */
async function makeStaffManager(tx: Db, teamId: string, account: typeof users.$inferSelect) {
  const existing = await tx.select({ id: staff.id }).from(staff).where(and(eq(staff.teamId, teamId), eq(staff.userId, account.id))).get();
  if (existing) await tx.update(staff).set({ role: 'manager', isActive: true }).where(eq(staff.id, existing.id));
  else await tx.insert(staff).values({ teamId, userId: account.id, name: displayName(account), role: 'manager' });
}

/** POST /api/admin/teams and Create New Team: an admin starts a team for a manager. Audited. */
export async function createTeamForManager(actor: Actor | null, input: AdminTeamCreateInput | Record<string, unknown>): Promise<Team> {
  assertAdmin(actor);
  const data = parseWith(adminTeamCreateSchema, input);
  return transaction(async (tx) => {
    const manager = await managerAccount(tx, data.managerId, 'managerId');
    const [row] = await tx
      .insert(teams)
      .values({ name: data.name, description: data.description ?? null, location: data.location ?? null, managerId: manager.id })
      .returning();
    await makeStaffManager(tx, row.id, manager);
    await recordAudit(tx, {
      actor,
      action: 'team.create',
      targetType: 'team',
      targetId: row.id,
      details: { after: { name: row.name, description: row.description, location: row.location, managerId: row.managerId } },
    });
    return row;
  });
}

/**
 * Moves a team to a new manager inside `tx`: the team's managerId, the new manager's staff row
 * (role manager), and the old manager's manager row removed (they no longer run the team).
 */
async function moveManager(tx: Db, team: Team, newManagerId: string, field: 'managerId' | 'newManagerId') {
  if (team.managerId === newManagerId) throw new Invalid(SAME_MANAGER, { [field]: [SAME_MANAGER] });
  const manager = await managerAccount(tx, newManagerId, field);
  await tx.update(teams).set({ managerId: manager.id }).where(eq(teams.id, team.id));
  if (team.managerId) await tx.delete(staff).where(and(eq(staff.teamId, team.id), eq(staff.userId, team.managerId), eq(staff.role, 'manager')));
  await makeStaffManager(tx, team.id, manager);
  return manager;
}

/** PATCH /api/admin/teams/{id} and Edit Team: name, description, location (and manager), all optional. Audited. */
export async function updateTeam(actor: Actor | null, teamId: string, input: AdminTeamEditInput | Record<string, unknown>): Promise<Team> {
  assertAdmin(actor);
  const data = parseWith(adminTeamEditSchema, input);
  return transaction(async (tx) => {
    const team = await getTeamRow(tx, teamId);
    const patch: Partial<typeof teams.$inferInsert> = {};
    if (data.name !== undefined) patch.name = data.name;
    if (data.description !== undefined) patch.description = data.description;
    if (data.location !== undefined) patch.location = data.location;
    if (Object.keys(patch).length) await tx.update(teams).set(patch).where(eq(teams.id, team.id));
    if (data.managerId !== undefined && data.managerId !== team.managerId) {
      await moveManager(tx, team, data.managerId, 'managerId');
      patch.managerId = data.managerId;
    }
    const changed = changes(team, patch);
    if (changed) await recordAudit(tx, { actor, action: 'team.update', targetType: 'team', targetId: team.id, details: { team: team.name, ...changed } });
    return getTeamRow(tx, team.id);
  });
}

/** PATCH /api/admin/teams/{id}/manager { newManagerId } and Transfer Team Ownership. Audited. */
export async function transferTeamOwnership(actor: Actor | null, teamId: string, input: { newManagerId?: unknown } | Record<string, unknown>): Promise<Team> {
  assertAdmin(actor);
  const { newManagerId } = parseWith(transferTeamSchema, input);
  return transaction(async (tx) => {
    const team = await getTeamRow(tx, teamId);
    await moveManager(tx, team, newManagerId, 'newManagerId');
    await recordAudit(tx, {
      actor,
      action: 'team.transfer',
      targetType: 'team',
      targetId: team.id,
      details: { team: team.name, before: { managerId: team.managerId }, after: { managerId: newManagerId } },
    });
    return getTeamRow(tx, team.id);
  });
}
