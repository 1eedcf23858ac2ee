/**
 * Trade forms (browser-safe): the proposal form of /trades/new (also a counter-offer) and the
 * POST /api/trades body. Pins are lists of pin ids: `give` from the proposer's trading list,
 * `receive` from the other collector's.
 */
import { z } from 'zod';
import { TRADE_EXPIRY_DAYS, TRADE_NOTE_MAX } from '~/utils/trades';

export { TRADE_EXPIRY_DAYS, TRADE_NOTE_MAX };
export const TRADE_PINS_MAX = 20;

/** A checkbox group posts nothing, one value or many: always a list of distinct non-empty ids. */
const pinList = (empty: string) =>
  z.preprocess(
    (v) => (v == null || v === '' ? [] : Array.isArray(v) ? v : [v]),
    z
      .array(z.string().trim().min(1).max(64), { invalid_type_error: empty })
      .min(1, empty)
      .max(TRADE_PINS_MAX, `Choose at most ${TRADE_PINS_MAX} pins on each side`)
      .transform((ids) => [...new Set(ids)]),
  );

export const proposeTradeSchema = z.object({
  recipientId: z.string({ required_error: 'Choose a collector to trade with' }).trim().min(1, 'Choose a collector to trade with'),
  give: pinList('Choose at least one of your pins to give'),
  receive: pinList('Choose at least one of their pins to receive'),
  note: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
    z.string().max(TRADE_NOTE_MAX, `Note must be at most ${TRADE_NOTE_MAX} characters`).optional(),
  ),
  /** set on a counter-offer: the proposal it answers */
  counterTo: z.string().trim().min(1).optional(),
});
export type ProposeTradeInput = z.infer<typeof proposeTradeSchema>;

/** A partner's rating after a completed trade. */
export const rateTradeSchema = z.object({
  score: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ required_error: 'Choose a rating from 1 to 5', invalid_type_error: 'Choose a rating from 1 to 5' }).int('Choose a rating from 1 to 5').min(1, 'Choose a rating from 1 to 5').max(5, 'Choose a rating from 1 to 5'),
  ),
  comment: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
    z.string().max(300, 'Comment must be at most 300 characters').optional(),
  ),
});
