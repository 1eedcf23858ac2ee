/**
 * Daily challenges for the demo player on the day the seed runs. Their collection entries were
 * added "now" (drizzle/seed.ts), which already counts toward the collection challenges; a photo
 * identified now adds progress on the identification ones. The day's challenges are the rule
 * set's (app/services/challenges.server.ts); on any later day the app creates that day's set when
 * it is first shown, with no progress yet.
 */
import { eq, sql } from 'drizzle-orm';
import { transaction } from '../../app/db/index.server';
import * as s from '../../app/db/schema';
import { recordIdentificationActivity } from '../../app/services/achievements.server';
import { challengeDay, ensureDailyChallenges, recordChallengeProgress } from '../../app/services/challenges.server';

export async function seedChallengesDemo(ctx: { userIds: Record<string, string>; pinIds: string[] }): Promise<void> {
  const player = ctx.userIds.player;
  if (!player) return;
  const now = new Date();
  await ensureDailyChallenges(challengeDay(now));
  await transaction(async (tx) => {
    await tx.insert(s.identifications).values({ pinId: ctx.pinIds[3], userId: player, confidence: 91, identificationData: { source: 'demo' }, createdAt: now });
    await tx.update(s.pins).set({ identificationCount: sql`${s.pins.identificationCount} + 1` }).where(eq(s.pins.id, ctx.pinIds[3]));
    await recordIdentificationActivity(tx, player, { successful: true, now });
    await recordChallengeProgress(tx, player, 'identification', { now });
    await recordChallengeProgress(tx, player, 'collection', { now });
  });
}
