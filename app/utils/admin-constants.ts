/**
 * The admin pages' constants that their components need in the browser: search delays, the photo
 * limit's message and the vendor statuses' labels. They live here, not in
 * ~/forms/admin (which re-exports them), so that a page showing them does not load zod.
 */
import { MAX_PIN_PHOTOS, type VendorStatus } from './constants';

/** Spec §9: admin users 20 a page, admin teams 50 a page. */
export const ADMIN_USERS_PAGE_SIZE = 20;
export const ADMIN_TEAMS_PAGE_SIZE = 50;
export const ADMIN_PINS_PAGE_SIZE = 20;
export const AUDIT_PAGE_SIZE = 50;
export const USERS_SEARCH_DEBOUNCE_MS = 300;
export const TEAMS_SEARCH_DEBOUNCE_MS = 500;
/**
 * The other admin lists (pins, organizations). Every admin table page reads a constant from this
 * module, so that in the browser it shares the data table's file instead of making one of its own.
 */
export const SEARCH_DEBOUNCE_MS = 300;

export const PHOTO_LIMIT_TITLE = 'Photo Limit Reached';
export const PHOTO_LIMIT_MESSAGE = `You can add up to ${MAX_PIN_PHOTOS} photos per pin.`;

/**
 * The statuses' labels for pages (browser-safe). The same words as VENDOR_STATUS_LABELS of
 * vendor-review.server.ts, which a page's component cannot import (server modules are left out of
 * the browser bundle).
 */
export const VENDOR_STATUS_NAMES: Record<VendorStatus, string> = {
  pending: 'Pending',
  under_review: 'Under Review',
  approved: 'Approved',
  rejected: 'Rejected',
  needs_revision: 'Needs Revision',
};
