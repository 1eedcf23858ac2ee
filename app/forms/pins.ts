/**
 * Pin forms (browser-safe: no server imports). One schema per form, shared by conform on the
 * client and by the services on the server, with the specification's messages verbatim.
 * Numbers arrive as strings from forms and as numbers from JSON: `optionalInt` accepts both.
 */
import { z } from 'zod';
import { currentYear, MIN_PIN_YEAR, RARITIES } from '~/utils/constants';
import { listQuerySchema } from '~/utils/list-query';

import { BROWSE_SORTS, PIN_PAGE_SIZE } from './browse';

export { BROWSE_SORT_LABELS, BROWSE_SORTS, PIN_PAGE_SIZE, type BrowseSort } from './browse';

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const toNumber = (v: unknown) => {
  const e = emptyToUndefined(v);
  if (typeof e === 'string') return Number(e.trim());
  return e;
};

export { currentYear };
export const yearMessage = () => `Year must be between ${MIN_PIN_YEAR} and ${currentYear()}`;

/** An optional year between 1900 and the current year (empty allowed). */
export const yearField = z.preprocess(
  toNumber,
  z
    .number({ invalid_type_error: 'Year must be a number' })
    .int('Year must be a whole number')
    // the current year is read at validation time, not when the module loads
    .refine((y) => y >= MIN_PIN_YEAR && y <= currentYear(), { message: yearMessage() })
    .optional(),
);

const optionalText = (max: number, label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : emptyToUndefined(v)),
    z.string({ invalid_type_error: `${label} must be text` }).max(max, `${label} is too long`).optional(),
  );

const quantity = (requiredMessage: string) =>
  z.preprocess(
    toNumber,
    z
      .number({ invalid_type_error: requiredMessage, required_error: requiredMessage })
      .int(requiredMessage)
      .min(1, requiredMessage)
      .max(10_000_000, 'Quantity is too large'),
  );

const requiredName = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ required_error: message, invalid_type_error: message }).min(1, message).max(200, 'Name is too long'),
  );

/** Pin edit (pin detail page and PUT /api/pins/{id}): spec §5 'Pin edit'. */
export const pinEditSchema = z.object({
  name: requiredName('Name is required'),
  description: optionalText(5000, 'Description'),
  totalQuantity: quantity('Quantity must be at least 1'),
  year: yearField,
  event: optionalText(200, 'Event'),
});
export type PinEditInput = z.infer<typeof pinEditSchema>;

/**
 * New pin (identify page, no match found): spec §5 'New pin'. Description and organization are
 * required here; other doors (admin, team pins) use the service's own, looser rules.
 */
export const newPinSchema = z.object({
  name: requiredName('Pin name is required'),
  description: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ required_error: 'Description is required' }).min(1, 'Description is required').max(5000, 'Description is too long'),
  ),
  organizationName: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ required_error: 'Organization is required' }).min(1, 'Organization is required').max(120, 'Organization name is too long'),
  ),
  totalQuantity: z.preprocess((v) => (emptyToUndefined(v) === undefined ? 100 : v), quantity('Total quantity must be at least 1')),
  year: yearField,
  event: optionalText(200, 'Event'),
  teamId: optionalText(64, 'Team'),
  primaryPhotoIndex: z.preprocess(toNumber, z.number().int().min(0).max(4).optional()),
});
export type NewPinInput = z.infer<typeof newPinSchema>;

/**
 * The browse list as it lives in the URL (GET form): search, rarity, organization, year and sort, and the page
 * 'Load More' has reached. Odd values fall back to no filter and page 1 (`all_rarities`, the
 * select's first option, is no filter).
 */
export const browseQuerySchema = listQuerySchema({
  filters: { rarity: RARITIES, organizationId: 'id', year: 'year' },
  sorts: BROWSE_SORTS,
  defaultDir: 'desc',
  sortDirs: { name: 'asc', year: 'desc', value: 'desc', rarity: 'desc' },
  sizes: [PIN_PAGE_SIZE],
  maxSearch: 200,
  maxPage: 1000,
});
