import type { CompletedChallenge, UnlockedBadge } from '~/types/achievements';

/**
 * One 'Badge Unlocked!' toast per new badge and one 'Challenge Complete!' per daily challenge a
 * change completed (the toaster staggers them): the identifier in the browser and the server's
 * actions (collection, identification, inventory) alike.
 */
export function badgeToasts(badges: UnlockedBadge[], challenges: CompletedChallenge[] = []) {
  return [
    ...badges.map((b) => ({ title: 'Badge Unlocked!', description: `You earned the "${b.name}" badge!`, variant: 'success' as const })),
    ...challenges.map((c) => ({ title: 'Challenge Complete!', description: `"${c.name}" is done: +${c.reward} points.`, variant: 'success' as const })),
  ];
}
