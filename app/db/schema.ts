/**
 * The whole PinDex data model (SQLite / libSQL through Drizzle).
 *
 * Conventions
 * - ids are random text ids (see createId); timestamps are integer milliseconds.
 * - money is stored as integer cents (`*_cents`) so sums are exact; the API shows dollars.
 * - enumerations are CHECK constraints; JSON lists are text columns with mode 'json'.
 * - ON DELETE is chosen per relation: owned children cascade, references to people are set null,
 *   and records that must not silently disappear (pins of an organization, orders) restrict.
 * - one collection entry per user and pin: an entry has one status at a time and moves between
 *   owned, wanted and trading (PUT /api/users/{id}/collection/{pinId} names the entry by pin).
 */
import { sql } from 'drizzle-orm';
import {
  blob,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';
import { createId } from '../utils/ids';
import {
  ACHIEVEMENT_CATEGORIES,
  CHALLENGE_TYPES,
  COLLECTION_STATUSES,
  CONDITIONS,
  IMAGE_FORMATS,
  IMAGE_VARIANTS,
  CHECKOUT_STATUSES,
  ORDER_STATUSES,
  PAYMENT_PROVIDERS,
  RARITIES,
  REACTION_TYPES,
  ROLES,
  STAFF_ROLES,
  SUGGESTION_STATUSES,
  type SuggestionStatus,
  NOTIFICATION_TYPES,
  TRADE_STATUSES,
  VENDOR_STATUSES,
  type Rarity,
} from '../utils/constants';

export * from '../utils/constants';

const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);

const id = () => text('id').primaryKey().$defaultFn(createId);
const createdAt = () =>
  integer('created_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);
const updatedAt = () =>
  integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`)
    .$onUpdateFn(() => new Date());
const bool = (name: string) => integer(name, { mode: 'boolean' });

// ---------------------------------------------------------------- people and sign-in

export const users = sqliteTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    nickname: text('nickname'),
    profileImageUrl: text('profile_image_url'),
    role: text('role', { enum: ROLES }).notNull().default('player'),
    isOnboardingComplete: bool('is_onboarding_complete').notNull().default(false),
    stripeCustomerId: text('stripe_customer_id'),
    /** set when the account was deleted: the row stays, emptied, so contributions keep a name */
    deletedAt: integer('deleted_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // e-mail and nickname are unique without regard to case
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_nickname_unique').on(sql`lower(${t.nickname})`),
    // the admin users table's role filter, newest first
    index('users_role_created_idx').on(t.role, t.createdAt),
    index('users_created_idx').on(t.createdAt),
    check('users_role_check', inList('role', ROLES)),
  ],
);

/** Local accounts: a memory-hard (scrypt) hash, kept apart from the user row. */
export const passwords = sqliteTable('passwords', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  hash: text('hash').notNull(),
  updatedAt: updatedAt(),
});

/** Forgotten-password links: only the SHA-256 of the token is kept; one hour, used once. */
export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_unique').on(t.tokenHash), index('password_reset_tokens_user_idx').on(t.userId)],
);

/** OAuth2 / OpenID Connect identities linked to a user. */
export const oauthConnections = sqliteTable(
  'oauth_connections',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('oauth_provider_user_unique').on(t.provider, t.providerUserId),
    index('oauth_user_idx').on(t.userId),
  ],
);

/** Server-side sessions: the cookie holds only `sid`. */
export const sessions = sqliteTable(
  'sessions',
  {
    sid: text('sid').primaryKey(),
    sess: text('sess', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    expire: integer('expire', { mode: 'timestamp_ms' }).notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [index('sessions_expire_idx').on(t.expire), index('sessions_user_idx').on(t.userId)],
);

// ---------------------------------------------------------------- images

/** Uploaded images, stored once by the SHA-256 of the normalised bytes. */
export const images = sqliteTable('images', {
  id: text('id').primaryKey(), // hex content hash
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  /** the normalised master (metadata stripped, auto-rotated, at most 1600 px), JPEG */
  bytes: blob('bytes', { mode: 'buffer' }).notNull(),
  byteSize: integer('byte_size').notNull(),
  createdAt: createdAt(),
});

/** Pre-rendered variants served to browsers (thumbnail for cards, full for detail). */
export const imageVariants = sqliteTable(
  'image_variants',
  {
    imageId: text('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    variant: text('variant', { enum: IMAGE_VARIANTS }).notNull(),
    format: text('format', { enum: IMAGE_FORMATS }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: blob('bytes', { mode: 'buffer' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.imageId, t.variant, t.format] }),
    check('image_variants_variant_check', inList('variant', IMAGE_VARIANTS)),
    check('image_variants_format_check', inList('format', IMAGE_FORMATS)),
  ],
);

/** Visual features of a reference image, extracted once when stored (identification index). */
export const imageFeatures = sqliteTable('image_features', {
  imageId: text('image_id')
    .primaryKey()
    .references(() => images.id, { onDelete: 'cascade' }),
  engine: text('engine').notNull(),
  features: blob('features', { mode: 'buffer' }).notNull(),
  // the reference decoded as the detail and colour checks read it (reference-pixels.server.ts), so
  // that a photo's match does not decode JPEGs; null until made (rows of an earlier version)
  pixels: blob('pixels', { mode: 'buffer' }),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------- catalogue

export const organizations = sqliteTable(
  'organizations',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('organizations_name_unique').on(sql`lower(${t.name})`)],
);

export const teams = sqliteTable(
  'teams',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    location: text('location'),
    managerId: text('manager_id').references(() => users.id, { onDelete: 'set null' }),
    logoUrl: text('logo_url'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('teams_manager_idx').on(t.managerId), index('teams_name_idx').on(t.name)],
);

export const pins = sqliteTable(
  'pins',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    // an organization with pins cannot be deleted
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    teamId: text('team_id').references(() => teams.id, { onDelete: 'set null' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    totalQuantity: integer('total_quantity').notNull().default(100),
    availableQuantity: integer('available_quantity').notNull().default(0),
    distributionDate: text('distribution_date'), // ISO date YYYY-MM-DD
    /** image ids (see `images`), in display order */
    images: text('images', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    primaryPhotoIndex: integer('primary_photo_index').notNull().default(0),
    year: integer('year'),
    event: text('event'),
    rarity: text('rarity', { enum: RARITIES }).notNull().default('common'),
    rarityScore: integer('rarity_score').notNull().default(1),
    /** true when an admin set rarity by hand; otherwise it follows totalQuantity */
    rarityLocked: bool('rarity_locked').notNull().default(false),
    identificationCount: integer('identification_count').notNull().default(0),
    estimatedValueCents: integer('estimated_value_cents'),
    isFeatured: bool('is_featured').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // browse: each filter with the default order (newest: created_at, id), and each sort, so a page
    // is read in index order without sorting every match (tests/bench/browse.ts)
    index('pins_created_idx').on(t.createdAt, t.id),
    index('pins_rarity_idx').on(t.rarityScore, t.createdAt, t.id),
    index('pins_rarity_name_idx').on(t.rarity, t.createdAt, t.id),
    index('pins_value_idx').on(t.estimatedValueCents, t.createdAt, t.id),
    index('pins_org_idx').on(t.organizationId, t.createdAt, t.id),
    index('pins_year_idx').on(t.year, t.createdAt, t.id),
    // the broad filters (rarity: about a quarter of the pins each; year: a sixteenth) with each other
    // sort, so a filtered page sorted by name, value, year or rarity is read in index order too; an
    // organization holds few enough pins to sort (0011_filter_sorts)
    index('pins_rarity_sort_name_idx').on(t.rarity, sql`${t.name} collate nocase`, t.id),
    index('pins_rarity_sort_value_idx').on(t.rarity, t.estimatedValueCents, t.createdAt, t.id),
    index('pins_rarity_sort_year_idx').on(t.rarity, t.year, t.createdAt, t.id),
    index('pins_year_sort_name_idx').on(t.year, sql`${t.name} collate nocase`, t.id),
    index('pins_year_sort_value_idx').on(t.year, t.estimatedValueCents, t.createdAt, t.id),
    index('pins_year_sort_rarity_idx').on(t.year, t.rarityScore, t.createdAt, t.id),
    index('pins_team_idx').on(t.teamId),
    index('pins_creator_idx').on(t.createdBy),
    index('pins_featured_idx').on(t.isFeatured),
    index('pins_name_idx').on(t.name),
    index('pins_name_nocase_idx').on(sql`${t.name} collate nocase`, t.id),
    check('pins_rarity_check', inList('rarity', RARITIES)),
    check('pins_rarity_score_check', sql`rarity_score between 0 and 4`),
    check('pins_total_quantity_check', sql`total_quantity >= 1`),
    check('pins_available_quantity_check', sql`available_quantity >= 0`),
  ],
);

export const identifications = sqliteTable(
  'identifications',
  {
    id: id(),
    // deleting a pin deletes its identification records (the admin confirmation says so)
    pinId: text('pin_id').references(() => pins.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** the photo, as a reference into `images` */
    imageData: text('image_data'),
    confidence: integer('confidence').notNull().default(0),
    identificationData: text('identification_data', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    // analytics: by day and by pin over a range, from the index alone (the rows hold large JSON)
    index('identifications_created_pin_idx').on(t.createdAt, t.pinId),
    index('identifications_pin_idx').on(t.pinId),
    // a user's identifications over a day (daily challenges), from the index alone
    index('identifications_user_idx').on(t.userId, t.createdAt),
  ],
);

// ---------------------------------------------------------------- teams

export const rosters = sqliteTable(
  'rosters',
  {
    id: id(),
    // players are often children without an account: the name is kept, the account is optional
    playerId: text('player_id').references(() => users.id, { onDelete: 'set null' }),
    playerName: text('player_name').notNull(),
    teamId: text('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    position: text('position'),
    jerseyNumber: text('jersey_number'),
    isActive: bool('is_active').notNull().default(true),
    joinedAt: integer('joined_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  },
  (t) => [
    index('rosters_team_idx').on(t.teamId),
    index('rosters_player_idx').on(t.playerId),
    // a jersey number is worn by one active player of a team at a time (the service says so first)
    uniqueIndex('rosters_team_jersey_active_unique')
      .on(t.teamId, t.jerseyNumber)
      .where(sql`is_active = 1 and jersey_number is not null`),
  ],
);

export const staff = sqliteTable(
  'staff',
  {
    id: id(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    teamId: text('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    role: text('role', { enum: STAFF_ROLES }).notNull().default('assistant_coach'),
    isActive: bool('is_active').notNull().default(true),
    joinedAt: integer('joined_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  },
  (t) => [
    index('staff_team_idx').on(t.teamId),
    index('staff_user_idx').on(t.userId),
    // one staff row per person and team
    uniqueIndex('staff_team_user_unique').on(t.teamId, t.userId).where(sql`user_id is not null`),
    check('staff_role_check', inList('role', STAFF_ROLES)),
  ],
);

/**
 * An invite link that lets a signed-in account claim one roster entry (a player or the parent who
 * looks after that child's pins). The token is kept as it is so the manager can copy the link again;
 * only the team's manager (and admins) read it. It works until it expires, is revoked, or the
 * entry has an account.
 */
export const teamInvites = sqliteTable(
  'team_invites',
  {
    id: id(),
    teamId: text('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    rosterId: text('roster_id')
      .notNull()
      .references(() => rosters.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    acceptedAt: integer('accepted_at', { mode: 'timestamp_ms' }),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('team_invites_token_unique').on(t.token), index('team_invites_team_idx').on(t.teamId, t.createdAt)],
);

/** How many of a team pin the team orders, and (when the manager sets it) who gets how many. */
export const teamPinOrders = sqliteTable(
  'team_pin_orders',
  {
    id: id(),
    teamId: text('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    pinId: text('pin_id')
      .notNull()
      .references(() => pins.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('team_pin_orders_team_pin_unique').on(t.teamId, t.pinId), check('team_pin_orders_quantity_check', sql`quantity >= 1`)],
);

/** A player's share of a team pin order; none stored means an even split among active players. */
export const teamPinAllocations = sqliteTable(
  'team_pin_allocations',
  {
    orderId: text('order_id')
      .notNull()
      .references(() => teamPinOrders.id, { onDelete: 'cascade' }),
    rosterId: text('roster_id')
      .notNull()
      .references(() => rosters.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.rosterId] }), check('team_pin_allocations_quantity_check', sql`quantity >= 0`)],
);

// ---------------------------------------------------------------- collections and badges

export const userCollections = sqliteTable(
  'user_collections',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pinId: text('pin_id')
      .notNull()
      .references(() => pins.id, { onDelete: 'cascade' }),
    status: text('status', { enum: COLLECTION_STATUSES }).notNull(),
    quantity: integer('quantity').notNull().default(1),
    acquiredAt: integer('acquired_at', { mode: 'timestamp_ms' }),
    condition: text('condition', { enum: CONDITIONS }).notNull().default('excellent'),
    tradeable: bool('tradeable').notNull().default(false),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('user_collections_user_pin_unique').on(t.userId, t.pinId),
    index('user_collections_user_status_idx').on(t.userId, t.status, t.updatedAt),
    index('user_collections_pin_idx').on(t.pinId),
    // analytics: collection activity over time, and the most collected pins
    index('user_collections_created_idx').on(t.createdAt),
    // trade matches ("who trades/wants these pins") read only this index: status, pin, user
    index('user_collections_status_pin_user_idx').on(t.status, t.pinId, t.userId),
    check('user_collections_status_check', inList('status', COLLECTION_STATUSES)),
    check('user_collections_condition_check', inList('condition', CONDITIONS)),
    check('user_collections_quantity_check', sql`quantity >= 1`),
  ],
);

/** Team pins handed to players (the team's distribution list). */
export const pinCollections = sqliteTable(
  'pin_collections',
  {
    id: id(),
    playerId: text('player_id')
      .notNull()
      .references(() => rosters.id, { onDelete: 'cascade' }),
    pinId: text('pin_id')
      .notNull()
      .references(() => pins.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull().default(1),
    acquiredAt: integer('acquired_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
    tradeable: bool('tradeable').notNull().default(true),
    notes: text('notes'),
  },
  (t) => [
    index('pin_collections_player_idx').on(t.playerId),
    index('pin_collections_pin_idx').on(t.pinId),
    check('pin_collections_quantity_check', sql`quantity >= 1`),
  ],
);

export type AchievementCondition =
  | { type: 'identification_count'; target: number }
  | { type: 'pins_owned_count'; target: number }
  | { type: 'pins_wanted_count'; target: number }
  | { type: 'trading_count'; target: number }
  | { type: 'streak_days'; target: number }
  | { type: 'owns_rarity'; rarity: Rarity; target: number }
  | { type: 'organizations_collected'; target: number }
  | { type: 'pins_contributed'; target: number };

export const achievements = sqliteTable(
  'achievements',
  {
    id: id(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    iconUrl: text('icon_url'),
    category: text('category', { enum: ACHIEVEMENT_CATEGORIES }).notNull(),
    condition: text('condition', { mode: 'json' }).$type<AchievementCondition>().notNull(),
    points: integer('points').notNull().default(10),
    isHidden: bool('is_hidden').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('achievements_key_unique').on(t.key),
    check('achievements_category_check', inList('category', ACHIEVEMENT_CATEGORIES)),
  ],
);

export const userAchievements = sqliteTable(
  'user_achievements',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    achievementId: text('achievement_id')
      .notNull()
      .references(() => achievements.id, { onDelete: 'cascade' }),
    unlockedAt: integer('unlocked_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
    progress: integer('progress').notNull().default(100),
  },
  (t) => [
    uniqueIndex('user_achievements_unique').on(t.userId, t.achievementId),
    index('user_achievements_user_idx').on(t.userId, t.unlockedAt),
  ],
);

export const userStats = sqliteTable('user_stats', {
  id: id(),
  userId: text('user_id')
    .notNull()
    .unique('user_stats_user_unique')
    .references(() => users.id, { onDelete: 'cascade' }),
  totalIdentifications: integer('total_identifications').notNull().default(0),
  successfulIdentifications: integer('successful_identifications').notNull().default(0),
  pinsOwned: integer('pins_owned').notNull().default(0),
  pinsWanted: integer('pins_wanted').notNull().default(0),
  achievementPoints: integer('achievement_points').notNull().default(0),
  currentStreak: integer('current_streak').notNull().default(0),
  longestStreak: integer('longest_streak').notNull().default(0),
  /** the user's calendar day (YYYY-MM-DD) of their last activity */
  lastActiveDate: text('last_active_date'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const dailyChallenges = sqliteTable(
  'daily_challenges',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    type: text('type', { enum: CHALLENGE_TYPES }).notNull(),
    target: integer('target').notNull().default(1),
    reward: integer('reward').notNull().default(10),
    activeDate: text('active_date').notNull(), // YYYY-MM-DD (a UTC day)
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    /** find_rarity: the least rarity that counts ('rare' counts rare and ultra rare pins) */
    rarity: text('rarity', { enum: RARITIES }),
    createdAt: createdAt(),
  },
  (t) => [
    // one challenge of a type a day: the day's set is created lazily with insert-or-ignore
    uniqueIndex('daily_challenges_day_type_unique').on(t.activeDate, t.type),
    check('daily_challenges_type_check', inList('type', CHALLENGE_TYPES)),
    check('daily_challenges_rarity_check', sql`rarity is null or ${inList('rarity', RARITIES)}`),
  ],
);

export const userChallengeProgress = sqliteTable(
  'user_challenge_progress',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    challengeId: text('challenge_id')
      .notNull()
      .references(() => dailyChallenges.id, { onDelete: 'cascade' }),
    progress: integer('progress').notNull().default(0),
    completed: bool('completed').notNull().default(false),
    completedAt: integer('completed_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_challenge_unique').on(t.userId, t.challengeId)],
);

export const pinComments = sqliteTable(
  'pin_comments',
  {
    id: id(),
    pinId: text('pin_id')
      .notNull()
      .references(() => pins.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('pin_comments_pin_idx').on(t.pinId, t.createdAt)],
);

export const pinReactions = sqliteTable(
  'pin_reactions',
  {
    id: id(),
    pinId: text('pin_id')
      .notNull()
      .references(() => pins.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: REACTION_TYPES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pin_reactions_unique').on(t.pinId, t.userId, t.type),
    check('pin_reactions_type_check', inList('type', REACTION_TYPES)),
  ],
);

// ---------------------------------------------------------------- vendors and marketplace

export const vendors = sqliteTable(
  'vendors',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .unique('vendors_user_unique')
      .references(() => users.id, { onDelete: 'cascade' }),
    businessName: text('business_name').notNull(),
    description: text('description'),
    contactEmail: text('contact_email').notNull(),
    contactPhone: text('contact_phone'),
    websiteUrl: text('website_url'),
    businessAddress: text('business_address'),
    logoUrl: text('logo_url'),
    bannerUrl: text('banner_url'),
    marketingMaterials: text('marketing_materials', { mode: 'json' }).$type<string[]>(),
    applicationStatus: text('application_status', { enum: VENDOR_STATUSES }).notNull().default('pending'),
    isApproved: bool('is_approved').notNull().default(false),
    reviewedBy: text('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: integer('reviewed_at', { mode: 'timestamp_ms' }),
    adminNotes: text('admin_notes'),
    rejectionReason: text('rejection_reason'),
    businessLicense: text('business_license'),
    taxId: text('tax_id'),
    yearsInBusiness: integer('years_in_business'),
    estimatedMonthlyVolume: text('estimated_monthly_volume'),
    specializations: text('specializations', { mode: 'json' }).$type<string[]>(),
    stripeAccountId: text('stripe_account_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('vendors_status_idx').on(t.applicationStatus),
    check('vendors_status_check', inList('application_status', VENDOR_STATUSES)),
  ],
);

export const vendorApplicationHistory = sqliteTable(
  'vendor_application_history',
  {
    id: id(),
    vendorId: text('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    previousStatus: text('previous_status', { enum: VENDOR_STATUSES }),
    newStatus: text('new_status', { enum: VENDOR_STATUSES }).notNull(),
    changedBy: text('changed_by').references(() => users.id, { onDelete: 'set null' }),
    notes: text('notes'),
    attachments: text('attachments', { mode: 'json' }).$type<string[]>(),
    createdAt: createdAt(),
  },
  (t) => [index('vendor_history_vendor_idx').on(t.vendorId, t.createdAt)],
);

export const marketplacePins = sqliteTable(
  'marketplace_pins',
  {
    id: id(),
    vendorId: text('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    /** the catalogue pin this listing sells, when known */
    pinId: text('pin_id').references(() => pins.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description'),
    priceCents: integer('price_cents').notNull(),
    stockQuantity: integer('stock_quantity').notNull().default(0),
    images: text('images', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    category: text('category'),
    tags: text('tags', { mode: 'json' }).$type<string[]>(),
    isActive: bool('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('marketplace_pins_vendor_idx').on(t.vendorId),
    index('marketplace_pins_active_idx').on(t.isActive, t.createdAt),
    index('marketplace_pins_category_idx').on(t.category),
    check('marketplace_pins_price_check', sql`price_cents >= 0 and price_cents < 10000000000`),
    check('marketplace_pins_stock_check', sql`stock_quantity >= 0`),
  ],
);

/** One buyer's checkout: the orders it placed (one per vendor) share it, and so does a payment. */
export const checkouts = sqliteTable(
  'checkouts',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    status: text('status', { enum: CHECKOUT_STATUSES }).notNull().default('open'),
    totalAmountCents: integer('total_amount_cents').notNull(),
    /** the Stripe Checkout session, when paid through Stripe */
    stripeSessionId: text('stripe_session_id'),
    paymentUrl: text('payment_url'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('checkouts_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('checkouts_stripe_session_unique').on(t.stripeSessionId),
    check('checkouts_provider_check', inList('provider', PAYMENT_PROVIDERS)),
    check('checkouts_status_check', inList('status', CHECKOUT_STATUSES)),
  ],
);

export const orders = sqliteTable(
  'orders',
  {
    id: id(),
    // orders are business records: a buyer or vendor with orders cannot be deleted silently
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    vendorId: text('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'restrict' }),
    totalAmountCents: integer('total_amount_cents').notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending'),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    shippingAddress: text('shipping_address'),
    /** the checkout that placed this order with the buyer's other vendors' orders */
    checkoutId: text('checkout_id').references(() => checkouts.id, { onDelete: 'set null' }),
    /** a pending order holds its stock until then, and is cancelled after (null: no limit) */
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
    /** when it became paid (the moment its items became the buyer's) */
    paidAt: integer('paid_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('orders_user_idx').on(t.userId, t.createdAt),
    index('orders_vendor_idx').on(t.vendorId, t.status, t.createdAt),
    index('orders_checkout_idx').on(t.checkoutId),
    index('orders_expiry_idx').on(t.status, t.expiresAt),
    check('orders_status_check', inList('status', ORDER_STATUSES)),
  ],
);

export const orderItems = sqliteTable(
  'order_items',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    marketplacePinId: text('marketplace_pin_id')
      .notNull()
      .references(() => marketplacePins.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    totalPriceCents: integer('total_price_cents').notNull(),
  },
  (t) => [index('order_items_order_idx').on(t.orderId), check('order_items_quantity_check', sql`quantity >= 1`)],
);

/** Every move of an order's status: who, when, from, to, why (the timeline buyers and vendors see). */
export const orderStatusHistory = sqliteTable(
  'order_status_history',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status', { enum: ORDER_STATUSES }),
    toStatus: text('to_status', { enum: ORDER_STATUSES }).notNull(),
    /** null: the system (an expired hold, a payment provider) */
    changedBy: text('changed_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('order_status_history_order_idx').on(t.orderId, t.createdAt)],
);

/** A signed-in buyer's cart: one row per listing, with the price the buyer last saw. */
export const cartItems = sqliteTable(
  'cart_items',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    marketplacePinId: text('marketplace_pin_id')
      .notNull()
      .references(() => marketplacePins.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    /** the unit price when the buyer added or last changed it: a later change is pointed out */
    seenPriceCents: integer('seen_price_cents').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('cart_items_user_listing_unique').on(t.userId, t.marketplacePinId),
    check('cart_items_quantity_check', sql`quantity >= 1`),
  ],
);

/** Stripe webhook events already handled (idempotency by event id). */
export const stripeEvents = sqliteTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: createdAt(),
});

export const userInventory = sqliteTable(
  'user_inventory',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: text('order_id').references(() => orders.id, { onDelete: 'set null' }),
    marketplacePinId: text('marketplace_pin_id')
      .notNull()
      .references(() => marketplacePins.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull().default(1),
    acquiredAt: integer('acquired_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  },
  (t) => [index('user_inventory_user_idx').on(t.userId, t.acquiredAt)],
);

export const auditLogs = sqliteTable(
  'audit_logs',
  {
    id: id(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>(),
    timestamp: integer('timestamp', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  },
  (t) => [
    index('audit_logs_time_idx').on(t.timestamp),
    // the audit log filtered by actor or by action, newest first
    index('audit_logs_user_time_idx').on(t.userId, t.timestamp),
    index('audit_logs_action_time_idx').on(t.action, t.timestamp),
    index('audit_logs_target_idx').on(t.targetType, t.targetId),
  ],
);

export { SUGGESTION_STATUSES, type SuggestionStatus };

/**
 * A pin suggested by a user whose role may not add pins (from a no-match): it waits for an admin,
 * who approves it (it becomes a pin, `pinId`) or rejects it with a reason the suggester sees.
 */
export const pinSuggestions = sqliteTable(
  'pin_suggestions',
  {
    id: id(),
    suggestedBy: text('suggested_by').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: SUGGESTION_STATUSES }).notNull().default('pending'),
    name: text('name').notNull(),
    description: text('description').notNull(),
    organizationName: text('organization_name').notNull(),
    teamId: text('team_id').references(() => teams.id, { onDelete: 'set null' }),
    totalQuantity: integer('total_quantity').notNull().default(100),
    year: integer('year'),
    event: text('event'),
    /** image ids, in the order given (the first is the pin's picture) */
    images: text('images', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    identificationId: text('identification_id').references(() => identifications.id, { onDelete: 'set null' }),
    reviewedBy: text('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: integer('reviewed_at', { mode: 'timestamp_ms' }),
    rejectReason: text('reject_reason'),
    pinId: text('pin_id').references(() => pins.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('pin_suggestions_status_idx').on(t.status, t.createdAt),
    index('pin_suggestions_user_idx').on(t.suggestedBy, t.createdAt),
    check('pin_suggestions_status_check', inList('status', SUGGESTION_STATUSES)),
  ],
);

// ---------------------------------------------------------------- trading

/**
 * A trade proposed by one collector to another: the pins each side gives (trade_proposal_items).
 * `status` moves only from open, by conditional updates (WHERE status = 'open'), so an accept and
 * a cancel racing each other cannot both win. An open proposal past `expiresAt` reads as expired.
 * A counter-offer closes its parent (countered) and opens a new proposal with `parentId`.
 */
export const tradeProposals = sqliteTable(
  'trade_proposals',
  {
    id: id(),
    proposerId: text('proposer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: TRADE_STATUSES }).notNull().default('open'),
    note: text('note'),
    parentId: text('parent_id'),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    /** when it left open (accepted, declined, cancelled, countered) */
    closedAt: integer('closed_at', { mode: 'timestamp_ms' }),
    closedBy: text('closed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('trade_proposals_proposer_idx').on(t.proposerId, t.status, t.createdAt),
    index('trade_proposals_recipient_idx').on(t.recipientId, t.status, t.createdAt),
    check('trade_proposals_status_check', inList('status', TRADE_STATUSES)),
    check('trade_proposals_parties_check', sql`proposer_id <> recipient_id`),
  ],
);

/** One pin of a proposal and who gives it (the proposer or the recipient). */
export const tradeProposalItems = sqliteTable(
  'trade_proposal_items',
  {
    id: id(),
    proposalId: text('proposal_id')
      .notNull()
      .references(() => tradeProposals.id, { onDelete: 'cascade' }),
    giverId: text('giver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pinId: text('pin_id')
      .notNull()
      .references(() => pins.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('trade_proposal_items_unique').on(t.proposalId, t.pinId, t.giverId)],
);

/** A partner's rating (1-5) after a completed trade: one per rater and trade. */
export const tradeRatings = sqliteTable(
  'trade_ratings',
  {
    id: id(),
    proposalId: text('proposal_id')
      .notNull()
      .references(() => tradeProposals.id, { onDelete: 'cascade' }),
    raterId: text('rater_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rateeId: text('ratee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    score: integer('score').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('trade_ratings_unique').on(t.proposalId, t.raterId),
    index('trade_ratings_ratee_idx').on(t.rateeId, t.createdAt),
    check('trade_ratings_score_check', sql`score between 1 and 5`),
  ],
);

/** In-app notices (a trade proposed to you, accepted, ...); unread while `readAt` is null. */
export const notifications = sqliteTable(
  'notifications',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    message: text('message').notNull(),
    link: text('link'),
    readAt: integer('read_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.readAt, t.createdAt),
    check('notifications_type_check', inList('type', NOTIFICATION_TYPES)),
  ],
);

export type User = typeof users.$inferSelect;
export type Pin = typeof pins.$inferSelect;
export type NewPin = typeof pins.$inferInsert;
export type Organization = typeof organizations.$inferSelect;
export type Team = typeof teams.$inferSelect;
export type RosterRow = typeof rosters.$inferSelect;
export type StaffRow = typeof staff.$inferSelect;
export type CollectionEntry = typeof userCollections.$inferSelect;
export type Achievement = typeof achievements.$inferSelect;
export type UserStats = typeof userStats.$inferSelect;
export type Vendor = typeof vendors.$inferSelect;
export type MarketplacePin = typeof marketplacePins.$inferSelect;
export type Order = typeof orders.$inferSelect;
export type Checkout = typeof checkouts.$inferSelect;
export type CartItem = typeof cartItems.$inferSelect;
export type TradeProposal = typeof tradeProposals.$inferSelect;
export type OrderStatusMove = typeof orderStatusHistory.$inferSelect;
