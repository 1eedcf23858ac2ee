import type { Rarity } from './constants';

/**
 * How rare a pin is follows from how many were made, unless an admin sets it by hand
 * (pins.rarity_locked). Rarity score is 0-4, shown as n/4:
 *   1-50 pieces: Ultra Rare, 4/4 · 51-150: Rare, 3/4 · 151-500: Uncommon, 2/4 ·
 *   501-2,000: Common, 1/4 · more than 2,000: Common, 0/4.
 */
export function rarityFromQuantity(totalQuantity: number): { rarity: Rarity; rarityScore: number } {
  if (totalQuantity <= 50) return { rarity: 'ultra_rare', rarityScore: 4 };
  if (totalQuantity <= 150) return { rarity: 'rare', rarityScore: 3 };
  if (totalQuantity <= 500) return { rarity: 'uncommon', rarityScore: 2 };
  if (totalQuantity <= 2000) return { rarity: 'common', rarityScore: 1 };
  return { rarity: 'common', rarityScore: 0 };
}

/** The score an admin-chosen rarity gets. */
export const RARITY_SCORE: Record<Rarity, number> = { ultra_rare: 4, rare: 3, uncommon: 2, common: 1 };
