/**
 * The trading area's demo data: collectors whose trading and wanted lists meet the demo player's
 * both ways (so /trades shows two-way matches at once), an open proposal waiting for the player,
 * a pair (TradeTina and SwapSam) whose lists meet each other's, for trying a whole trade, and a few
 * comments and reactions.
 * Deterministic: fixed pins by index and fixed times.
 */
import { transaction } from '../../app/db/index.server';
import * as s from '../../app/db/schema';
import { addCollectionEntry } from '../../app/services/collection.server';

export const TRADING_DEMO = [
  { email: 'tina@pindex.test', firstName: 'Tina', lastName: 'Trader', nickname: 'TradeTina' },
  { email: 'sam@pindex.test', firstName: 'Sam', lastName: 'Swapper', nickname: 'SwapSam' },
] as const;

/**
 * The demo player (PinHunter) wants pins 5, 9, 30 and trades 14, 22 (drizzle/seed.ts).
 * Tina trades 5, 9 and 40 and wants 14 and 41; Sam trades 30 and 41 and wants 22 and 40.
 */
const LISTS: Record<string, { trading: number[]; wanted: number[] }> = {
  'tina@pindex.test': { trading: [5, 9, 40], wanted: [14, 41] },
  'sam@pindex.test': { trading: [30, 41], wanted: [22, 40] },
};

export async function seedTradingDemo(ctx: { userIds: Record<string, string>; pinIds: string[]; baseTime: number; passwordHash: string }): Promise<void> {
  const { userIds, pinIds, baseTime, passwordHash } = ctx;
  const ids: Record<string, string> = {};
  await transaction(async (tx) => {
    for (const [i, account] of TRADING_DEMO.entries()) {
      const [row] = await tx
        .insert(s.users)
        .values({ ...account, role: 'player', isOnboardingComplete: true, createdAt: new Date(baseTime - (20 + i) * 86_400_000) })
        .returning({ id: s.users.id });
      await tx.insert(s.passwords).values({ userId: row.id, hash: passwordHash });
      ids[account.email] = row.id;
    }
  });
  for (const [email, lists] of Object.entries(LISTS)) {
    for (const [status, indexes] of [['trading', lists.trading], ['wanted', lists.wanted]] as const) {
      for (const index of indexes) {
        await transaction((tx) => addCollectionEntry(tx, ids[email], { pinId: pinIds[index], status, quantity: 1, condition: 'mint', tradeable: status === 'trading' }, { now: new Date(baseTime) }));
      }
    }
  }
  const player = userIds.player;
  if (!player) return;
  // Tina offers pin 5 (wanted by the player) for pin 14 (wanted by her); made "now", so it is open for 14 days
  const now = new Date();
  await transaction(async (tx) => {
    const [proposal] = await tx
      .insert(s.tradeProposals)
      .values({
        proposerId: ids['tina@pindex.test'],
        recipientId: player,
        note: 'Saw your list at the tournament: my spare for your trader?',
        expiresAt: new Date(now.getTime() + 14 * 86_400_000),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: s.tradeProposals.id });
    await tx.insert(s.tradeProposalItems).values([
      { proposalId: proposal.id, giverId: ids['tina@pindex.test'], pinId: pinIds[5] },
      { proposalId: proposal.id, giverId: player, pinId: pinIds[14] },
    ]);
    await tx.insert(s.notifications).values({ userId: player, type: 'trade_proposed', message: 'TradeTina proposed a trade', link: `/trades?tab=incoming#trade-${proposal.id}`, createdAt: now });
  });
  // comments and reactions on two of the pins everyone trades
  const tina = ids['tina@pindex.test'];
  const sam = ids['sam@pindex.test'];
  await transaction(async (tx) => {
    await tx.insert(s.pinComments).values([
      { pinId: pinIds[5], userId: tina, content: 'Traded three of these at Cooperstown last summer. Everyone wanted one.', createdAt: new Date(baseTime + 3_600_000), updatedAt: new Date(baseTime + 3_600_000) },
      { pinId: pinIds[5], userId: player, content: 'On my wanted list! Anyone have a spare?', createdAt: new Date(baseTime + 7_200_000), updatedAt: new Date(baseTime + 7_200_000) },
      { pinId: pinIds[14], userId: sam, content: 'Great colours on this one; the enamel has held up for two seasons.', createdAt: new Date(baseTime + 5_400_000), updatedAt: new Date(baseTime + 5_400_000) },
    ]);
    await tx.insert(s.pinReactions).values([
      { pinId: pinIds[5], userId: tina, type: 'like' },
      { pinId: pinIds[5], userId: sam, type: 'favorite' },
      { pinId: pinIds[5], userId: player, type: 'want' },
      { pinId: pinIds[14], userId: sam, type: 'like' },
      { pinId: pinIds[14], userId: tina, type: 'want' },
    ]);
  });
}
