/**
 * Imports a pin catalogue from CSV (admins, and the identification benchmark):
 *
 *   npm run catalogue:import -- <file.csv>          (DATABASE_URL chooses the database)
 *
 * Header: name,organization,description,rarity,year,event,estimated_value,total_quantity,images
 * `images` are `|`-separated paths relative to the CSV file. Organizations are created as needed;
 * a row whose name and organization already exist updates that pin (its images are replaced).
 * A bad row is reported with its line number and skipped whole (one transaction per row).
 * Visual features are extracted and stored for every image, so the identification index is ready
 * when the import finishes (a server started afterwards loads them at once; a running server
 * picks them up at its next start).
 *
 * An import is an operator's tool: it writes through Drizzle and the image store directly instead
 * of createPin, which needs a signed-in actor and adds the pin to that actor's collection.
 */
// the settings file (.env) before any module reads the environment
import './load-env.js';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { and, eq, sql } from 'drizzle-orm';
import { ensureMigrated, getDatabase } from '../db/client.server';
import { transaction } from '../db/index.server';
import { pins } from '../db/schema';
import { computeImageFeatures, storeImageFeatures, type Compute, type ComputedFeatures } from '../services/identification/index.server';
import { WorkerPool, threadsFrom } from './worker-pool';
import { prepareImage, savePreparedImage, type PreparedImage } from '../services/images.server';
import { findOrCreateOrganization } from '../services/organizations.server';
import { MAX_PIN_PHOTOS, MIN_PIN_YEAR, RARITIES, type Rarity, isOneOf } from '../utils/constants';
import { RARITY_SCORE, rarityFromQuantity } from '../utils/rarity';

export const CATALOGUE_COLUMNS = ['name', 'organization', 'description', 'rarity', 'year', 'event', 'estimated_value', 'total_quantity', 'images'] as const;

interface ValidRow {
  line: number;
  name: string;
  organization: string;
  description: string | null;
  rarity: Rarity | null;
  year: number | null;
  event: string | null;
  estimatedValueCents: number | null;
  totalQuantity: number;
  images: PreparedImage[];
}

class RowError extends Error {}

const text = (v: unknown, max: number, label: string): string | null => {
  const s = typeof v === 'string' ? v.trim() : '';
  if (!s) return null;
  if (s.length > max) throw new RowError(`${label} is too long (at most ${max} characters)`);
  return s;
};

async function validateRow(record: Record<string, string>, line: number, baseDir: string): Promise<ValidRow> {
  const name = text(record.name, 200, 'name');
  if (!name) throw new RowError('name is required');
  const organization = text(record.organization, 120, 'organization');
  if (!organization) throw new RowError('organization is required');
  const rarityRaw = text(record.rarity, 20, 'rarity')?.toLowerCase().replace(/[\s-]+/g, '_') ?? null;
  if (rarityRaw && !isOneOf(RARITIES, rarityRaw)) throw new RowError(`rarity must be one of ${RARITIES.join(', ')} (got "${record.rarity}")`);
  const yearRaw = text(record.year, 10, 'year');
  const year = yearRaw == null ? null : Number(yearRaw);
  if (year != null && (!Number.isInteger(year) || year < MIN_PIN_YEAR || year > new Date().getFullYear())) {
    throw new RowError(`year must be between ${MIN_PIN_YEAR} and ${new Date().getFullYear()} (got "${yearRaw}")`);
  }
  const valueRaw = text(record.estimated_value, 20, 'estimated_value')?.replace(/^\$/, '') ?? null;
  const value = valueRaw == null ? null : Number(valueRaw);
  if (value != null && (!Number.isFinite(value) || value < 0)) throw new RowError(`estimated_value must be a positive number (got "${record.estimated_value}")`);
  const quantityRaw = text(record.total_quantity, 12, 'total_quantity');
  const totalQuantity = quantityRaw == null ? 100 : Number(quantityRaw);
  if (!Number.isInteger(totalQuantity) || totalQuantity < 1) throw new RowError(`total_quantity must be a whole number of at least 1 (got "${quantityRaw}")`);
  const paths = (record.images ?? '')
    .split('|')
    .map((p) => p.trim())
    .filter(Boolean);
  if (paths.length > MAX_PIN_PHOTOS) throw new RowError(`at most ${MAX_PIN_PHOTOS} images per pin (got ${paths.length})`);
  const images: PreparedImage[] = [];
  for (const p of paths) {
    const file = path.resolve(baseDir, p);
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(file);
    } catch {
      throw new RowError(`image not found: ${p}`);
    }
    try {
      images.push(await prepareImage(bytes));
    } catch (error) {
      throw new RowError(`image ${p}: ${error instanceof Error ? error.message : 'unreadable'}`);
    }
  }
  return {
    line,
    name,
    organization,
    description: text(record.description, 5000, 'description'),
    rarity: rarityRaw as Rarity | null,
    year,
    event: text(record.event, 200, 'event'),
    estimatedValueCents: value == null ? null : Math.round(value * 100),
    totalQuantity,
    images,
  };
}

/** Writes one row in its own transaction; returns whether it created or updated, and the image ids. */
async function writeRow(row: ValidRow): Promise<{ action: 'created' | 'updated'; pinId: string; imageIds: string[] }> {
  return transaction(async (tx) => {
    const org = await findOrCreateOrganization(tx, row.organization);
    const imageIds: string[] = [];
    for (const image of row.images) imageIds.push((await savePreparedImage(tx, image)).id);
    const rarity = row.rarity ? { rarity: row.rarity, rarityScore: RARITY_SCORE[row.rarity], rarityLocked: true } : { ...rarityFromQuantity(row.totalQuantity), rarityLocked: false };
    const fields = {
      name: row.name,
      description: row.description,
      organizationId: org.id,
      totalQuantity: row.totalQuantity,
      year: row.year,
      event: row.event,
      estimatedValueCents: row.estimatedValueCents,
      images: [...new Set(imageIds)],
      primaryPhotoIndex: 0,
      ...rarity,
    };
    const existing = await tx
      .select({ id: pins.id, availableQuantity: pins.availableQuantity })
      .from(pins)
      .where(and(eq(pins.organizationId, org.id), sql`lower(${pins.name}) = lower(${row.name})`))
      .get();
    if (existing) {
      await tx
        .update(pins)
        .set({ ...fields, availableQuantity: Math.min(existing.availableQuantity, row.totalQuantity) })
        .where(eq(pins.id, existing.id));
      return { action: 'updated' as const, pinId: existing.id, imageIds: fields.images };
    }
    const [created] = await tx
      .insert(pins)
      .values({ ...fields, availableQuantity: row.totalQuantity })
      .returning({ id: pins.id });
    return { action: 'created' as const, pinId: created.id, imageIds: fields.images };
  });
}

export interface ImportSummary {
  rows: number;
  created: number;
  updated: number;
  skipped: { line: number; message: string }[];
  featuresExtracted: number;
  /** Rows written whose photos' identification features could not be computed (not identifiable until re-imported). */
  featureErrors: { line: number; message: string }[];
  seconds: number;
}

export async function importCatalogue(csvPath: string, log: (line: string) => void = console.log, opts: { threads?: number } = {}): Promise<ImportSummary> {
  const started = Date.now();
  const content = await fs.readFile(csvPath, 'utf8');
  const records = parse(content, { columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()), skip_empty_lines: true, bom: true, relax_column_count: true, info: true, raw: true }) as {
    record: Record<string, string>;
    info: { lines: number };
    raw: string;
  }[];
  const headerLine = content.split(/\r?\n/, 1)[0] ?? '';
  const header = headerLine.replace(/^\uFEFF/, '').split(',').map((h) => h.trim().toLowerCase());
  const missing = CATALOGUE_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) throw new Error(`The CSV header lacks ${missing.join(', ')} (expected: ${CATALOGUE_COLUMNS.join(',')})`);

  const baseDir = path.dirname(path.resolve(csvPath));
  const summary: ImportSummary = { rows: records.length, created: 0, updated: 0, skipped: [], featuresExtracted: 0, featureErrors: [], seconds: 0 };
  const width = String(records.length).length;
  // the features (most of an import's CPU) are computed on worker threads while the next rows are
  // read and written; a few rows at most wait for theirs, so memory stays flat
  const pool = new WorkerPool<Buffer, ComputedFeatures>(new URL('./catalogue-features.worker.ts', import.meta.url), computeImageFeatures, opts.threads ?? threadsFrom(process.env.IMPORT_THREADS));
  const compute: Compute = (master) => pool.run(master);
  const extracting = new Set<Promise<void>>();
  try {
    for (let i = 0; i < records.length; i++) {
      const { record, info, raw } = records[i];
      // info.lines is where the record ends: report the line it starts on (quoted fields may span lines)
      const line = info.lines - (raw.replace(/\r?\n$/, '').match(/\n/g)?.length ?? 0);
      const progress = `[${String(i + 1).padStart(width)}/${records.length}]`;
      let written: Awaited<ReturnType<typeof writeRow>>;
      let name: string;
      try {
        const row = await validateRow(record, line, baseDir);
        name = row.name;
        written = await writeRow(row);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        summary.skipped.push({ line, message });
        log(`${progress} line ${line}: skipped (${message})`);
        continue;
      }
      summary[written.action]++;
      log(`${progress} ${written.action} ${name}`);
      const job: Promise<void> = storeImageFeatures(written.imageIds, { compute })
        .then(
          (n) => {
            summary.featuresExtracted += n;
          },
          (error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            summary.featureErrors.push({ line, message });
            log(`line ${line}: ${name} was imported, but its photos could not be prepared for identification (${message})`);
          },
        )
        .finally(() => extracting.delete(job));
      extracting.add(job);
      while (extracting.size >= Math.max(1, pool.threads) * 2) await Promise.race(extracting);
    }
    await Promise.all(extracting);
  } finally {
    await pool.close();
  }
  summary.seconds = Math.round((Date.now() - started) / 100) / 10;
  return summary;
}

async function main() {
  const file = process.argv.slice(2).find((a) => a !== '--' && !a.startsWith('--'));
  if (!file) {
    console.error(`Usage: npm run catalogue:import -- <file.csv>\nHeader: ${CATALOGUE_COLUMNS.join(',')}`);
    process.exitCode = 2;
    return;
  }
  await ensureMigrated();
  try {
    const s = await importCatalogue(file);
    console.log(
      `Imported ${s.rows} row(s) in ${s.seconds}s: ${s.created} created, ${s.updated} updated, ${s.skipped.length} skipped; features extracted for ${s.featuresExtracted} image(s).`,
    );
    for (const skip of s.skipped) console.log(`  line ${skip.line}: ${skip.message}`);
    for (const failed of s.featureErrors) console.log(`  line ${failed.line}: imported, not identifiable (${failed.message})`);
    if (s.featureErrors.length) process.exitCode = 1;
    if (s.skipped.length && s.created + s.updated === 0) process.exitCode = 1;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    getDatabase().close();
  }
}

// run when called as a command (not when a test imports importCatalogue)
if (process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join('cli', 'catalogue-import.ts'))) await main();
