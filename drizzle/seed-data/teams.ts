/**
 * Demo data of the team tools beyond the spec: an order of the team's first pin (125 a player,
 * split evenly) and an open invite link for one player's family.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../app/db/index.server';
import * as s from '../../app/db/schema';
import { PINS_PER_PLAYER } from '../../app/forms/teams';

export const DEMO_INVITE_TOKEN = 'springfield-thunder-demo-invite';

export async function seedTeamExtras(db: Db, teamId: string, managerId: string) {
  const [pin] = await db.select({ id: s.pins.id }).from(s.pins).where(eq(s.pins.teamId, teamId)).orderBy(asc(s.pins.createdAt), asc(s.pins.id)).limit(1);
  const active = await db.select({ id: s.rosters.id }).from(s.rosters).where(and(eq(s.rosters.teamId, teamId), eq(s.rosters.isActive, true)));
  if (pin) await db.insert(s.teamPinOrders).values({ teamId, pinId: pin.id, quantity: active.length * PINS_PER_PLAYER, updatedBy: managerId });
  const [unlinked] = await db
    .select({ id: s.rosters.id })
    .from(s.rosters)
    .where(and(eq(s.rosters.teamId, teamId), isNull(s.rosters.playerId)))
    .orderBy(asc(s.rosters.playerName))
    .limit(1);
  if (unlinked) {
    await db.insert(s.teamInvites).values({ teamId, rosterId: unlinked.id, token: DEMO_INVITE_TOKEN, createdBy: managerId, expiresAt: new Date(Date.now() + 14 * 86_400_000) });
  }
}
