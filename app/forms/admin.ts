/**
 * The admin area's forms and list states (browser-safe: no server imports). Messages are the
 * specification's, verbatim (spec §5: admin pin form, organization form, admin team create, edit,
 * transfer, role change).
 */
import { z } from 'zod';
import { MAX_PIN_PHOTOS, MIN_PIN_YEAR, RARITIES, ROLES, VENDOR_STATUSES } from '~/utils/constants';
import { ADMIN_PINS_PAGE_SIZE, ADMIN_TEAMS_PAGE_SIZE, ADMIN_USERS_PAGE_SIZE, AUDIT_PAGE_SIZE } from '~/utils/admin-constants';
import { listQuerySchema } from '~/utils/list-query';
import { yearField } from './pins';
import { TEAM_NAME_MAX } from './teams';

export { MAX_PIN_PHOTOS, MIN_PIN_YEAR };

export {
  ADMIN_PINS_PAGE_SIZE,
  ADMIN_TEAMS_PAGE_SIZE,
  ADMIN_USERS_PAGE_SIZE,
  AUDIT_PAGE_SIZE,
  PHOTO_LIMIT_MESSAGE,
  PHOTO_LIMIT_TITLE,
  TEAMS_SEARCH_DEBOUNCE_MS,
  USERS_SEARCH_DEBOUNCE_MS,
  VENDOR_STATUS_NAMES,
} from '~/utils/admin-constants';

// ---------------------------------------------------------------- list states (the URL)

/** The target types the audit log is filtered by. */
export const AUDIT_TARGET_TYPES = ['user', 'pin', 'organization', 'team', 'vendor'] as const;

/** The actions the audit log is filtered by (what the services write); the page gets both lists from its loader. */
export const AUDIT_ACTIONS = [
  'user.role_change',
  'pin.create',
  'pin.update',
  'pin.delete',
  'pin.feature',
  'organization.create',
  'organization.update',
  'organization.delete',
  'team.create',
  'team.update',
  'team.transfer',
  'team.delete',
  'team.logo',
  'team.player_add',
  'team.player_update',
  'team.player_remove',
  'team.staff_add',
  'vendor.apply',
  'vendor.status_change',
  'vendor.approve',
] as const;


export const adminUsersQuery = listQuerySchema({
  filters: { role: ROLES },
  sorts: ['createdAt', 'name', 'email', 'role'],
  defaultSort: 'createdAt',
  defaultDir: 'desc',
  sizes: [ADMIN_USERS_PAGE_SIZE],
});

export const adminPinsQuery = listQuerySchema({
  filters: { organizationId: 'id', rarity: RARITIES, featured: ['yes', 'no'] },
  sorts: ['createdAt', 'name', 'value'],
  defaultSort: 'createdAt',
  defaultDir: 'desc',
  sizes: [ADMIN_PINS_PAGE_SIZE],
});

export const adminOrganizationsQuery = listQuerySchema({
  sorts: ['name', 'createdAt'],
  defaultSort: 'name',
  sizes: [ADMIN_PINS_PAGE_SIZE],
});

export const adminTeamsQuery = listQuerySchema({
  sorts: ['createdAt', 'name'],
  defaultSort: 'createdAt',
  defaultDir: 'desc',
  sizes: [ADMIN_TEAMS_PAGE_SIZE],
});

export const adminVendorsQuery = listQuerySchema({
  filters: { status: VENDOR_STATUSES },
  sizes: [ADMIN_USERS_PAGE_SIZE],
});

/** A review: the new status, notes, and the reason a rejection needs (the service says so too). */
export const vendorReviewFormSchema = z
  .object({
    id: z.string().min(1).max(64),
    status: z.enum(VENDOR_STATUSES, { errorMap: () => ({ message: 'Choose a valid status' }) }),
    notes: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().max(2000, 'Notes must be at most 2000 characters').optional()),
    rejectionReason: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().max(2000, 'The reason must be at most 2000 characters').optional()),
  })
  .superRefine((v, ctx) => {
    if (v.status === 'rejected' && !v.rejectionReason) ctx.addIssue({ code: 'custom', path: ['rejectionReason'], message: 'A reason is required to reject an application' });
  });

export const auditLogQuery = listQuerySchema({
  // from and to are days (YYYY-MM-DD): the id pattern accepts them, the service checks them
  filters: { actor: 'id', action: AUDIT_ACTIONS, targetType: AUDIT_TARGET_TYPES, from: 'id', to: 'id' },
  sizes: [AUDIT_PAGE_SIZE],
  maxPage: 100_000,
});

// ---------------------------------------------------------------- helpers

const trim = (v: unknown) => (typeof v === 'string' ? v.trim() : v);
const blankToUndefined = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : trim(v));
const optionalText = (max: number, label: string) =>
  z.preprocess(blankToUndefined, z.string({ invalid_type_error: `${label} must be text` }).max(max, `${label} is too long`).optional());
const idField = (message: string) =>
  z.preprocess(blankToUndefined, z.string({ required_error: message, invalid_type_error: message }).min(1, message).max(64, message));

// ---------------------------------------------------------------- users

export const ROLE_REQUIRED = 'Choose a role';
export const SAME_ROLE = 'Choose a role other than the current one';

/** Role change: a role, different from the current one (the confirm is disabled otherwise). */
export const roleChangeSchema = z
  .object({
    userId: idField('User is required'),
    currentRole: z.enum(ROLES).optional(),
    role: z.preprocess(blankToUndefined, z.enum(ROLES, { errorMap: () => ({ message: ROLE_REQUIRED }) })),
  })
  .refine((v) => v.role !== v.currentRole, { message: SAME_ROLE, path: ['role'] });

// ---------------------------------------------------------------- pins

const toNumber = (v: unknown) => {
  const e = blankToUndefined(v);
  return typeof e === 'string' ? Number(e) : e;
};

/** Admin pin form (spec §5): the fields; photos are read by the action beside it. */
export const adminPinSchema = z.object({
  name: z.preprocess(trim, z.string({ required_error: 'Name is required' }).min(1, 'Name is required').max(200, 'Name is too long')),
  organizationId: idField('Organization is required'),
  description: optionalText(5000, 'Description'),
  teamId: optionalText(64, 'Team'),
  totalQuantity: z.preprocess(
    toNumber,
    z
      .number({ required_error: 'Total quantity must be at least 1', invalid_type_error: 'Total quantity must be at least 1' })
      .int('Total quantity must be at least 1')
      .min(1, 'Total quantity must be at least 1')
      .max(10_000_000, 'Quantity is too large'),
  ),
  year: yearField,
  event: optionalText(200, 'Event'),
  distributionDate: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Distribution date must be a date (YYYY-MM-DD)')
      .refine((d) => !Number.isNaN(Date.parse(d)), 'Distribution date must be a date (YYYY-MM-DD)')
      .optional(),
  ),
  estimatedValue: z.preprocess(
    toNumber,
    z.number({ invalid_type_error: 'Estimated value must be a number' }).min(0, 'Estimated value cannot be negative').max(99_999_999, 'Estimated value is too large').optional(),
  ),
  isFeatured: z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean()),
  /** kept photos ('/images/{id}'), in order */
  keep: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.string().max(200)).max(MAX_PIN_PHOTOS)),
  /** the primary photo: a kept photo's ref, or 'new-<n>' for the n-th new upload */
  primary: optionalText(200, 'Primary photo'),
});
export type AdminPinInput = z.infer<typeof adminPinSchema>;

/**
 * The final photo list and primary index: the photos kept, then the new uploads that still fit
 * (at most 5 in all; the rest are ignored). When the primary photo was removed, the primary moves
 * back to the photo before it (spec §4).
 */
export function arrangePhotos<U>(
  previous: string[],
  keep: string[],
  uploads: U[],
  primary: string | undefined,
  previousPrimary = 0,
): { photos: (string | U)[]; primaryPhotoIndex: number; ignored: number } {
  const kept = previous.filter((p) => keep.includes(p));
  const free = Math.max(0, MAX_PIN_PHOTOS - kept.length);
  const added = uploads.slice(0, free);
  const photos: (string | U)[] = [...kept, ...added];
  let index: number;
  if (primary && primary.startsWith('new-')) {
    const n = Number(primary.slice(4));
    index = Number.isInteger(n) && n >= 0 && n < added.length ? kept.length + n : 0;
  } else if (primary && kept.includes(primary)) {
    index = kept.indexOf(primary);
  } else {
    // the primary was removed (or none chosen): the photo before the old primary, among those kept
    const old = previous[previousPrimary];
    if (old && kept.includes(old)) index = kept.indexOf(old);
    else {
      const before = previous.slice(0, Math.max(0, previousPrimary)).filter((p) => kept.includes(p));
      index = before.length ? kept.indexOf(before[before.length - 1]) : 0;
    }
  }
  return { photos, primaryPhotoIndex: photos.length ? Math.min(index, photos.length - 1) : 0, ignored: uploads.length - added.length };
}

// ---------------------------------------------------------------- organizations

export const organizationFormSchema = z.object({
  name: z.preprocess(trim, z.string({ required_error: 'Name is required', invalid_type_error: 'Name is required' }).min(1, 'Name is required').max(120, 'Name is too long')),
  description: optionalText(2000, 'Description'),
});

// ---------------------------------------------------------------- teams

const teamName = z.preprocess(
  trim,
  z.string({ required_error: 'Name is required', invalid_type_error: 'Name is required' }).min(1, 'Name is required').max(TEAM_NAME_MAX, 'Name too long'),
);

/** Admin team create (spec §5): name, description, location, manager. */
export const adminTeamCreateSchema = z.object({
  name: teamName,
  description: optionalText(2000, 'Description'),
  location: optionalText(200, 'Location'),
  managerId: idField('Manager is required'),
});
export type AdminTeamCreateInput = z.infer<typeof adminTeamCreateSchema>;

/** Team edit: the same rules, all optional ('' clears description and location). */
export const adminTeamEditSchema = z.object({
  name: teamName.optional(),
  description: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : trim(v)), z.string().max(2000, 'Description is too long').nullish()),
  location: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : trim(v)), z.string().max(200, 'Location is too long').nullish()),
  managerId: z.preprocess(blankToUndefined, z.string().min(1).max(64, 'Manager is required').optional()),
});
export type AdminTeamEditInput = z.infer<typeof adminTeamEditSchema>;

export const transferTeamSchema = z.object({
  newManagerId: idField('New manager is required'),
});

export { RARITIES };
