import { RARITY_LABELS, type Rarity } from '~/utils/constants';

const styles: Record<Rarity, string> = {
  common: 'bg-slate-100 text-slate-700',
  uncommon: 'bg-green-100 text-green-800',
  rare: 'bg-blue-100 text-blue-800',
  ultra_rare: 'bg-purple-100 text-purple-800 animate-pulse',
};

export function RarityBadge({ rarity }: { rarity: string }) {
  const key = (rarity in styles ? rarity : 'common') as Rarity; // unknown rarity falls back to the common style
  return <span className={`badge ${styles[key]}`}>{RARITY_LABELS[key] ?? rarity.replace('_', ' ')}</span>;
}
