/**
 * A pin order per team pin: how many the team orders and how many each player gets to trade.
 * Tournaments like Cooperstown expect about 125 pins a player, so a new order starts there.
 *
 * Rules kept here:
 * - the team's manager (and admins) set the order; every member of the team reads it;
 * - with no shares stored, the order is split evenly among the active players (the first players
 *   by jersey number get one more when it does not divide);
 * - shares the manager sets are for active players of this team and add up to the order.
 */
import { and, eq } from 'drizzle-orm';
import { assertCanViewTeam, assertSignedIn, canManageTeam, type Actor } from '~/auth/permissions';
import { db, transaction } from '~/db/index.server';
import { pins, rosters, teamPinAllocations, teamPinOrders } from '~/db/schema';
import { PINS_PER_PLAYER, pinOrderSchema, type PinOrderInput } from '~/forms/teams';
import { parseWith } from '~/utils/validation';
import { Invalid, NotFound } from './errors';
import { auditIfNotManager, getTeamRow, membership, teamToManage, validId } from './teams.server';

export const PIN_NOT_ON_TEAM = 'This pin is not one of the team’s pins';

export interface PinShare {
  rosterId: string;
  playerName: string;
  jerseyNumber: string | null;
  quantity: number;
}

export interface TeamPinOrder {
  teamId: string;
  teamName: string;
  pin: { id: string; name: string };
  /** null: no order yet (`suggestedQuantity` is what the form offers) */
  quantity: number | null;
  suggestedQuantity: number;
  split: 'even' | 'custom';
  shares: PinShare[];
  updatedAt: string | null;
  canManage: boolean;
}

/** Splits `quantity` evenly among players (already in jersey order). */
export function evenSplit(quantity: number, players: { id: string }[]): Map<string, number> {
  const shares = new Map<string, number>();
  if (players.length === 0) return shares;
  const base = Math.floor(quantity / players.length);
  const extra = quantity % players.length;
  players.forEach((p, i) => shares.set(p.id, base + (i < extra ? 1 : 0)));
  return shares;
}

const jerseySort = <T extends { jerseyNumber: string | null; playerName: string }>(a: T, b: T) =>
  (a.jerseyNumber == null ? 1 : 0) - (b.jerseyNumber == null ? 1 : 0) || Number(a.jerseyNumber ?? 0) - Number(b.jerseyNumber ?? 0) || a.playerName.localeCompare(b.playerName);

async function teamPin(teamId: string, pinId: string) {
  const pin = validId(pinId) ? await db().select({ id: pins.id, name: pins.name, teamId: pins.teamId }).from(pins).where(eq(pins.id, pinId)).get() : undefined;
  if (!pin || pin.teamId !== teamId) throw new NotFound(PIN_NOT_ON_TEAM);
  return pin;
}

async function activePlayers(teamId: string) {
  const rows = await db()
    .select({ id: rosters.id, playerName: rosters.playerName, jerseyNumber: rosters.jerseyNumber })
    .from(rosters)
    .where(and(eq(rosters.teamId, teamId), eq(rosters.isActive, true)));
  return rows.sort(jerseySort);
}

/** GET /api/teams/{teamId}/pins/{pinId}/order: the order and each active player's share. */
export async function getPinOrder(actor: Actor | null, teamId: string, pinId: string): Promise<TeamPinOrder> {
  assertSignedIn(actor);
  const team = await getTeamRow(db(), teamId);
  assertCanViewTeam(actor, { managerId: team.managerId, ...(await membership(db(), team.id, actor.id)) });
  const pin = await teamPin(team.id, pinId);
  const players = await activePlayers(team.id);
  const order = await db().select().from(teamPinOrders).where(and(eq(teamPinOrders.teamId, team.id), eq(teamPinOrders.pinId, pin.id))).get();
  const stored = order ? await db().select().from(teamPinAllocations).where(eq(teamPinAllocations.orderId, order.id)) : [];
  const custom = stored.length > 0;
  const suggestedQuantity = Math.max(1, players.length) * PINS_PER_PLAYER;
  // before any order, the shares are those of the suggested order (what the form starts with)
  const shares = custom ? new Map(stored.map((s) => [s.rosterId, s.quantity])) : evenSplit(order?.quantity ?? suggestedQuantity, players);
  return {
    teamId: team.id,
    teamName: team.name,
    pin: { id: pin.id, name: pin.name },
    quantity: order?.quantity ?? null,
    suggestedQuantity,
    split: custom ? 'custom' : 'even',
    shares: players.map((p) => ({ rosterId: p.id, playerName: p.playerName, jerseyNumber: p.jerseyNumber, quantity: shares.get(p.id) ?? 0 })),
    updatedAt: order ? order.updatedAt.toISOString() : null,
    canManage: canManageTeam(actor, team),
  };
}

/**
 * PUT /api/teams/{teamId}/pins/{pinId}/order { quantity, shares? }: sets the order; without
 * shares it is split evenly, with them they must name active players and add up to the quantity.
 */
export async function setPinOrder(actor: Actor | null, teamId: string, pinId: string, input: PinOrderInput | Record<string, unknown>): Promise<TeamPinOrder> {
  const team = await teamToManage(actor, teamId);
  const user = actor as Actor;
  const data = parseWith(pinOrderSchema, input);
  const pin = await teamPin(team.id, pinId);
  const players = await activePlayers(team.id);
  let shares: Map<string, number> | null = null;
  if (data.shares) {
    const ids = new Set(players.map((p) => p.id));
    const unknown = Object.keys(data.shares).filter((id) => !ids.has(id));
    if (unknown.length) throw new Invalid('A share names a player who is not an active player of this team', { shares: ['A share names a player who is not an active player of this team'] });
    shares = new Map(players.map((p) => [p.id, data.shares?.[p.id] ?? 0]));
    const total = [...shares.values()].reduce((a, b) => a + b, 0);
    if (total !== data.quantity) {
      const message = `The players’ shares add up to ${total.toLocaleString('en-US')}, but the order is ${data.quantity.toLocaleString('en-US')}`;
      throw new Invalid(message, { shares: [message] });
    }
  }
  await transaction(async (tx) => {
    const before = await tx.select().from(teamPinOrders).where(and(eq(teamPinOrders.teamId, team.id), eq(teamPinOrders.pinId, pin.id))).get();
    const [order] = before
      ? await tx.update(teamPinOrders).set({ quantity: data.quantity, updatedBy: user.id }).where(eq(teamPinOrders.id, before.id)).returning()
      : await tx.insert(teamPinOrders).values({ teamId: team.id, pinId: pin.id, quantity: data.quantity, updatedBy: user.id }).returning();
    await tx.delete(teamPinAllocations).where(eq(teamPinAllocations.orderId, order.id));
    if (shares) {
      await tx.insert(teamPinAllocations).values([...shares].map(([rosterId, quantity]) => ({ orderId: order.id, rosterId, quantity })));
    }
    await auditIfNotManager(tx, user, team, 'team.pin_order', { pinId: pin.id, before: { quantity: before?.quantity ?? null }, after: { quantity: data.quantity, split: shares ? 'custom' : 'even' } });
  });
  return getPinOrder(actor, team.id, pin.id);
}

/** The team's orders by pin id (the team page shows them on each pin). */
export async function pinOrderQuantities(teamId: string): Promise<Record<string, number>> {
  const rows = await db().select({ pinId: teamPinOrders.pinId, quantity: teamPinOrders.quantity }).from(teamPinOrders).where(eq(teamPinOrders.teamId, teamId));
  return Object.fromEntries(rows.map((r) => [r.pinId, r.quantity]));
}
