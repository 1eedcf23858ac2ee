/**
 * Team invite links: the manager makes a link for one roster entry; a signed-in player (or the
 * parent who keeps that child's pins) opens it and joins the roster as that player, and the team
 * then shows in their own /teams.
 *
 * Rules kept here:
 * - only the team's manager (and admins) make, list and revoke links (app/auth/permissions.ts);
 * - a link lasts INVITE_DAYS days, can be revoked, and stops working once its roster entry has an
 *   account (the same account opening it again is told it is already on the team);
 * - an expired or revoked link answers 410 with its reason; an unknown one 404;
 * - one account may hold several roster entries (a parent with two children on a team).
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { assertSignedIn, type Actor } from '~/auth/permissions';
import { db, transaction } from '~/db/index.server';
import { rosters, teamInvites, teams } from '~/db/schema';
import { INVITE_CLAIMED, INVITE_EXPIRED, INVITE_REVOKED } from '~/utils/team-invites';
import { Conflict, Gone, NotFound } from './errors';
import { auditIfNotManager, PLAYER_NOT_FOUND, teamToManage, validId } from './teams.server';

export const INVITE_DAYS = 14;
export const INVITE_NOT_FOUND = 'Invite not found';
export { INVITE_CLAIMED, INVITE_EXPIRED, INVITE_REVOKED };

export type InviteStatus = 'active' | 'expired' | 'revoked' | 'accepted';

export interface TeamInvite {
  id: string;
  rosterId: string;
  playerName: string;
  /** the path to share: /join/{token} */
  path: string;
  status: InviteStatus;
  createdAt: string;
  expiresAt: string;
}

/** What the person opening a link sees before joining. */
export interface InvitePreview {
  teamId: string;
  teamName: string;
  teamLocation: string | null;
  playerName: string;
  expiresAt: string;
  status: InviteStatus;
  /** the opener already holds this roster entry */
  alreadyJoined: boolean;
}

const joinPath = (token: string) => `/join/${token}`;
const validToken = (token: unknown): token is string => typeof token === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(token);

function statusOf(row: { revokedAt: Date | null; acceptedAt: Date | null; expiresAt: Date }, now = Date.now()): InviteStatus {
  if (row.revokedAt) return 'revoked';
  if (row.acceptedAt) return 'accepted';
  if (row.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

/** POST /api/teams/{teamId}/invites { rosterId }: a new link for that player (201). */
export async function createInvite(actor: Actor | null, teamId: string, rosterId: unknown): Promise<TeamInvite> {
  const team = await teamToManage(actor, teamId);
  const user = actor as Actor;
  return transaction(async (tx) => {
    const entry = validId(rosterId) ? await tx.select().from(rosters).where(and(eq(rosters.id, rosterId), eq(rosters.teamId, team.id))).get() : undefined;
    if (!entry) throw new NotFound(PLAYER_NOT_FOUND);
    if (entry.playerId) throw new Conflict(`${entry.playerName} is already linked to an account`);
    const token = randomBytes(18).toString('base64url');
    const expiresAt = new Date(Date.now() + INVITE_DAYS * 86_400_000);
    const [row] = await tx.insert(teamInvites).values({ teamId: team.id, rosterId: entry.id, token, createdBy: user.id, expiresAt }).returning();
    await auditIfNotManager(tx, user, team, 'team.invite_create', { rosterId: entry.id, playerName: entry.playerName });
    return { id: row.id, rosterId: entry.id, playerName: entry.playerName, path: joinPath(token), status: 'active', createdAt: row.createdAt.toISOString(), expiresAt: expiresAt.toISOString() };
  });
}

/** GET /api/teams/{teamId}/invites: the team's links, newest first (the last 50). */
export async function listInvites(actor: Actor | null, teamId: string): Promise<TeamInvite[]> {
  const team = await teamToManage(actor, teamId);
  const rows = await db()
    .select({ invite: teamInvites, playerName: rosters.playerName })
    .from(teamInvites)
    .innerJoin(rosters, eq(rosters.id, teamInvites.rosterId))
    .where(eq(teamInvites.teamId, team.id))
    .orderBy(desc(teamInvites.createdAt), desc(teamInvites.id))
    .limit(50);
  const now = Date.now();
  return rows.map(({ invite, playerName }) => ({
    id: invite.id,
    rosterId: invite.rosterId,
    playerName,
    path: joinPath(invite.token),
    status: statusOf(invite, now),
    createdAt: invite.createdAt.toISOString(),
    expiresAt: invite.expiresAt.toISOString(),
  }));
}

/** DELETE /api/teams/{teamId}/invites/{inviteId}: the link stops working (kept, marked revoked). */
export async function revokeInvite(actor: Actor | null, teamId: string, inviteId: string): Promise<{ id: string; playerName: string }> {
  const team = await teamToManage(actor, teamId);
  const user = actor as Actor;
  return transaction(async (tx) => {
    const found = validId(inviteId)
      ? await tx
          .select({ id: teamInvites.id, playerName: rosters.playerName, revokedAt: teamInvites.revokedAt })
          .from(teamInvites)
          .innerJoin(rosters, eq(rosters.id, teamInvites.rosterId))
          .where(and(eq(teamInvites.id, inviteId), eq(teamInvites.teamId, team.id)))
          .get()
      : undefined;
    if (!found) throw new NotFound(INVITE_NOT_FOUND);
    if (!found.revokedAt) {
      await tx.update(teamInvites).set({ revokedAt: new Date() }).where(eq(teamInvites.id, found.id));
      await auditIfNotManager(tx, user, team, 'team.invite_revoke', { inviteId: found.id, playerName: found.playerName });
    }
    return { id: found.id, playerName: found.playerName };
  });
}

async function inviteByToken(token: unknown) {
  if (!validToken(token)) return undefined;
  return db()
    .select({ invite: teamInvites, entry: rosters, team: { id: teams.id, name: teams.name, location: teams.location } })
    .from(teamInvites)
    .innerJoin(rosters, eq(rosters.id, teamInvites.rosterId))
    .innerJoin(teams, eq(teams.id, teamInvites.teamId))
    .where(eq(teamInvites.token, token))
    .get();
}

/** /join/{token}: what the link offers (anyone holding the link may read this much). */
export async function previewInvite(actor: Actor | null, token: string): Promise<InvitePreview> {
  const found = await inviteByToken(token);
  if (!found) throw new NotFound(INVITE_NOT_FOUND);
  const alreadyJoined = !!actor && found.entry.playerId === actor.id;
  let status = statusOf(found.invite);
  // a link whose player has an account is used up, whoever linked it
  if (status === 'active' && found.entry.playerId) status = 'accepted';
  return {
    teamId: found.team.id,
    teamName: found.team.name,
    teamLocation: found.team.location,
    playerName: found.entry.playerName,
    expiresAt: found.invite.expiresAt.toISOString(),
    status,
    alreadyJoined,
  };
}

/**
 * POST /api/invites/{token}/accept: the signed-in account becomes the roster entry's account.
 * Opening a link already used by the same account is fine (it answers the team again).
 */
export async function acceptInvite(actor: Actor | null, token: string): Promise<{ teamId: string; teamName: string; playerName: string }> {
  assertSignedIn(actor);
  return transaction(async (tx) => {
    const found = validToken(token)
      ? await tx
          .select({ invite: teamInvites, entry: rosters, teamName: teams.name })
          .from(teamInvites)
          .innerJoin(rosters, eq(rosters.id, teamInvites.rosterId))
          .innerJoin(teams, eq(teams.id, teamInvites.teamId))
          .where(eq(teamInvites.token, token))
          .get()
      : undefined;
    if (!found) throw new NotFound(INVITE_NOT_FOUND);
    const result = { teamId: found.invite.teamId, teamName: found.teamName, playerName: found.entry.playerName };
    if (found.entry.playerId === actor.id) return result;
    const status = statusOf(found.invite);
    if (status === 'revoked') throw new Gone(INVITE_REVOKED);
    if (status === 'expired') throw new Gone(INVITE_EXPIRED);
    if (found.entry.playerId || status === 'accepted') throw new Conflict(INVITE_CLAIMED);
    // the entry is claimed only if nobody claimed it in between
    const claimed = await tx
      .update(rosters)
      .set({ playerId: actor.id })
      .where(and(eq(rosters.id, found.entry.id), isNull(rosters.playerId)))
      .returning({ id: rosters.id });
    if (claimed.length === 0) throw new Conflict(INVITE_CLAIMED);
    await tx.update(teamInvites).set({ acceptedAt: new Date(), acceptedBy: actor.id }).where(eq(teamInvites.id, found.invite.id));
    return result;
  });
}
