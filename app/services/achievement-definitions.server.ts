/**
 * The badge catalogue. `ensureAchievements` upserts it by `key`, so names, texts, points and
 * conditions can be tuned here and re-applied (the seed script calls it; pages and calls that
 * show or award badges call `ensureAchievementsOnce`) without losing who earned what.
 */
import { sql } from 'drizzle-orm';
import { transaction } from '~/db/index.server';
import { achievements, type AchievementCondition, type ACHIEVEMENT_CATEGORIES } from '~/db/schema';

export interface AchievementDefinition {
  key: string;
  name: string;
  description: string;
  category: (typeof ACHIEVEMENT_CATEGORIES)[number];
  condition: AchievementCondition;
  points: number;
  isHidden?: boolean;
}

export const ACHIEVEMENT_DEFINITIONS: AchievementDefinition[] = [
  // identification
  {
    key: 'first_identification',
    name: 'First Identification',
    description: 'Identify your first pin',
    category: 'identification',
    condition: { type: 'identification_count', target: 1 },
    points: 10,
  },
  {
    key: 'pin_detective',
    name: 'Pin Detective',
    description: 'Identify 10 pins',
    category: 'identification',
    condition: { type: 'identification_count', target: 10 },
    points: 25,
  },
  {
    key: 'pin_expert',
    name: 'Pin Expert',
    description: 'Identify 50 pins',
    category: 'identification',
    condition: { type: 'identification_count', target: 50 },
    points: 50,
  },
  // collection
  {
    key: 'first_pin',
    name: 'First Pin',
    description: 'Add your first pin to your owned collection',
    category: 'collection',
    condition: { type: 'pins_owned_count', target: 1 },
    points: 10,
  },
  {
    key: 'collector',
    name: 'Collector',
    description: 'Own 10 pins',
    category: 'collection',
    condition: { type: 'pins_owned_count', target: 10 },
    points: 25,
  },
  {
    key: 'serious_collector',
    name: 'Serious Collector',
    description: 'Own 50 pins',
    category: 'collection',
    condition: { type: 'pins_owned_count', target: 50 },
    points: 50,
  },
  {
    key: 'pin_hoarder',
    name: 'Pin Hoarder',
    description: 'Own 100 pins',
    category: 'collection',
    condition: { type: 'pins_owned_count', target: 100 },
    points: 100,
  },
  {
    key: 'wishful_thinker',
    name: 'Wishful Thinker',
    description: 'Put 5 pins on your wanted list',
    category: 'collection',
    condition: { type: 'pins_wanted_count', target: 5 },
    points: 10,
  },
  {
    key: 'rare_find',
    name: 'Rare Find',
    description: 'Own a rare pin',
    category: 'collection',
    condition: { type: 'owns_rarity', rarity: 'rare', target: 1 },
    points: 20,
  },
  {
    key: 'ultra_rare_hunter',
    name: 'Ultra Rare Hunter',
    description: 'Own an ultra rare pin',
    category: 'collection',
    condition: { type: 'owns_rarity', rarity: 'ultra_rare', target: 1 },
    points: 50,
  },
  {
    key: 'league_explorer',
    name: 'League Explorer',
    description: 'Own pins from 3 different organizations',
    category: 'collection',
    condition: { type: 'organizations_collected', target: 3 },
    points: 20,
  },
  {
    key: 'around_the_bases',
    name: 'Around the Bases',
    description: 'Own pins from 8 different organizations',
    category: 'collection',
    condition: { type: 'organizations_collected', target: 8 },
    points: 50,
  },
  // social / trading
  {
    key: 'open_for_trade',
    name: 'Open for Trade',
    description: 'Put a pin up for trading',
    category: 'social',
    condition: { type: 'trading_count', target: 1 },
    points: 10,
  },
  {
    key: 'trading_post',
    name: 'Trading Post',
    description: 'Have 10 pins up for trading',
    category: 'social',
    condition: { type: 'trading_count', target: 10 },
    points: 25,
  },
  {
    key: 'contributor',
    name: 'Contributor',
    description: 'Add a new pin to the database',
    category: 'social',
    condition: { type: 'pins_contributed', target: 1 },
    points: 20,
  },
  {
    key: 'archivist',
    name: 'Archivist',
    description: 'Add 10 new pins to the database',
    category: 'social',
    condition: { type: 'pins_contributed', target: 10 },
    points: 50,
  },
  // streaks
  {
    key: 'streak_3',
    name: 'On a Roll',
    description: 'Be active 3 days in a row',
    category: 'special',
    condition: { type: 'streak_days', target: 3 },
    points: 15,
  },
  {
    key: 'streak_7',
    name: 'Week Warrior',
    description: 'Be active 7 days in a row',
    category: 'special',
    condition: { type: 'streak_days', target: 7 },
    points: 30,
  },
  {
    key: 'streak_30',
    name: 'Iron Collector',
    description: 'Be active 30 days in a row',
    category: 'special',
    condition: { type: 'streak_days', target: 30 },
    points: 100,
  },
];

/** Upserts the badge list by key (idempotent; safe to call at every start). */
export async function ensureAchievements(): Promise<void> {
  // one transaction: all or nothing, and queued with the other writers of this process
  await transaction(async (tx) => {
    for (const def of ACHIEVEMENT_DEFINITIONS) {
      await tx
        .insert(achievements)
        .values({ ...def, isHidden: def.isHidden ?? false })
        .onConflictDoUpdate({
          target: achievements.key,
          set: {
            name: sql`excluded.name`,
            description: sql`excluded.description`,
            category: sql`excluded.category`,
            condition: sql`excluded.condition`,
            points: sql`excluded.points`,
            isHidden: sql`excluded.is_hidden`,
          },
        });
    }
  });
}

let ensured: Promise<void> | null = null;
/**
 * Once per process: a fresh instance that was migrated but never seeded still gets its badges
 * (pages and calls that show or award badges call this before their transaction).
 */
export function ensureAchievementsOnce(): Promise<void> {
  if (!ensured) {
    ensured = ensureAchievements().catch((error: unknown) => {
      ensured = null;
      throw error;
    });
  }
  return ensured;
}
