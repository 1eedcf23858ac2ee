import { PinCard, type PinCardData } from './pin-card';

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
