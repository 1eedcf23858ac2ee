/**
 * The community feed: the latest identifications that matched a pin (home page and
 * GET /api/identifications/recent). Identification writes the rows; this only reads them.
 */
import { desc, eq, getTableColumns, isNotNull, sql } from 'drizzle-orm';
import { prepared } from '~/db/index.server';
import { identifications, organizations, pins, teams } from '~/db/schema';
import { toPinDto, type PinDto } from './pin-dto.server';

export interface RecentIdentification {
  id: string;
  pin: PinDto;
  /** percent, 0-100 */
  confidence: number;
  createdAt: string;
}

// built and prepared once (the home page reads it on every visit)
const recentQuery = prepared((conn) =>
  conn
    .select({
      id: identifications.id,
      confidence: identifications.confidence,
      identifiedAt: identifications.createdAt,
      pin: getTableColumns(pins),
      orgName: organizations.name,
      teamName: teams.name,
    })
    .from(identifications)
    .innerJoin(pins, eq(pins.id, identifications.pinId))
    .innerJoin(organizations, eq(organizations.id, pins.organizationId))
    .leftJoin(teams, eq(teams.id, pins.teamId))
    .where(isNotNull(identifications.pinId))
    .orderBy(desc(identifications.createdAt), desc(identifications.id))
    .limit(sql.placeholder('limit'))
    .prepare(),
);

export async function recentIdentifications(limit: unknown = 6): Promise<RecentIdentification[]> {
  const n = typeof limit === 'string' ? Number(limit) : typeof limit === 'number' ? limit : 6;
  const take = Number.isFinite(n) ? Math.min(50, Math.max(1, Math.floor(n))) : 6;
  const rows = await recentQuery().all({ limit: take });
  return rows.map((r) => ({
    id: r.id,
    confidence: Math.max(0, Math.min(100, Math.round(r.confidence))),
    createdAt: r.identifiedAt.toISOString(),
    pin: toPinDto(
      r.pin,
      { id: r.pin.organizationId, name: r.orgName },
      r.pin.teamId && r.teamName != null ? { id: r.pin.teamId, name: r.teamName } : null,
    ),
  }));
}
