/**
 * The _index.tsx route's loader (the route module re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, and zod and the form library for the action): in the browser this file is one empty module.
 */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { toCardData } from '~/components/pin-card';
import { listDailyChallenges } from '~/services/challenges.server';
import { communityCountsOf } from '~/services/community.server';
import { recentIdentifications } from '~/services/feed.server';
import { highestValuePins, homeTabCounts, newestPins, rarestPins } from '~/services/pins.server';
import { optionalUser } from '~/http/guards.server';
import { page } from '~/http/page.server';


type TabKey = 'newest' | 'rarest' | 'value';

export async function homeLoader({ request }: LoaderFunctionArgs) {
  return page(async () => {
    const param = new URL(request.url).searchParams.get('tab');
    const tab: TabKey = param === 'rarest' || param === 'value' ? param : 'newest';
    const [counts, tabPins, recent, challenges] = await Promise.all([
      homeTabCounts(),
      tab === 'rarest' ? rarestPins(4, { ultraRareOnly: true }) : tab === 'value' ? highestValuePins(4) : newestPins(4),
      recentIdentifications(6),
      optionalUser(request).then((user) => listDailyChallenges(user)),
    ]);
    // one query for the likes and comments of every card on the page
    const community = await communityCountsOf([...tabPins.map((p) => p.id), ...recent.map((r) => r.pin.id)]);
    const card = <P extends Parameters<typeof toCardData>[0]>(p: P) => toCardData({ ...p, ...community.get(p.id) });
    return json({
      tab,
      counts,
      pins: tabPins.map((p) => ({ ...card(p), estimatedValue: p.estimatedValue })),
      recent: recent.map((r) => ({ id: r.id, confidence: r.confidence, pin: card(r.pin) })),
      challenges: { signedIn: challenges.signedIn, list: challenges.challenges },
    });
  });
}
