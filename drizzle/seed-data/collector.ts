/**
 * The collector area's demo data: pin suggestions in the admin review queue (one waiting from the
 * player, one rejected from the coach, whose reason the coach sees on /suggestions).
 */
import sharp from 'sharp';
import { transaction } from '../../app/db/index.server';
import * as s from '../../app/db/schema';
import { prepareImage, savePreparedImage } from '../../app/services/images.server';
import { pinSvg, type PinArt } from './pin-art';

export async function seedCollectorDemo(userIds: Record<string, string>, baseTime: number): Promise<void> {
  const plans: { by: string; art: PinArt; name: string; org: string; status: 'pending' | 'rejected'; reason?: string }[] = [
    {
      by: userIds.player,
      art: { shape: 'pennant', metal: 'gold', enamel: ['Forest', '#166534', '#fde68a'], team: 'Lakeview Falcons', line2: '12U 2025', motif: 'ball', variant: 0 },
      name: 'Lakeview Falcons 12U - Cooperstown Dreams Park 2025',
      org: 'Cooperstown Dreams Park',
      status: 'pending',
    },
    {
      by: userIds.assistant_coach,
      art: { shape: 'diamond', metal: 'silver', enamel: ['Teal', '#0f766e', '#fef3c7'], team: 'Bayside Owls', line2: '10U 2024', motif: 'glove', variant: 1 },
      name: 'Bayside Owls pin',
      org: 'Little League Baseball',
      status: 'rejected',
      reason: 'Please add the year and the tournament to the name, and a photo of the front without glare.',
    },
  ];
  for (const [i, plan] of plans.entries()) {
    if (!plan.by) continue;
    const image = await prepareImage(await sharp(Buffer.from(pinSvg(plan.art))).jpeg({ quality: 90 }).toBuffer());
    await transaction(async (tx) => {
      const stored = await savePreparedImage(tx, image);
      await tx.insert(s.pinSuggestions).values({
        suggestedBy: plan.by,
        status: plan.status,
        name: plan.name,
        description: `A ${plan.art.shape} pin of the ${plan.art.team}, ${plan.art.line2}.`,
        organizationName: plan.org,
        totalQuantity: 60,
        year: Number(plan.art.line2.slice(-4)),
        images: [stored.id],
        rejectReason: plan.reason ?? null,
        reviewedBy: plan.status === 'rejected' ? userIds.admin : null,
        reviewedAt: plan.status === 'rejected' ? new Date(baseTime + 86_400_000) : null,
        createdAt: new Date(baseTime + i * 3_600_000),
      });
    });
  }
}
