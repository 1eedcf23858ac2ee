import { BadgeIcon } from './badges';
import { ProgressBar } from './ui/progress-bar';

export interface ChallengeView {
  id: string;
  type: string;
  name: string;
  description: string;
  target: number;
  reward: number;
  /** signed in only */
  progress?: number;
  completed?: boolean;
  percent?: number;
}

const CATEGORY_OF: Record<string, string> = {
  identify_pins: 'identification',
  find_rarity: 'special',
  add_to_collection: 'collection',
  marketplace_activity: 'marketplace',
};

function ChallengeCard({ challenge: c, signedIn }: { challenge: ChallengeView; signedIn: boolean }) {
  const done = !!c.completed;
  const percent = c.percent ?? 0;
  return (
    <li
      className={`card flex gap-3 p-4 ${done ? 'border-emerald-300 bg-emerald-50' : ''}`}
      data-testid="daily-challenge"
      data-completed={done ? 'true' : 'false'}
    >
      <BadgeIcon badge={{ name: c.name, category: CATEGORY_OF[c.type] ?? 'special' }} locked={!done && signedIn && percent === 0} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-2">
          <h3 className="font-semibold text-slate-900">{c.name}</h3>
          <span className="text-xs font-semibold text-amber-700">+{c.reward} points</span>
        </div>
        <p className="text-sm text-slate-600">{c.description}</p>
        {signedIn ? (
          <>
            <div className="mt-2 flex items-center justify-between text-xs text-slate-600">
              <span>
                {Math.min(c.progress ?? 0, c.target)} / {c.target}
              </span>
              {done ? (
                <span className="inline-flex items-center gap-1 font-semibold text-emerald-700">
                  <svg aria-hidden="true" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3">
                    <path d="m5 12 5 5 9-10" />
                  </svg>
                  Completed
                </span>
              ) : (
                <span>{percent}%</span>
              )}
            </div>
            <ProgressBar label={`${c.name} progress`} percent={percent} done={done} />
          </>
        ) : null}
      </div>
    </li>
  );
}

/** Today's challenges (home and /badges): progress bars for a signed-in collector, a sign-in prompt otherwise. */
export function DailyChallenges({
  challenges,
  signedIn,
  redirectTo = '/',
  className = '',
}: {
  challenges: ChallengeView[];
  signedIn: boolean;
  redirectTo?: string;
  className?: string;
}) {
  if (challenges.length === 0) return null;
  const done = challenges.filter((c) => c.completed).length;
  return (
    <section aria-labelledby="challenges-heading" className={`space-y-3 ${className}`} data-testid="daily-challenges">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="challenges-heading" className="text-xl font-bold text-slate-900">
          Today&apos;s Challenges
        </h2>
        <p className="text-sm text-slate-600">
          {signedIn ? `${done} / ${challenges.length} completed · ` : ''}New challenges every day at midnight UTC
        </p>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {challenges.map((c) => (
          <ChallengeCard key={c.id} challenge={c} signedIn={signedIn} />
        ))}
      </ul>
      {signedIn ? null : (
        <p className="text-sm text-slate-600" data-testid="challenges-sign-in">
          <a href={`/api/login?redirectTo=${encodeURIComponent(redirectTo)}`} className="font-semibold text-brand-700 hover:underline">
            Sign in
          </a>{' '}
          to take part: progress counts as you identify, collect and order pins, and each challenge you complete adds its
          points to your total.
        </p>
      )}
    </section>
  );
}
