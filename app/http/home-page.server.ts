/**
 * The _index.tsx route's loader (the route module re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, and zod and the form library for the action): in the browser this file is one empty module.
 */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { toCardData } from '~/components/pin-grid';
import { recentIdentifications } from '~/services/feed.server';
import { highestValuePins, homeTabCounts, newestPins, rarestPins } from '~/services/pins.server';
import { page } from '~/http/page.server';


type TabKey = 'newest' | 'rarest' | 'value';

export async function homeLoader({ request }: LoaderFunctionArgs) {
  return page(async () => {
    const param = new URL(request.url).searchParams.get('tab');
    const tab: TabKey = param === 'rarest' || param === 'value' ? param : 'newest';
    const [counts, tabPins, recent] = await Promise.all([
      homeTabCounts(),
      tab === 'rarest' ? rarestPins(4, { ultraRareOnly: true }) : tab === 'value' ? highestValuePins(4) : newestPins(4),
      recentIdentifications(6),
    ]);
    return json({
      tab,
      counts,
      pins: tabPins.map((p) => ({ ...toCardData(p), estimatedValue: p.estimatedValue })),
      recent: recent.map((r) => ({ id: r.id, confidence: r.confidence, pin: toCardData(r.pin) })),
    });
  });
}
