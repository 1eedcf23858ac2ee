/**
 * Admin: the pin table and the organization table of /admin/pins, bulk featuring, and the admin
 * doors into the catalogue. New pins go through `createPin` (the one path that stores and indexes a
 * pin, so it is identifiable at once), changes through `updatePin` and `deletePin`; organizations
 * through organizations.server.ts. Every mutation writes its audit row in its own transaction.
 */
import { and, asc, count, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { assertAdmin, type Actor } from '~/auth/permissions';
import { db, transaction } from '~/db/index.server';
import { organizations, pins, teams, type Pin } from '~/db/schema';
import type { AdminOrganization, AdminOrganizationList, AdminPin, AdminPinList } from '~/types/admin';
import { RARITIES, isOneOf } from '~/utils/constants';
import { recordAudit } from '../audit.server';
import { Invalid } from '../errors';
import { imageUrl } from '../images.server';
import { createPin, getPin, pinSearchCondition, updatePin, type CreatePinInput, type UpdatePinInput } from '../pins.server';
import { likePattern, pageWindow } from './list.server';

export interface AdminPinFilters {
  search?: string | null;
  organizationId?: string | null;
  rarity?: string | null;
  /** 'yes' or 'no' */
  featured?: string | null;
}

export interface AdminPinQuery extends AdminPinFilters {
  sort?: 'createdAt' | 'name' | 'value';
  dir?: 'asc' | 'desc';
  limit?: unknown;
  offset?: unknown;
}

type Row = Pin & { orgName: string | null; teamName: string | null };

/** A pin as the admin table and form show it: images in stored order with the primary index. */
export function toAdminPin(row: Row): AdminPin {
  const primary = row.images[row.primaryPhotoIndex] ?? row.images[0];
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    organizationId: row.organizationId,
    organization: row.orgName,
    teamId: row.teamId,
    team: row.teamName,
    totalQuantity: row.totalQuantity,
    rarity: row.rarity,
    estimatedValue: row.estimatedValueCents == null ? null : row.estimatedValueCents / 100,
    isFeatured: row.isFeatured,
    distributionDate: row.distributionDate,
    year: row.year,
    event: row.event,
    createdAt: row.createdAt.toISOString(),
    images: row.images.map((id) => imageUrl(id)),
    thumbnail: primary ? imageUrl(primary, 'thumb') : null,
    primaryPhotoIndex: row.primaryPhotoIndex,
  };
}

function filterConditions(filters: AdminPinFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.search && filters.search.trim()) {
    // words the search index cannot use (punctuation only) match nothing rather than everything
    conditions.push(pinSearchCondition(filters.search) ?? sql`0`);
  }
  if (filters.organizationId && filters.organizationId.length <= 64) conditions.push(eq(pins.organizationId, filters.organizationId));
  if (isOneOf(RARITIES, filters.rarity)) conditions.push(eq(pins.rarity, filters.rarity));
  if (filters.featured === 'yes') conditions.push(eq(pins.isFeatured, true));
  if (filters.featured === 'no') conditions.push(eq(pins.isFeatured, false));
  return conditions;
}

/** /admin/pins and GET /api/admin/pins: `{ pins, total }`, newest first unless sorted. */
export async function listAdminPins(actor: Actor | null, query: AdminPinQuery = {}): Promise<AdminPinList> {
  assertAdmin(actor);
  const { limit, offset } = pageWindow(query.limit, query.offset, { fallback: 20, max: 200 });
  const conditions = filterConditions(query);
  const where = conditions.length ? and(...conditions) : undefined;
  const dir = query.dir === 'asc' ? asc : desc;
  const order = query.sort === 'name' ? [dir(pins.name)] : query.sort === 'value' ? [dir(sql`coalesce(${pins.estimatedValueCents}, -1)`)] : [dir(pins.createdAt)];
  const [rows, total] = await Promise.all([
    db()
      .select({ ...pinColumns(), orgName: organizations.name, teamName: teams.name })
      .from(pins)
      .leftJoin(organizations, eq(organizations.id, pins.organizationId))
      .leftJoin(teams, eq(teams.id, pins.teamId))
      .where(where)
      .orderBy(...order, desc(pins.id))
      .limit(limit)
      .offset(offset),
    db().select({ n: count() }).from(pins).where(where).get(),
  ]);
  return { pins: rows.map(toAdminPin), total: Number(total?.n ?? 0) };
}

const pinColumns = () => getTableColumns(pins);

/** One pin for the edit form (404 'Pin Not Found'). */
export async function getAdminPin(actor: Actor | null, id: string): Promise<AdminPin> {
  assertAdmin(actor);
  await getPin(id);
  const row = await db()
    .select({ ...pinColumns(), orgName: organizations.name, teamName: teams.name })
    .from(pins)
    .leftJoin(organizations, eq(organizations.id, pins.organizationId))
    .leftJoin(teams, eq(teams.id, pins.teamId))
    .where(eq(pins.id, id))
    .get();
  return toAdminPin(row as Row);
}

export const ORGANIZATION_REQUIRED = 'Organization is required';

/**
 * POST /api/admin/pins and the Add New Pin form: through `createPin` (stored, indexed for
 * identification at once), audited, and not added to the admin's own collection.
 */
export async function createAdminPin(actor: Actor | null, input: CreatePinInput): Promise<AdminPin> {
  assertAdmin(actor);
  if (!input.organizationId || typeof input.organizationId !== 'string') throw new Invalid(ORGANIZATION_REQUIRED, { organizationId: [ORGANIZATION_REQUIRED] });
  const created = await createPin(actor, input, { contributorEntry: false, audit: true });
  return getAdminPin(actor, created.id);
}

/** PATCH /api/admin/pins/{id} and the Edit Pin form: through `updatePin` (audited, re-indexed). */
export async function updateAdminPin(actor: Actor | null, id: string, input: UpdatePinInput | Record<string, unknown>): Promise<AdminPin> {
  assertAdmin(actor);
  await updatePin(actor, id, input);
  return getAdminPin(actor, id);
}

export const BULK_LIMIT = 10_000;

/**
 * PATCH /api/admin/pins/bulk/featured and the bulk Feature / Unfeature buttons: the pins named, or
 * every pin matching `filters` (the table's "all matching"). One audit row per pin that changed.
 */
export async function setPinsFeatured(
  actor: Actor | null,
  target: { pinIds: unknown } | { filters: AdminPinFilters },
  featured: unknown,
): Promise<{ updated: number; pinIds: string[] }> {
  assertAdmin(actor);
  if (typeof featured !== 'boolean') throw new Invalid('featured must be true or false', { featured: ['featured must be true or false'] });
  let where: SQL | undefined;
  if ('pinIds' in target) {
    const ids = target.pinIds;
    if (!Array.isArray(ids) || ids.length === 0 || ids.some((id) => typeof id !== 'string' || id.length > 64)) {
      throw new Invalid('Choose at least one pin', { pinIds: ['Choose at least one pin'] });
    }
    if (ids.length > BULK_LIMIT) throw new Invalid(`At most ${BULK_LIMIT} pins at a time`, { pinIds: [`At most ${BULK_LIMIT} pins at a time`] });
    where = inArray(pins.id, ids as string[]);
  } else {
    const conditions = filterConditions(target.filters);
    where = conditions.length ? and(...conditions) : undefined;
  }
  return transaction(async (tx) => {
    const changed = await tx
      .update(pins)
      .set({ isFeatured: featured })
      .where(and(where, eq(pins.isFeatured, !featured)))
      .returning({ id: pins.id, name: pins.name });
    for (const pin of changed) {
      await recordAudit(tx, {
        actor,
        action: 'pin.feature',
        targetType: 'pin',
        targetId: pin.id,
        details: { name: pin.name, before: { isFeatured: !featured }, after: { isFeatured: featured } },
      });
    }
    return { updated: changed.length, pinIds: changed.map((p) => p.id) };
  });
}

/** The counts on the tabs: Pins (total) and Organizations (total). */
export async function pinTabTotals(actor: Actor | null): Promise<{ pins: number; organizations: number }> {
  assertAdmin(actor);
  const [p, o] = await Promise.all([db().select({ n: count() }).from(pins).get(), db().select({ n: count() }).from(organizations).get()]);
  return { pins: Number(p?.n ?? 0), organizations: Number(o?.n ?? 0) };
}

// ---------------------------------------------------------------- organizations

export interface AdminOrganizationQuery {
  search?: string | null;
  sort?: 'name' | 'createdAt';
  dir?: 'asc' | 'desc';
  limit?: unknown;
  offset?: unknown;
}

// (written out: inside a select, drizzle leaves columns unqualified, which a subquery would misread)
const pinCountSql = sql<number>`(select count(*) from pins p where p.organization_id = "organizations"."id")`;

/** /admin/pins?tab=organizations and GET /api/admin/organizations: `{ organizations, total }`. */
export async function listAdminOrganizations(actor: Actor | null, query: AdminOrganizationQuery = {}): Promise<AdminOrganizationList> {
  assertAdmin(actor);
  const { limit, offset } = pageWindow(query.limit, query.offset, { fallback: 20, max: 1000 });
  const pattern = likePattern(query.search);
  const where = pattern ? sql`(${organizations.name} like ${pattern} escape '\\' or ${organizations.description} like ${pattern} escape '\\')` : undefined;
  const dir = query.dir === 'desc' ? desc : asc;
  const order = query.sort === 'createdAt' ? dir(organizations.createdAt) : dir(sql`lower(${organizations.name})`);
  const [rows, total] = await Promise.all([
    db()
      .select({ id: organizations.id, name: organizations.name, description: organizations.description, createdAt: organizations.createdAt, pinCount: pinCountSql })
      .from(organizations)
      .where(where)
      .orderBy(order, asc(organizations.id))
      .limit(limit)
      .offset(offset),
    db().select({ n: count() }).from(organizations).where(where).get(),
  ]);
  return {
    organizations: rows.map((r): AdminOrganization => ({ id: r.id, name: r.name, description: r.description, createdAt: r.createdAt.toISOString(), pinCount: Number(r.pinCount) })),
    total: Number(total?.n ?? 0),
  };
}

/** The choices of the pin form: every organization and team, by name. */
export async function pinFormChoices(actor: Actor | null): Promise<{ organizations: { id: string; name: string }[]; teams: { id: string; name: string }[] }> {
  assertAdmin(actor);
  const [orgs, teamRows] = await Promise.all([
    db().select({ id: organizations.id, name: organizations.name }).from(organizations).orderBy(asc(sql`lower(${organizations.name})`)),
    db().select({ id: teams.id, name: teams.name }).from(teams).orderBy(asc(sql`lower(${teams.name})`)).limit(2000),
  ]);
  return { organizations: orgs, teams: teamRows };
}
