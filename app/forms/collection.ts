/**
 * Collection forms (browser-safe): the add-to-collection form and a status move.
 * Used by conform on the client and by the actions/services on the server.
 */
import { z } from 'zod';
import { COLLECTION_STATUSES, CONDITIONS, MAX_COLLECTION_NOTES, MAX_COLLECTION_QUANTITY } from '~/utils/constants';

export { MAX_COLLECTION_NOTES, MAX_COLLECTION_QUANTITY };


const statusField = z.enum(COLLECTION_STATUSES, {
  errorMap: () => ({ message: 'Status must be owned, wanted or trading' }),
});
const conditionField = z.enum(CONDITIONS, {
  errorMap: () => ({ message: 'Condition must be mint, excellent, good, fair or poor' }),
});
const quantityField = z
  .number({ required_error: 'Quantity is required', invalid_type_error: 'Quantity must be a whole number' })
  .int('Quantity must be a whole number')
  .min(1, 'Quantity must be at least 1')
  .max(MAX_COLLECTION_QUANTITY, `Quantity must be at most ${MAX_COLLECTION_QUANTITY}`);

/** The add form (conform coerces the strings of a FormData: numbers, checkbox 'on', '' → undefined). */
export const AddToCollectionSchema = z.object({
  pinId: z.string({ required_error: 'Pin is required', invalid_type_error: 'Pin is required' }).trim().min(1, 'Pin is required'),
  status: statusField.default('owned'),
  quantity: quantityField.default(1),
  condition: conditionField.default('excellent'),
  tradeable: z.boolean({ invalid_type_error: 'Tradeable must be true or false' }).default(false),
  notes: z
    .string({ invalid_type_error: 'Notes must be text' })
    .trim()
    .max(MAX_COLLECTION_NOTES, `Notes must be at most ${MAX_COLLECTION_NOTES} characters`)
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type AddToCollectionInput = z.infer<typeof AddToCollectionSchema>;

/** Moving an entry between statuses (the page's move buttons and PUT /api/users/{id}/collection/{pinId}). */
export const MoveCollectionSchema = z.object({
  pinId: z.string({ required_error: 'Pin is required', invalid_type_error: 'Pin is required' }).trim().min(1, 'Pin is required'),
  status: z.enum(COLLECTION_STATUSES, {
    errorMap: (issue, ctx) => ({
      message: issue.code === 'invalid_type' && ctx.data === undefined ? 'Status is required' : 'Status must be owned, wanted or trading',
    }),
  }),
});

/** JSON bodies (the API): accept numbers/booleans as JSON or as strings a form would send. */
const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
export const AddToCollectionApiSchema = AddToCollectionSchema.extend({
  quantity: z.preprocess((v) => {
    const x = emptyToUndefined(v);
    return typeof x === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(x) ? Number(x) : x;
  }, quantityField.default(1)),
  status: z.preprocess(emptyToUndefined, statusField.default('owned')),
  condition: z.preprocess(emptyToUndefined, conditionField.default('excellent')),
  tradeable: z.preprocess((v) => {
    const x = emptyToUndefined(v);
    if (x === 'true' || x === 'on' || x === '1') return true;
    if (x === 'false' || x === 'off' || x === '0') return false;
    return x;
  }, z.boolean({ invalid_type_error: 'Tradeable must be true or false' }).default(false)),
});

export { COLLECTION_MOVES } from '~/utils/constants';
