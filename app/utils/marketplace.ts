/**
 * Marketplace limits and choices that its pages show and its forms check (~/forms/marketplace):
 * browser-safe and zod-free, so a page that needs one does not load zod.
 */
import { ORDER_STATUSES } from './constants';

export const LISTING_CATEGORIES = ['Tournament', 'Team', 'Limited Edition', 'Trading Set', 'Vintage', 'Accessories'] as const;
/** The most of one listing a cart line may hold. */
export const MAX_CART_QUANTITY = 99;
/** The reasons a buyer may give for cancelling an order. */
export const CANCEL_REASONS = ['Changed my mind', 'Ordered by mistake', 'Found it elsewhere', 'Other'] as const;
/** The vendor's order filters: the active orders, then each status. */
export const VENDOR_ORDER_FILTERS = ['active', ...ORDER_STATUSES] as const;
