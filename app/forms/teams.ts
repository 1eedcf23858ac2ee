/**
 * Team forms (browser-safe: no server imports). One schema per form, used by conform on the
 * client and by the teams service on the server, with the specification's messages verbatim
 * (spec §5: create team, add player, add coach, create team pin).
 *
 * Each form's fields without `teamId` are what the service reads (the /api calls name the team in
 * the path); the forms of /teams add the team chooser (`teamId`, 'Team is required').
 */
import { z } from 'zod';
import { MAX_PIN_PHOTOS, STAFF_ROLES } from '~/utils/constants';
import { POSITIONS, PINS_PER_PLAYER, type Position } from '~/utils/teams';
import { yearField } from './pins';

export { MAX_PIN_PHOTOS };

export { POSITIONS, PINS_PER_PLAYER, type Position };

export const TEAM_NAME_MAX = 100;
export const PLAYER_NAME_MAX = 100;
export const JERSEY_MESSAGE = 'Jersey number must be a whole number from 0 to 999';
export const POSITION_MESSAGE = 'Choose a position from the list';

const blankToUndefined = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : typeof v === 'string' ? v.trim() : v);
/** '' and null mean "cleared" (null); absent stays absent (unchanged, for an update). */
const blankToNull = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? null : typeof v === 'string' ? v.trim() : v);

const requiredText = (message: string, max: number, tooLong = 'Name too long') =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ required_error: message, invalid_type_error: message }).min(1, message).max(max, tooLong),
  );

const optionalText = (max: number, label: string) =>
  z.preprocess(blankToUndefined, z.string({ invalid_type_error: `${label} must be text` }).max(max, `${label} is too long`).optional());

const teamIdField = z.preprocess(
  blankToUndefined,
  z.string({ required_error: 'Team is required', invalid_type_error: 'Team is required' }).min(1, 'Team is required').max(64, 'Team is required'),
);

/** A jersey number as players wear it: one to three digits ('00' and '0' are different shirts). */
const jersey = z
  .union([z.string(), z.number()], { invalid_type_error: JERSEY_MESSAGE })
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,3}$/.test(v), JERSEY_MESSAGE);
const position = z.enum(POSITIONS, { errorMap: () => ({ message: POSITION_MESSAGE }) });

// ---------------------------------------------------------------- create team

/** Create team (team management): the team schema limited to name, description and location. */
export const createTeamSchema = z.object({
  name: requiredText('Name is required', TEAM_NAME_MAX),
  description: optionalText(1000, 'Description'),
  location: optionalText(200, 'Location'),
});
export type CreateTeamInput = z.input<typeof createTeamSchema>;

// ---------------------------------------------------------------- players

export const playerFields = z.object({
  playerName: requiredText('Player name is required', PLAYER_NAME_MAX, 'Player name is too long'),
  position: z.preprocess(blankToUndefined, position.optional()),
  jerseyNumber: z.preprocess(blankToUndefined, jersey.optional()),
});
export type AddPlayerInput = z.input<typeof playerFields>;

/** Players tab: add player (with the team chooser). */
export const addPlayerSchema = playerFields.extend({ teamId: teamIdField });

const toBool = (v: unknown) => {
  if (v === 'true' || v === 'on' || v === '1' || v === 1) return true;
  if (v === 'false' || v === 'off' || v === '0' || v === 0) return false;
  return v;
};

/**
 * Edit Player Details: position and jersey number may each be cleared ('' or null), and the
 * active flag set. A field left out of a JSON body is left as it is.
 */
export const updatePlayerSchema = z.object({
  position: z.preprocess(blankToNull, position.nullable().optional()),
  jerseyNumber: z.preprocess(blankToNull, jersey.nullable().optional()),
  isActive: z.preprocess(toBool, z.boolean({ invalid_type_error: 'Active must be true or false' }).optional()),
});
export type UpdatePlayerInput = z.input<typeof updatePlayerSchema>;

/**
 * The edit form posts every field: an unticked checkbox sends nothing, which here means inactive
 * (conform and the action read the form through this schema).
 */
export const editPlayerFormSchema = z.object({
  rosterId: z.string({ required_error: 'Player not found' }).min(1, 'Player not found').max(64, 'Player not found'),
  position: z.preprocess(blankToUndefined, position.optional()),
  jerseyNumber: z.preprocess(blankToUndefined, jersey.optional()),
  isActive: z.preprocess(toBool, z.boolean().default(false)),
});

// ---------------------------------------------------------------- staff

export const staffFields = z.object({
  /** the e-mail or display name of an existing PinDex account */
  userName: requiredText('Name is required', 200, 'Name too long'),
  role: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 'assistant_coach' : v),
    z.enum(STAFF_ROLES, { errorMap: () => ({ message: 'Role must be manager or assistant_coach' }) }),
  ),
});
export type AddStaffInput = z.input<typeof staffFields>;

/** Coaches tab: add assistant coach (with the team chooser). */
export const addStaffSchema = staffFields.extend({ teamId: teamIdField });

// ---------------------------------------------------------------- team pins

const quantity = z.preprocess(
  (v) => {
    const b = blankToUndefined(v);
    return typeof b === 'string' ? Number(b) : b;
  },
  z
    .number({ required_error: 'Quantity must be at least 1', invalid_type_error: 'Quantity must be at least 1' })
    .int('Quantity must be at least 1')
    .min(1, 'Quantity must be at least 1')
    .max(10_000_000, 'Quantity is too large'),
);

export const teamPinFields = z.object({
  name: requiredText('Pin name is required', 200, 'Name is too long'),
  description: optionalText(5000, 'Description'),
  totalQuantity: quantity,
  year: yearField,
  event: optionalText(200, 'Event'),
});
export type TeamPinInput = z.input<typeof teamPinFields>;

/** Pin Inventory tab: create team pin (with the team chooser; the images are files beside it). */
export const createTeamPinSchema = teamPinFields.extend({ teamId: teamIdField });

// ---------------------------------------------------------------- team pin orders

export const MAX_PIN_ORDER = 1_000_000;
export const ORDER_QUANTITY_MESSAGE = 'Quantity must be at least 1';

const orderQuantityField = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : v),
  z
    .number({ required_error: ORDER_QUANTITY_MESSAGE, invalid_type_error: ORDER_QUANTITY_MESSAGE })
    .int(ORDER_QUANTITY_MESSAGE)
    .min(1, ORDER_QUANTITY_MESSAGE)
    .max(MAX_PIN_ORDER, `An order is at most ${MAX_PIN_ORDER.toLocaleString('en-US')} pins`),
);
const shareField = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? 0 : Number(v.trim())) : v),
  z.number({ invalid_type_error: 'A share must be a whole number' }).int('A share must be a whole number').min(0, 'A share cannot be negative').max(MAX_PIN_ORDER, 'A share is too large'),
);

/** The body of PUT /api/teams/{teamId}/pins/{pinId}/order (and the order form). */
export const pinOrderSchema = z.object({
  quantity: orderQuantityField,
  /** rosterId -> pins; left out (or null) for an even split */
  shares: z.record(z.string().max(64), shareField).nullable().optional(),
});
export type PinOrderInput = z.input<typeof pinOrderSchema>;


/** The order form of a team pin: an even split, or each player's share (`shares.<rosterId>`). */
export const pinOrderFormSchema = z.object({
  quantity: orderQuantityField,
  split: z.enum(['even', 'custom']).default('even'),
  shares: z.record(z.string().max(64), shareField).optional(),
});
