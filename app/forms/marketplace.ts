/**
 * Marketplace forms and list queries (browser-safe): the vendor application and the vendor pin of
 * spec §5 with their messages verbatim, the cart, checkout and order forms, and the URL state of
 * /marketplace and the vendor's order list.
 */
import { z } from 'zod';
import { listQuerySchema } from '~/utils/list-query';
import { MAX_PIN_PHOTOS, ORDER_STATUSES } from '~/utils/constants';
import { CANCEL_REASONS, LISTING_CATEGORIES, MAX_CART_QUANTITY, VENDOR_ORDER_FILTERS } from '~/utils/marketplace';
import { parsePriceToCents, PRICE_FORMAT_MESSAGE, PRICE_TOO_HIGH_MESSAGE } from '~/utils/money';

export { CANCEL_REASONS, MAX_CART_QUANTITY, MAX_PIN_PHOTOS };
export const MAX_LISTING_STOCK = 100_000;
export const MARKETPLACE_PAGE_SIZE = 12;
export const CATEGORIES = LISTING_CATEGORIES;

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);
const blankToUndefined = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : trimmed(v));

const requiredText = (message: string, max: number, tooLong: string) =>
  z.preprocess(trimmed, z.string({ required_error: message, invalid_type_error: message }).min(1, message).max(max, tooLong));
const optionalText = (max: number, label: string) =>
  z.preprocess(blankToUndefined, z.string({ invalid_type_error: `${label} must be text` }).max(max, `${label} is too long`).optional());

// ---------------------------------------------------------------- vendor application (spec §5)

export const vendorApplicationSchema = z.object({
  businessName: requiredText('Business name is required', 120, 'Business name is too long'),
  contactEmail: z.preprocess(
    trimmed,
    z.string({ required_error: 'Valid email is required', invalid_type_error: 'Valid email is required' }).email('Valid email is required').max(254, 'Valid email is required'),
  ),
  description: optionalText(2000, 'Description'),
});
export type VendorApplicationInput = z.infer<typeof vendorApplicationSchema>;

// ---------------------------------------------------------------- vendor pin (spec §5)

/** Cents from the price field: required, at most 2 decimals, at most 10 digits. */
export const priceField = z.any().transform((value, ctx) => {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    ctx.addIssue({ code: 'custom', message: 'Price is required' });
    return z.NEVER;
  }
  const cents = parsePriceToCents(value);
  if (cents === 'too-high') {
    ctx.addIssue({ code: 'custom', message: PRICE_TOO_HIGH_MESSAGE });
    return z.NEVER;
  }
  if (cents === null) {
    ctx.addIssue({ code: 'custom', message: PRICE_FORMAT_MESSAGE });
    return z.NEVER;
  }
  return cents;
});

const STOCK_MESSAGE = `Stock quantity must be a whole number from 0 to ${MAX_LISTING_STOCK.toLocaleString('en-US')}`;
export const stockField = z.any().transform((value, ctx) => {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    ctx.addIssue({ code: 'custom', message: 'Stock quantity is required' });
    return z.NEVER;
  }
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,6}$/.test(text) || Number(text) > MAX_LISTING_STOCK) {
    ctx.addIssue({ code: 'custom', message: STOCK_MESSAGE });
    return z.NEVER;
  }
  return Number(text);
});

/** A catalogue pin named by its id or by the link of its page ('https://…/pins/<id>'). */
function pinIdFromLink(v: unknown) {
  const t = blankToUndefined(v);
  if (typeof t !== 'string') return t;
  const m = /\/pins\/([A-Za-z0-9_-]+)/.exec(t);
  return m ? m[1] : t;
}

const booleanish = z.preprocess((v) => (v === 'on' || v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === 'off' ? false : v), z.boolean());

export const listingSchema = z.object({
  name: requiredText('Pin name is required', 200, 'Pin name is too long'),
  description: optionalText(2000, 'Description'),
  price: priceField,
  stockQuantity: stockField,
  category: z.preprocess(blankToUndefined, z.enum(CATEGORIES, { errorMap: () => ({ message: 'Choose a category from the list' }) }).optional()),
  /** the catalogue pin this listing sells (optional) */
  pinId: z.preprocess(pinIdFromLink, z.string().max(64, 'Choose a pin from the catalogue').optional()),
  isActive: booleanish.optional(),
});
export type ListingInput = z.infer<typeof listingSchema>;
/** An edit sends only what changes. */
export const listingUpdateSchema = listingSchema.partial().extend({
  /** image ids of the listing to keep (the others are removed) */
  keepImages: z.array(z.string().max(64)).max(MAX_PIN_PHOTOS).optional(),
});

// ---------------------------------------------------------------- cart, checkout, orders

export const QUANTITY_MESSAGE = `Quantity must be a whole number from 1 to ${MAX_CART_QUANTITY}`;
export const quantityField = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number({ required_error: QUANTITY_MESSAGE, invalid_type_error: QUANTITY_MESSAGE }).int(QUANTITY_MESSAGE).min(1, QUANTITY_MESSAGE).max(MAX_CART_QUANTITY, QUANTITY_MESSAGE),
);
export const addToCartSchema = z.object({
  marketplacePinId: z.preprocess(trimmed, z.string({ required_error: 'Choose a pin to add' }).min(1, 'Choose a pin to add').max(64, 'Choose a pin to add')),
  quantity: quantityField.optional().default(1),
});
export const setQuantitySchema = z.object({ quantity: quantityField });

export const checkoutSchema = z.object({
  /** what the buyer was shown: 'listingId:quantity:priceCents' lines; a change since refuses the checkout */
  expected: z.preprocess(blankToUndefined, z.string().max(20_000).optional()),
  note: optionalText(500, 'Note'),
});

export const CANCEL_REASON_REQUIRED = 'Please give a reason for cancelling';
export const cancelSchema = z.object({ reason: requiredText(CANCEL_REASON_REQUIRED, 500, 'The reason is too long') });
export const statusMoveSchema = z.object({
  status: z.enum(ORDER_STATUSES, { errorMap: () => ({ message: 'Choose a valid status' }) }),
  reason: optionalText(500, 'Reason'),
});

// ---------------------------------------------------------------- list queries

export const marketplaceQuerySchema = listQuerySchema({
  filters: { category: CATEGORIES, vendorId: 'id', pinId: 'id' },
  sorts: ['newest', 'price_asc', 'price_desc', 'name'],
  sizes: [MARKETPLACE_PAGE_SIZE, 24, 48],
});
export const vendorOrdersQuerySchema = listQuerySchema({ filters: { status: VENDOR_ORDER_FILTERS }, sizes: [20] });
export const myPinsQuerySchema = listQuerySchema({ sizes: [20] });
