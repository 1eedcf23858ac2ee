/**
 * Organizations (leagues, tournaments, clubs that issue pins). Names are unique without regard to
 * case (a unique index on lower(name)); creating a pin with a new organization name creates it.
 */
import { asc, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { assertCanCreateOrganization, assertCanManageOrganizations, type Actor } from '~/auth/permissions';
import { cachedUntilWrite, db, transaction, type Db } from '~/db/index.server';
import { organizations, pins, type Organization } from '~/db/schema';
import { parseWith } from '~/utils/validation';
import { changes, recordAudit } from './audit.server';
import { Conflict, NotFound } from './errors';

export interface OrganizationDto {
  id: string;
  name: string;
  description: string | null;
  createdAt: string;
}


export const organizationSchema = z.object({
  name: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ required_error: 'Name is required', invalid_type_error: 'Name is required' }).min(1, 'Name is required').max(120, 'Name is too long'),
  ),
  description: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string({ invalid_type_error: 'Description must be text' }).max(2000, 'Description is too long').nullish(),
  ),
});

export function toOrganizationDto(row: Organization): OrganizationDto {
  return { id: row.id, name: row.name, description: row.description, createdAt: row.createdAt.toISOString() };
}

/** All organizations by name (the picker and GET /api/organizations). */
export async function listOrganizations(): Promise<OrganizationDto[]> {
  return (await allOrganizations()).map((o) => ({ ...o }));
}
// browse's filter reads it on every page: kept until the database is written to
const allOrganizations = cachedUntilWrite(async () => {
  const rows = await db().select().from(organizations).orderBy(asc(sql`lower(${organizations.name})`), asc(organizations.id));
  return rows.map(toOrganizationDto);
});

export async function getOrganization(id: string): Promise<OrganizationDto> {
  const row = await db().select().from(organizations).where(eq(organizations.id, id)).get();
  if (!row) throw new NotFound('Organization not found');
  return toOrganizationDto(row);
}

export async function findOrganizationByName(tx: Db, name: string): Promise<Organization | undefined> {
  return tx
    .select()
    .from(organizations)
    .where(sql`lower(${organizations.name}) = lower(${name.trim()})`)
    .get();
}

/** Inside a transaction: the organization of that name (any case), created when new. */
export async function findOrCreateOrganization(tx: Db, name: string, description: string | null = null): Promise<Organization> {
  const existing = await findOrganizationByName(tx, name);
  if (existing) return existing;
  try {
    const [row] = await tx.insert(organizations).values({ name: name.trim(), description }).returning();
    return row;
  } catch (error) {
    // another request created it in between (the unique index on lower(name) said so): use that one
    const raced = isUniqueViolation(error) ? await findOrganizationByName(tx, name) : undefined;
    if (raced) return raced;
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String((error as { code?: unknown }).code ?? '')} ${String(error.cause ?? '')}` : '';
  return /UNIQUE constraint failed|SQLITE_CONSTRAINT/i.test(text);
}

export async function createOrganization(actor: Actor | null, input: unknown): Promise<OrganizationDto> {
  assertCanCreateOrganization(actor);
  const data = parseWith(organizationSchema, input);
  return transaction(async (tx) => {
    if (await findOrganizationByName(tx, data.name)) {
      throw new Conflict('An organization with this name already exists', { name: ['An organization with this name already exists'] });
    }
    try {
      const [row] = await tx.insert(organizations).values({ name: data.name, description: data.description ?? null }).returning();
      await recordAudit(tx, { actor, action: 'organization.create', targetType: 'organization', targetId: row.id, details: { after: { name: row.name, description: row.description } } });
      return toOrganizationDto(row);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new Conflict('An organization with this name already exists', { name: ['An organization with this name already exists'] });
      }
      throw error;
    }
  });
}

export async function updateOrganization(actor: Actor | null, id: string, input: unknown): Promise<OrganizationDto> {
  assertCanManageOrganizations(actor);
  const data = parseWith(organizationSchema, input);
  return transaction(async (tx) => {
    const current = await tx.select().from(organizations).where(eq(organizations.id, id)).get();
    if (!current) throw new NotFound('Organization not found');
    const clash = await findOrganizationByName(tx, data.name);
    if (clash && clash.id !== id) {
      throw new Conflict('An organization with this name already exists', { name: ['An organization with this name already exists'] });
    }
    const [row] = await tx
      .update(organizations)
      .set({ name: data.name, description: data.description ?? null })
      .where(eq(organizations.id, id))
      .returning();
    const changed = changes(current, { name: row.name, description: row.description });
    if (changed) await recordAudit(tx, { actor, action: 'organization.update', targetType: 'organization', targetId: id, details: changed });
    return toOrganizationDto(row);
  });
}

export async function deleteOrganization(actor: Actor | null, id: string): Promise<void> {
  assertCanManageOrganizations(actor);
  await transaction(async (tx) => {
    const current = await tx.select().from(organizations).where(eq(organizations.id, id)).get();
    if (!current) throw new NotFound('Organization not found');
    const [{ n }] = await tx.select({ n: count() }).from(pins).where(eq(pins.organizationId, id));
    if (n > 0) throw new Conflict('You cannot delete an organization that has pins associated with it.');
    await tx.delete(organizations).where(eq(organizations.id, id));
    await recordAudit(tx, {
      actor,
      action: 'organization.delete',
      targetType: 'organization',
      targetId: id,
      details: { before: { name: current.name, description: current.description } },
    });
  });
}
