import { Link } from '@remix-run/react';
import { formatDate } from '~/utils/format';
import { ProgressBar } from './ui/progress-bar';

export interface BadgeView {
  id: string;
  name: string;
  description: string;
  points: number;
  category: string;
  iconUrl?: string | null;
}

/** Inline SVG glyphs (no icon font or emoji font needed), one per badge category. */
const CATEGORY_PATHS: Record<string, React.ReactNode> = {
  identification: (
    <>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-4-4" />
    </>
  ),
  collection: <path d="m12 3 2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1L3.2 9.5l6.1-.9z" />,
  social: (
    <>
      <path d="M17 2l4 4-4 4" />
      <path d="M3 11V9a3 3 0 0 1 3-3h15" />
      <path d="M7 22l-4-4 4-4" />
      <path d="M21 13v2a3 3 0 0 1-3 3H3" />
    </>
  ),
  marketplace: (
    <>
      <path d="M6 7h12l-1 13H7z" />
      <path d="M9 7a3 3 0 0 1 6 0" />
    </>
  ),
  special: <path d="M13 2 4 14h7l-1 8 9-12h-7z" />,
};
const AWARD = (
  <>
    <circle cx="12" cy="9" r="6" />
    <path d="m8.5 14-1.5 8 5-3 5 3-1.5-8" />
  </>
);

export function BadgeIcon({ badge, locked = false }: { badge: Pick<BadgeView, 'name' | 'category' | 'iconUrl'>; locked?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={`flex h-12 w-12 shrink-0 items-center justify-center rounded-full ${locked ? 'bg-slate-100 text-slate-400' : 'bg-amber-100 text-amber-700'}`}
    >
      {badge.iconUrl ? (
        <img src={badge.iconUrl} alt="" width={32} height={32} className="h-8 w-8" />
      ) : (
        <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          {CATEGORY_PATHS[badge.category] ?? AWARD}
        </svg>
      )}
    </span>
  );
}

/** The collection page's showcase: the first 5 earned badges, 'View All' and '+N more badges'. */
export function BadgeShowcase({ badges, limit = 5 }: { badges: (BadgeView & { unlockedAt: string })[]; limit?: number }) {
  const shown = badges.slice(0, limit);
  const more = badges.length - shown.length;
  return (
    <section className="card p-4" aria-labelledby="badge-showcase-title" data-testid="badge-showcase">
      <div className="flex items-center justify-between">
        <h2 id="badge-showcase-title" className="text-lg font-semibold text-slate-900">
          Badge Showcase
        </h2>
        <Link to="/badges" className="text-sm font-semibold text-brand-700 hover:underline">
          View All
        </Link>
      </div>
      {shown.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No badges yet. Identify and collect pins to earn your first badge.</p>
      ) : (
        <ul className="mt-3 flex flex-wrap gap-3">
          {shown.map((b) => (
            <li key={b.id} className="flex items-center gap-2 rounded-full border border-amber-200 bg-amber-50 py-1 pl-1 pr-3" title={b.description}>
              <BadgeIcon badge={b} />
              <span className="text-sm">
                <span className="block font-semibold text-slate-900">{b.name}</span>
                <span className="block text-xs text-slate-600">{b.points} pts</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {more > 0 ? (
        <p className="mt-3 text-sm text-slate-600">
          <Link to="/badges" className="hover:underline">
            +{more} more badges
          </Link>
        </p>
      ) : null}
    </section>
  );
}

export function EarnedBadgeCard({ badge }: { badge: BadgeView & { unlockedAt: string | null } }) {
  return (
    <li className="card flex gap-3 p-4" data-testid="earned-badge">
      <BadgeIcon badge={badge} />
      <div className="min-w-0 flex-1">
        <h3 className="font-semibold text-slate-900">{badge.name}</h3>
        <p className="text-sm text-slate-600">{badge.description}</p>
        <p className="mt-1 text-xs text-slate-500">
          Unlocked {formatDate(badge.unlockedAt)} · <span className="font-semibold text-amber-700">{badge.points} points</span>
        </p>
      </div>
    </li>
  );
}

export function LockedBadgeCard({ badge }: { badge: BadgeView & { current: number; target: number; percent: number } }) {
  const shown = Math.min(badge.current, badge.target);
  return (
    <li className="card flex gap-3 p-4 opacity-60" data-testid="locked-badge">
      <BadgeIcon badge={badge} locked />
      <div className="min-w-0 flex-1">
        <h3 className="font-semibold text-slate-900">{badge.name}</h3>
        <p className="text-sm text-slate-600">{badge.description}</p>
        <div className="mt-2 flex items-center justify-between text-xs text-slate-600">
          <span>
            {shown} / {badge.target}
          </span>
          <span>{badge.percent}%</span>
        </div>
        <ProgressBar label={`${badge.name} progress`} percent={badge.percent} />
        <p className="mt-1 text-xs font-semibold text-amber-700">{badge.points} points</p>
      </div>
    </li>
  );
}
