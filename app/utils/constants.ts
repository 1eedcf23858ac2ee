/** Enumerations and limits shared by the server and the browser (no server imports here). */
export const ROLES = ['player', 'manager', 'assistant_coach', 'vendor', 'admin', 'super_admin'] as const;
export type Role = (typeof ROLES)[number];
export const RARITIES = ['common', 'uncommon', 'rare', 'ultra_rare'] as const;
export type Rarity = (typeof RARITIES)[number];
export const COLLECTION_STATUSES = ['owned', 'wanted', 'trading'] as const;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];
export const CONDITIONS = ['mint', 'excellent', 'good', 'fair', 'poor'] as const;
export type Condition = (typeof CONDITIONS)[number];
export const STAFF_ROLES = ['manager', 'assistant_coach'] as const;
export const ACHIEVEMENT_CATEGORIES = ['identification', 'collection', 'social', 'marketplace', 'special'] as const;
export const CHALLENGE_TYPES = ['identify_pins', 'find_rarity', 'add_to_collection', 'marketplace_activity'] as const;
export const REACTION_TYPES = ['like', 'favorite', 'want'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];
export const VENDOR_STATUSES = ['pending', 'under_review', 'approved', 'rejected', 'needs_revision'] as const;
export type VendorStatus = (typeof VENDOR_STATUSES)[number];
export const ORDER_STATUSES = ['pending', 'paid', 'processing', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const PAYMENT_PROVIDERS = ['offline', 'stripe'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
export const CHECKOUT_STATUSES = ['open', 'complete', 'expired', 'cancelled'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];
export const IMAGE_VARIANTS = ['thumb', 'full'] as const;
export type ImageVariant = (typeof IMAGE_VARIANTS)[number];
export const IMAGE_FORMATS = ['webp', 'jpeg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Whether `value` is one of `list`'s values, narrowing it to their type (for query strings, form fields, rows). */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

/** The collection page's tab from its URL (`?tab=`): owned when missing or unknown. */
export function collectionTabOf(url: URL): CollectionStatus {
  const tab = url.searchParams.get('tab');
  return isOneOf(COLLECTION_STATUSES, tab) ? tab : 'owned';
}


export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The most pixels an uploaded image may decode to (a small file can hold a huge, flat picture). */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_PIN_PHOTOS = 5;
export const MIN_PIN_YEAR = 1900;

export const RARITY_LABELS: Record<Rarity, string> = {
  common: 'Common',
  uncommon: 'Uncommon',
  rare: 'Rare',
  ultra_rare: 'Ultra Rare',
};

export const ROLE_LABELS: Record<Role, string> = {
  player: 'Player',
  manager: 'Manager',
  assistant_coach: 'Assistant Coach',
  vendor: 'Vendor',
  admin: 'Admin',
  super_admin: 'Super Admin',
};

/** A pin suggestion waits for an admin, who approves it (it becomes a pin) or rejects it. */
/** A trade proposal's life: open until answered, cancelled or 14 days old (expired). */
export const TRADE_STATUSES = ['open', 'accepted', 'declined', 'cancelled', 'countered', 'expired'] as const;
export type TradeStatus = (typeof TRADE_STATUSES)[number];
export const NOTIFICATION_TYPES = ['trade_proposed', 'trade_accepted', 'trade_declined', 'trade_cancelled', 'trade_countered'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const SUGGESTION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

/** Which statuses an entry in a given status may move to (spec §4). */
export const COLLECTION_MOVES: Record<CollectionStatus, CollectionStatus[]> = {
  owned: ['wanted', 'trading'],
  wanted: ['owned', 'trading'],
  trading: ['owned', 'wanted'],
};

/** Limits of a collection entry (the add-to-collection form and its schema, ~/forms/collection). */
export const MAX_COLLECTION_QUANTITY = 9999;
export const MAX_COLLECTION_NOTES = 500;

/** The longest comment on a pin (its form and its schema, ~/forms/community). */
export const COMMENT_MAX = 1000;

/** The latest year a pin may have: this one. */
export const currentYear = () => new Date().getFullYear();

/** The shortest password an account may have (forms/auth.ts checks it; pages say it). */
export const MIN_PASSWORD_LENGTH = 10;
