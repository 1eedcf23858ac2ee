import { Link } from '@remix-run/react';
import { RarityBadge } from './rarity-badge';

export interface PinCardData {
  id: string;
  name: string;
  thumbnail: string | null;
  rarity: string;
  organization?: { name: string } | null;
  estimatedValue?: number | null;
  year?: number | null;
  /** likes and comments (left out when none) */
  likes?: number;
  comments?: number;
}

/** The card's like and comment counts, when there are any. */
function CommunityCounts({ likes = 0, comments = 0 }: { likes?: number; comments?: number }) {
  if (!likes && !comments) return null;
  const label = [likes ? `${likes} ${likes === 1 ? 'like' : 'likes'}` : '', comments ? `${comments} ${comments === 1 ? 'comment' : 'comments'}` : '']
    .filter(Boolean)
    .join(', ');
  return (
    <span className="inline-flex shrink-0 items-center gap-2 text-xs text-slate-500" aria-label={label} title={label} data-testid="card-community">
      {likes ? (
        <span className="inline-flex items-center gap-0.5" aria-hidden="true">
          <svg width="12" height="12" viewBox="0 0 24 24" fill="currentColor">
            <path d="M12 21s-7.5-4.6-9.6-9.3C.9 8.3 3 4.5 6.6 4.5c2.1 0 3.8 1.2 5.4 3.1 1.6-1.9 3.3-3.1 5.4-3.1 3.6 0 5.7 3.8 4.2 7.2C19.5 16.4 12 21 12 21z" />
          </svg>
          {likes}
        </span>
      ) : null}
      {comments ? (
        <span className="inline-flex items-center gap-0.5" aria-hidden="true">
          <svg width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5">
            <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20.5l1.4-4.6A8 8 0 1 1 21 12z" />
          </svg>
          {comments}
        </span>
      ) : null}
    </span>
  );
}

/** A pin in a grid: thumbnail with fixed dimensions (no layout shift), name, rarity. Opens /pins/{id}. */
/**
 * `eager`: the thumbnail loads at once (a card above the fold); `priority`: and before other
 * images (the page's largest image, its LCP element).
 */
export function PinCard({ pin, eager = false, priority = false, footer }: { pin: PinCardData; eager?: boolean; priority?: boolean; footer?: React.ReactNode }) {
  return (
    <div className="card flex flex-col overflow-hidden transition hover:shadow-md">
      <Link to={`/pins/${pin.id}`} className="block" prefetch="intent">
        <div className="aspect-square bg-white">
          {pin.thumbnail ? (
            <img
              src={pin.thumbnail}
              alt={pin.name}
              width={320}
              height={320}
              loading={eager || priority ? 'eager' : 'lazy'}
              // React 18 does not know fetchPriority yet: the attribute as HTML spells it
              {...(priority ? { fetchpriority: 'high' } : {})}
              decoding="async"
              className="h-full w-full object-contain p-2"
            />
          ) : (
            // an inline drawing, not an emoji: phones without an emoji font showed an empty box
            <div className="flex h-full items-center justify-center text-slate-300" aria-hidden="true">
              <svg viewBox="0 0 24 24" width="48" height="48" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
                <circle cx="12" cy="9" r="6" />
                <path d="M12 15v7M9 9h6M12 6v6" />
              </svg>
            </div>
          )}
        </div>
        <div className="space-y-1 p-2 sm:p-3">
          {/* two lines at most, wrapped anywhere a long word needs; the year has its own line below */}
          <h3 className="line-clamp-2 break-words text-[13px] font-semibold leading-snug text-slate-900 sm:text-sm" title={pin.name}>
            {pin.name}
          </h3>
          {pin.year || pin.organization ? (
            <p className="truncate text-xs text-slate-500">
              {pin.year ? (
                <span className="font-medium text-slate-700" data-testid="pin-year">
                  {pin.year}
                </span>
              ) : null}
              {pin.year && pin.organization ? ' · ' : null}
              {pin.organization?.name}
            </p>
          ) : null}
          <div className="flex flex-wrap items-center justify-between gap-1">
            <RarityBadge rarity={pin.rarity} />
            <CommunityCounts likes={pin.likes} comments={pin.comments} />
          </div>
        </div>
      </Link>
      {footer ? <div className="mt-auto border-t border-slate-100 px-3 py-2 text-xs">{footer}</div> : null}
    </div>
  );
}

/**
 * A responsive grid of pin cards: 2 columns on phones up to 5 on wide screens. The first
 * `eagerCount` cards (above the fold) load their thumbnails at once, the rest lazily; with
 * `priorityFirst` the first card's comes before other images (the page's largest image).
 */
export function PinGrid({
  pins,
  eagerCount = 4,
  priorityFirst = false,
  footer,
  idFor,
  className = 'grid-cols-2 md:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5',
}: {
  pins: PinCardData[];
  eagerCount?: number;
  priorityFirst?: boolean;
  footer?: (pin: PinCardData, index: number) => React.ReactNode;
  /** an id for some items (e.g. the first card of each page, a target for #page-2 links) */
  idFor?: (index: number) => string | undefined;
  className?: string;
}) {
  return (
    <ul className={`grid gap-3 sm:gap-4 ${className}`}>
      {pins.map((pin, i) => (
        <li key={pin.id} id={idFor?.(i)} className="scroll-mt-20">
          <PinCard pin={pin} eager={i < eagerCount} priority={priorityFirst && i === 0} footer={footer?.(pin, i)} />
        </li>
      ))}
    </ul>
  );
}

/** Only what a card shows: keeps the HTML and the embedded loader data small. */
export function toCardData(pin: {
  id: string;
  name: string;
  thumbnail: string | null;
  rarity: string;
  organization?: { name: string } | null;
  year?: number | null;
  likes?: number;
  comments?: number;
}): PinCardData {
  return {
    id: pin.id,
    name: pin.name,
    thumbnail: pin.thumbnail,
    rarity: pin.rarity,
    organization: pin.organization ? { name: pin.organization.name } : null,
    year: pin.year ?? null,
    ...(pin.likes ? { likes: pin.likes } : {}),
    ...(pin.comments ? { comments: pin.comments } : {}),
  };
}
