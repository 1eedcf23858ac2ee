/**
 * The _index.tsx route's loader (the route module re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, and zod and the form library for the action): in the browser this file is one empty module.
 */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { toCardData } from '~/components/pin-card';
import { listDailyChallenges } from '~/services/challenges.server';
import { homeLists, type HomeTab } from '~/services/home.server';
import { optionalUser } from '~/http/guards.server';
import { page } from '~/http/page.server';

export async function homeLoader({ request }: LoaderFunctionArgs) {
  return page(async () => {
    const param = new URL(request.url).searchParams.get('tab');
    const tab: HomeTab = param === 'rarest' || param === 'value' ? param : 'newest';
    // the lists are the same for everyone and kept until the database is written to (home.server.ts)
    const [lists, challenges] = await Promise.all([homeLists(tab), optionalUser(request).then((user) => listDailyChallenges(user))]);
    const { counts, community } = lists;
    const card = <P extends Parameters<typeof toCardData>[0]>(p: P) => toCardData({ ...p, ...community.get(p.id) });
    return json({
      tab,
      counts,
      pins: lists.pins.map((p) => ({ ...card(p), estimatedValue: p.estimatedValue })),
      recent: lists.recent.map((r) => ({ id: r.id, confidence: r.confidence, pin: card(r.pin) })),
      challenges: { signedIn: challenges.signedIn, list: challenges.challenges },
    });
  });
}
