/**
 * The roster as a spreadsheet: export (name, position, jersey number, active) and import (name,
 * position, jersey number), for managers who keep the roster in a league's sheet.
 *
 * Import rules:
 * - the header row is optional; columns are found by name (Name/Player, Position, Jersey/Number)
 *   or, without a header, read in that order;
 * - a row whose name matches a player already on the roster (ignoring case) updates that
 *   player's position and jersey number; other rows add players;
 * - every row is checked first, and the whole file is refused with each bad line's number, so a
 *   file is never half imported; jersey numbers must stay unique among active players.
 */
import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '~/auth/permissions';
import { db, transaction } from '~/db/index.server';
import { rosters } from '~/db/schema';
import { playerFields, POSITIONS } from '~/forms/teams';
import { csvDocument } from '~/utils/csv';
import { zodIssues } from '~/utils/validation';
import { Invalid, TooLarge } from './errors';
import { auditIfNotManager, rosterWrite, teamToManage } from './teams.server';

export const ROSTER_CSV_MAX_BYTES = 100 * 1024;
export const ROSTER_CSV_MAX_ROWS = 200;
export const ROSTER_FILE_REQUIRED = 'Choose a CSV file with the roster.';
const HEADER = ['Name', 'Position', 'Jersey Number', 'Active'] as const;

export interface RosterImportResult {
  added: number;
  updated: number;
}

/** GET /teams/{id}/roster.csv: the team's roster, active players first (manager and admins). */
export async function rosterCsv(actor: Actor | null, teamId: string): Promise<{ teamName: string; csv: string }> {
  const team = await teamToManage(actor, teamId);
  const rows = await db()
    .select()
    .from(rosters)
    .where(eq(rosters.teamId, team.id));
  const sorted = [...rows].sort((a, b) => Number(b.isActive) - Number(a.isActive) || jerseyOrder(a.jerseyNumber) - jerseyOrder(b.jerseyNumber) || a.playerName.localeCompare(b.playerName));
  return { teamName: team.name, csv: csvDocument(HEADER, sorted.map((r) => [r.playerName, r.position, r.jerseyNumber, r.isActive ? 'yes' : 'no'])) };
}

const jerseyOrder = (n: string | null) => (n == null ? Number.MAX_SAFE_INTEGER : Number(n));

type Column = 'name' | 'position' | 'jersey';
function columnOf(header: string): Column | null {
  const h = header.trim().toLowerCase().replace(/[\s_#.-]/g, '');
  if (['name', 'player', 'playername', 'fullname'].includes(h)) return 'name';
  if (['position', 'pos'].includes(h)) return 'position';
  if (['jersey', 'jerseynumber', 'number', 'no', 'jerseyno', 'num'].includes(h)) return 'jersey';
  return null;
}

/** Reads the file's text into rows with their line numbers, refusing what cannot be a roster. */
function readRows(text: string): { line: number; name: string; position: string; jersey: string }[] {
  let records: string[][];
  try {
    records = parse(text.replace(/^\ufeff/, ''), { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (error) {
    throw new Invalid(`The file is not a readable CSV: ${(error as Error).message}`, { file: ['The file is not a readable CSV'] });
  }
  if (records.length === 0) throw new Invalid('The file has no players in it', { file: ['The file has no players in it'] });
  const headerColumns = records[0].map(columnOf);
  const hasHeader = headerColumns.includes('name');
  const order: (Column | null)[] = hasHeader ? headerColumns : ['name', 'position', 'jersey'];
  const body = hasHeader ? records.slice(1) : records;
  if (body.length === 0) throw new Invalid('The file has no players in it', { file: ['The file has no players in it'] });
  if (body.length > ROSTER_CSV_MAX_ROWS) {
    const message = `A roster file may have at most ${ROSTER_CSV_MAX_ROWS} players`;
    throw new Invalid(message, { file: [message] });
  }
  const first = hasHeader ? 2 : 1;
  return body.map((cells, i) => {
    const pick = (c: Column) => {
      const at = order.indexOf(c);
      return at >= 0 ? (cells[at] ?? '').trim() : '';
    };
    // a leading apostrophe is how exports keep spreadsheets from reading text as a formula
    const name = pick('name').replace(/^'(?=[=+\-@])/, '');
    return { line: first + i, name, position: pick('position'), jersey: pick('jersey').replace(/^#/, '') };
  });
}

/**
 * POST /api/teams/{teamId}/players/import (a CSV file or text/csv body): adds and updates players
 * in one transaction, or refuses the whole file with each bad line.
 */
export async function importRosterCsv(actor: Actor | null, teamId: string, file: Blob | string | null | undefined): Promise<RosterImportResult> {
  const team = await teamToManage(actor, teamId);
  const user = actor as Actor;
  if (file == null || (typeof file === 'string' && !file.trim()) || (file instanceof Blob && file.size === 0)) {
    throw new Invalid(ROSTER_FILE_REQUIRED, { file: [ROSTER_FILE_REQUIRED] });
  }
  const size = typeof file === 'string' ? Buffer.byteLength(file) : file.size;
  if (size > ROSTER_CSV_MAX_BYTES) throw new TooLarge('The roster file is too large (max 100 KB)');
  const text = typeof file === 'string' ? file : await file.text();
  const rows = readRows(text);

  // every line checked before anything is written
  const problems: string[] = [];
  const parsed = rows.map((row) => {
    const result = playerFields.safeParse({ playerName: row.name, position: matchPosition(row.position), jerseyNumber: row.jersey });
    if (!result.success) {
      const issues = zodIssues(result.error);
      const first = Object.values(issues).flat()[0] ?? 'Invalid row';
      problems.push(`Line ${row.line}: ${first}${row.position && issues.position ? ` ("${row.position}")` : ''}`);
      return null;
    }
    return { line: row.line, ...result.data };
  });
  const seenNames = new Map<string, number>();
  const seenNumbers = new Map<string, number>();
  for (const p of parsed) {
    if (!p) continue;
    const key = p.playerName.toLowerCase();
    if (seenNames.has(key)) problems.push(`Line ${p.line}: ${p.playerName} is already on line ${seenNames.get(key)}`);
    else seenNames.set(key, p.line);
    if (p.jerseyNumber) {
      if (seenNumbers.has(p.jerseyNumber)) problems.push(`Line ${p.line}: jersey number ${p.jerseyNumber} is already on line ${seenNumbers.get(p.jerseyNumber)}`);
      else seenNumbers.set(p.jerseyNumber, p.line);
    }
  }
  if (problems.length) throw new Invalid(`The roster was not imported: ${problems.slice(0, 10).join('; ')}${problems.length > 10 ? `; and ${problems.length - 10} more` : ''}`, { file: problems });

  const valid = parsed.filter((p): p is NonNullable<typeof p> => p !== null);
  return rosterWrite(null, () =>
    transaction(async (tx) => {
      const current = await tx.select().from(rosters).where(eq(rosters.teamId, team.id));
      const byName = new Map(current.map((r) => [r.playerName.toLowerCase(), r]));
      const updatedIds = new Set<string>();
      // the roster as it will be: a number must stay worn by one active player
      const fileByName = new Map(valid.map((v) => [v.playerName.toLowerCase(), v]));
      const wearer = new Map<string, string>();
      for (const r of current) {
        const fromFile = fileByName.get(r.playerName.toLowerCase());
        const number = fromFile ? fromFile.jerseyNumber ?? null : r.jerseyNumber;
        if (!r.isActive || !number) continue;
        const other = wearer.get(number);
        if (other) {
          const line = (fromFile ?? fileByName.get(other.toLowerCase()))?.line;
          const message = `Line ${line}: jersey number ${number} is worn by ${fromFile ? other : r.playerName}`;
          throw new Invalid(`The roster was not imported: ${message}`, { file: [message] });
        }
        wearer.set(number, r.playerName);
      }
      for (const v of valid) {
        if (!v.jerseyNumber || byName.has(v.playerName.toLowerCase())) continue;
        const other = wearer.get(v.jerseyNumber);
        if (other) {
          const message = `Line ${v.line}: jersey number ${v.jerseyNumber} is worn by ${other}`;
          throw new Invalid(`The roster was not imported: ${message}`, { file: [message] });
        }
        wearer.set(v.jerseyNumber, v.playerName);
      }
      let added = 0;
      // numbers first freed (updates), then taken (inserts), so players can swap numbers
      const updates = valid.filter((v) => byName.has(v.playerName.toLowerCase()));
      for (const v of updates) {
        const existing = byName.get(v.playerName.toLowerCase())!;
        await tx.update(rosters).set({ jerseyNumber: null }).where(eq(rosters.id, existing.id));
      }
      for (const v of updates) {
        const existing = byName.get(v.playerName.toLowerCase())!;
        await tx
          .update(rosters)
          .set({ position: v.position ?? null, jerseyNumber: v.jerseyNumber ?? null })
          .where(and(eq(rosters.id, existing.id), eq(rosters.teamId, team.id)));
        updatedIds.add(existing.id);
      }
      for (const v of valid) {
        if (byName.has(v.playerName.toLowerCase())) continue;
        await tx.insert(rosters).values({ teamId: team.id, playerName: v.playerName, position: v.position ?? null, jerseyNumber: v.jerseyNumber ?? null });
        added += 1;
      }
      await auditIfNotManager(tx, user, team, 'team.roster_import', { added, updated: updatedIds.size });
      return { added, updated: updatedIds.size };
    }),
  );
}

/** A position as people type it ('SS', 'short stop', 'pitcher') mapped to the spec's names. */
const ABBREVIATIONS: Record<string, string> = {
  p: 'Pitcher',
  c: 'Catcher',
  '1b': 'First Base',
  '2b': 'Second Base',
  '3b': 'Third Base',
  ss: 'Shortstop',
  lf: 'Left Field',
  cf: 'Center Field',
  rf: 'Right Field',
  dh: 'Designated Hitter',
};
function matchPosition(raw: string): string {
  const key = raw.trim().toLowerCase();
  if (!key) return '';
  if (ABBREVIATIONS[key]) return ABBREVIATIONS[key];
  const squashed = key.replace(/[^a-z]/g, '');
  return POSITIONS.find((n) => n.toLowerCase().replace(/[^a-z]/g, '') === squashed) ?? raw.trim();
}
