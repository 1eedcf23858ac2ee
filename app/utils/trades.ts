/**
 * Trade proposal limits that the proposal page shows and its schema checks (~/forms/trades):
 * browser-safe and zod-free, so the page does not load zod.
 */
export const TRADE_NOTE_MAX = 500;
/** Days a proposal stays open before it expires. */
export const TRADE_EXPIRY_DAYS = 14;
