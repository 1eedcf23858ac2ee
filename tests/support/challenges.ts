import { challengesForDay, type ChallengeType } from '~/services/challenges.server';

/**
 * The first day from `from` (2030 onwards by default: far from the real today, so tests do not meet)
 * whose set has a challenge of the type (with that target, when given): the day, its noon (UTC) and
 * the challenge's rule.
 */
export function dayWith(type: ChallengeType, opts: { from?: string; target?: number } = {}) {
  for (let t = Date.parse(`${opts.from ?? '2030-01-01'}T00:00:00Z`); ; t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    const rule = challengesForDay(day).find((c) => c.type === type && (opts.target == null || c.target === opts.target));
    if (rule) return { day, noon: new Date(`${day}T12:00:00Z`), rule };
  }
}
