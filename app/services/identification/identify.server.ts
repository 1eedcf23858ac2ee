/**
 * Identify a pin from a photo (POST /api/identify and the /identify page).
 *
 * photo bytes -> validation (413 over 5 MB; not an image 415, not decodable 400, both with
 * `image_parse_error` in the message so clients show 'Unsupported Image') -> the visual index
 * (and, when configured, the AI analysis, in parallel) -> the response of spec §3.
 * The photo, the identification row that names it, the pin's identificationCount and the user's
 * stats and badges are written in ONE transaction before the answer, so an answer that names a
 * photo is never lost, not even to a kill right after it. The photo is kept as its master only (its
 * smaller sizes are rendered when first asked for), encoded by sharp's threads while the match runs.
 */
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { assertCanChooseIdentifiedPin, type Actor } from '~/auth/permissions';
import { transaction } from '~/db/index.server';
import { identifications, pins } from '~/db/schema';
import { db } from '~/db/index.server';
import { MAX_IMAGE_BYTES } from '~/utils/constants';
import { nearIdenticalOf } from '~/utils/identification';
import { recordIdentificationActivity } from '../achievements.server';
import { recordChallengeProgress } from '../challenges.server';
import { AppError, Invalid, NotFound, TooLarge, UnsupportedMediaType } from '../errors';
import { imageIdOf, imageUrl, photoMaster, savePreparedImage, sniffImageType, toImageBytes } from '../images.server';
import type { IdentificationAnalysis, IdentificationResult, SimilarPin } from '~/types/identification';
import type { PinDto } from '~/types/pins';
import { getPinsByIds } from '../pins.server';
import { aiConfig, analyzeWithAi, AiUnavailable, pickCandidateByText, type AiAnalysis } from './ai.server';
import type { MatchResult } from './engine.server';
import { SIMILAR_MIN_SCORE, SIMILAR_PINS_LIMIT, SUGGESTION_MIN_SCORE } from './decision.server';
import { getReadyVisualIndex } from './index.server';
import { consumeRateLimit } from '../rate-limit.server';

export const AI_UNAVAILABLE_MESSAGE = 'Our AI identification service is temporarily unavailable. You can still help identify this pin manually!';
/**
 * The candidates an answer shows as similar pins, in candidate order: not the named pin; for an
 * ambiguous answer its family first, always, then the pins only similar; the others when they score
 * SIMILAR_MIN_SCORE (SUGGESTION_MIN_SCORE when no pin is named); at most SIMILAR_PINS_LIMIT. The
 * benchmarks count the same pins.
 */
export function shownSimilar(
  outcome: IdentificationResult['outcome'],
  candidateIds: string[],
  scoreOf: (pinId: string) => number,
  opts: { bestId: string | null; family: ReadonlySet<string> },
): string[] {
  const floor = outcome === 'no_match' ? SUGGESTION_MIN_SCORE : SIMILAR_MIN_SCORE;
  const listed =
    outcome === 'ambiguous' ? [...candidateIds.filter((id) => opts.family.has(id)), ...candidateIds.filter((id) => !opts.family.has(id))] : candidateIds;
  return listed
    .filter((id) => id !== opts.bestId)
    .filter((id) => (outcome === 'ambiguous' && opts.family.has(id)) || scoreOf(id) >= floor)
    .slice(0, SIMILAR_PINS_LIMIT);
}

export type { IdentificationAnalysis, IdentificationResult, SimilarPin };

/** What is stored in identifications.identification_data (pins are re-read when shown again). */
interface StoredIdentification {
  v: 1;
  identified: boolean;
  outcome: IdentificationResult['outcome'];
  message: string;
  serviceUnavailable: boolean;
  analysis: IdentificationAnalysis;
  /** nearIdentical: see SimilarPin (absent on rows stored before it was kept: all of an ambiguous answer's then) */
  similar: { pinId: string; matchScore: number; nearIdentical?: boolean }[];
  imageId: string;
  aiUsed: boolean;
  timings?: Record<string, number>;
}

// ---------------------------------------------------------------- input

/** Photo bytes from a data URL / base64 string, a File/Blob or bytes; throws 400/413/415. */
export async function readPhoto(input: unknown): Promise<Buffer> {
  if (input == null || input === '') throw new Invalid('image_parse_error: no image was sent (send imageData as a data URL or a file in the field image)');
  if (typeof input !== 'string' && !(input instanceof Uint8Array) && !(input instanceof Blob)) {
    throw new Invalid('image_parse_error: imageData must be a data URL string');
  }
  if (input instanceof Blob && input.size === 0) throw new Invalid('image_parse_error: the uploaded file is empty');
  const bytes = await toImageBytes(input);
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new TooLarge('Image too large (max 5MB)');
  if (bytes.byteLength === 0) throw new Invalid('image_parse_error: the image is empty');
  if (!sniffImageType(bytes)) {
    throw new UnsupportedMediaType('image_parse_error: this file is not an image we can read (JPEG, PNG, WebP, GIF, AVIF or HEIC)');
  }
  return bytes;
}

/** The stored photo's id: from the uploaded bytes, so that it is known before the photo is encoded. */
function photoIdOf(bytes: Buffer): string {
  return createHash('sha256').update('identification-photo').update(bytes).digest('hex').slice(0, 32);
}

// ---------------------------------------------------------------- analysis text

function localAnalysis(best: PinDto | null, outcome: IdentificationResult['outcome'], confidence: number, similar: SimilarPin[]): IdentificationAnalysis {
  if (best && outcome === 'match') {
    const features = [
      best.organization ? `Organization: ${best.organization.name}` : null,
      best.year ? `Year: ${best.year}` : null,
      best.event ? `Event: ${best.event}` : null,
      `Rarity: ${best.rarity.replace('_', ' ')}`,
      `Visual match: ${confidence}%`,
    ].filter((f): f is string => !!f);
    return {
      name: best.name,
      description: best.description ?? `A ${best.organization?.name ?? ''} trading pin.`.replace('  ', ' '),
      features,
      analysis: `The photo matches the catalogue photos of ${best.name} with ${confidence}% confidence (local visual matcher: shapes, artwork and lettering compared with every reference photo).`,
      confidence,
    };
  }
  if (outcome === 'ambiguous') {
    const family = nearIdenticalOf(similar);
    return {
      name: family[0]?.pin.name ?? 'Pin family',
      description: 'This pin belongs to a family of near-identical pins that differ only in team name, year or colours.',
      features: similar.map((s) => `${s.pin.name}: ${s.matchScore}% similar`),
      analysis: `The photo matches ${family.length} near-identical pins equally well. Compare the team name and year on your pin with the candidates and choose yours.`,
      confidence: family[0]?.matchScore ?? 0,
    };
  }
  return {
    name: 'Unknown pin',
    description: 'No pin in our database matches this photo closely enough.',
    features: similar.length ? similar.map((s) => `Looks a little like ${s.pin.name} (${s.matchScore}%)`) : ['No similar pins found'],
    analysis:
      'The local visual matcher compared the photo with every reference photo in the catalogue and found no confident match. The pin may be new to the database, or the photo may be too blurry, dark or glary.',
    confidence: similar[0]?.matchScore ?? 0,
  };
}

function withAi(base: IdentificationAnalysis, ai: AiAnalysis): IdentificationAnalysis {
  const read = ai.text.length ? [`Text read: ${ai.text.join(' · ')}`] : [];
  return {
    name: base.name !== 'Unknown pin' && base.name !== 'Pin family' ? base.name : ai.name,
    description: ai.description || base.description,
    features: [...new Set([...ai.features, ...read, ...base.features])].slice(0, 12),
    analysis: `${base.analysis} AI reading: ${[ai.team, ai.tournament, ai.year].filter(Boolean).join(', ') || 'no text read'}.`,
    confidence: base.confidence || ai.confidence,
  };
}

// ---------------------------------------------------------------- identify

export interface IdentifyOptions {
  timeZone?: string | null;
  now?: Date;
}

/** Runs one identification and stores it. `input` is a data URL / base64 string, File/Blob or bytes. */
export async function identifyPin(actor: Actor | null, input: unknown, opts: IdentifyOptions = {}): Promise<IdentificationResult> {
  const started = performance.now();
  const bytes = await readPhoto(input);
  const ai = aiConfig();

  const index = await getReadyVisualIndex(); // 503 'warming up' while the server's index loads
  const imageId = photoIdOf(bytes);
  // the photo's master is encoded (sharp's threads) while the match runs, and stored with the answer
  const master = photoMaster(bytes).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  // the visual match and the AI run side by side
  const [match, aiOutcome] = await Promise.all([
    index.match(bytes, { limit: 8 }).catch((error: unknown): MatchResult => {
      // a photo the engine cannot read is the same error as one sharp cannot decode
      if (error instanceof AppError) throw error;
      throw new Invalid(`image_parse_error: ${error instanceof Error ? error.message : 'the image could not be read'}`);
    }),
    ai
      ? analyzeWithAi(bytes, ai).then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => {
            console.warn('[identify] AI analysis unavailable:', error instanceof AiUnavailable ? error.message : error);
            return { ok: false as const };
          },
        )
      : Promise.resolve(null),
  ]);

  const candidateIds = match.candidates.map((c) => c.pinId);
  const candidatePins = await getPinsByIds([...new Set([match.best?.pinId, ...candidateIds].filter((x): x is string => !!x))]);
  const pinById = new Map(candidatePins.map((p) => [p.id, p]));
  const scoreOf = new Map(match.candidates.map((c) => [c.pinId, Math.round(c.score)]));

  let outcome: IdentificationResult['outcome'] = match.best && pinById.has(match.best.pinId) ? 'match' : match.reason === 'ambiguous' ? 'ambiguous' : 'no_match';
  // the pins of an ambiguous answer that could not be told apart, in candidate order (the others are only similar)
  const family = new Set(match.family ?? candidateIds);
  const familyIds = candidateIds.filter((id) => family.has(id));
  let bestId = outcome === 'match' ? (match.best as { pinId: string }).pinId : null;
  let confidence = outcome === 'match' ? Math.round((match.best as { confidence: number }).confidence) : 0;

  // near-identical family members: the text the model read may settle it
  if (outcome === 'ambiguous' && aiOutcome?.ok) {
    const members = familyIds.map((id) => pinById.get(id)).filter((p): p is PinDto => !!p);
    const picked = pickCandidateByText(aiOutcome.value, members.map((p) => ({ pinId: p.id, name: p.name, description: p.description, year: p.year, event: p.event })));
    if (picked) {
      outcome = 'match';
      bestId = picked;
      confidence = Math.max(50, Math.min(95, scoreOf.get(picked) ?? 70));
    }
  }

  const bestPin = bestId ? (pinById.get(bestId) ?? null) : null;
  const similarPins: SimilarPin[] = shownSimilar(outcome, candidateIds.filter((id) => pinById.has(id)), (id) => scoreOf.get(id) ?? 0, { bestId, family })
    .map((id) => pinById.get(id))
    .filter((p): p is PinDto => !!p)
    .map((pin) => ({
      pin,
      matchScore: Math.max(0, Math.min(100, scoreOf.get(pin.id) ?? 0)),
      ...(outcome === 'ambiguous' ? { nearIdentical: family.has(pin.id) } : {}),
    }));

  let analysis = localAnalysis(bestPin, outcome, confidence, similarPins);
  const serviceUnavailable = aiOutcome != null && !aiOutcome.ok;
  if (aiOutcome?.ok) analysis = withAi(analysis, aiOutcome.value);

  const identified = outcome === 'match' && !!bestPin;
  const message = serviceUnavailable
    ? AI_UNAVAILABLE_MESSAGE
    : identified
      ? `This looks like ${bestPin.name}${bestPin.organization ? ` (${bestPin.organization.name})` : ''}.`
      : outcome === 'ambiguous'
        ? `This pin is one of ${nearIdenticalOf(similarPins).length} near-identical pins. Check the team name and year on your pin and choose it below.`
        : "No exact match found, but we've analyzed the pin";

  const stored: StoredIdentification = {
    v: 1,
    identified,
    outcome,
    message,
    serviceUnavailable,
    analysis,
    similar: similarPins.map((s) => ({ pinId: s.pin.id, matchScore: s.matchScore, ...(s.nearIdentical != null ? { nearIdentical: s.nearIdentical } : {}) })),
    imageId,
    aiUsed: !!aiOutcome?.ok,
    timings: { ...match.timings, totalMs: Math.round(performance.now() - started) },
  };

  const photo = await master;
  if (!photo.ok) {
    const reason = photo.error instanceof Error ? photo.error.message : 'the image could not be read';
    throw new Invalid(`image_parse_error: ${reason}`);
  }
  const { identificationId, newlyUnlockedBadges, completedChallenges } = await transaction(async (tx) => {
    await savePreparedImage(tx, { ...photo.value, id: imageId, variants: [] });
    const [row] = await tx
      .insert(identifications)
      .values({
        pinId: identified ? bestId : null,
        userId: actor?.id ?? null,
        imageData: imageId,
        confidence: identified ? confidence : 0,
        identificationData: stored as unknown as Record<string, unknown>,
        // the day's badges and challenges count this row on the day they are told it is
        ...(opts.now ? { createdAt: opts.now } : {}),
      })
      .returning({ id: identifications.id });
    if (identified && bestId) {
      await tx.update(pins).set({ identificationCount: sql`${pins.identificationCount} + 1` }).where(eq(pins.id, bestId));
    }
    const badges = actor ? await recordIdentificationActivity(tx, actor.id, { successful: identified, now: opts.now, timeZone: opts.timeZone }) : [];
    const challenges = actor ? await recordChallengeProgress(tx, actor.id, 'identification', { now: opts.now }) : [];
    return { identificationId: row.id, newlyUnlockedBadges: badges, completedChallenges: challenges };
  });

  return {
    identified,
    pin: bestPin ? { ...bestPin, identificationCount: bestPin.identificationCount + (identified ? 1 : 0) } : null,
    confidence: identified ? confidence : 0,
    message,
    error: null,
    serviceUnavailable,
    analysis,
    similarPins,
    imageData: imageUrl(imageId),
    imageId,
    newlyUnlockedBadges,
    completedChallenges,
    outcome,
    identificationId,
  };
}

/** A stored identification shown again (/identify?result=<id>): pins are read as they are now. */
export async function getIdentificationResult(id: string): Promise<IdentificationResult> {
  const row = typeof id === 'string' && id.length <= 64 ? await db().select().from(identifications).where(eq(identifications.id, id)).get() : undefined;
  const data = row?.identificationData as StoredIdentification | null | undefined;
  if (!row || !data || data.v !== 1) throw new NotFound('Identification not found');
  const ids = [row.pinId, ...data.similar.map((s) => s.pinId)].filter((x): x is string => !!x);
  const found = new Map((await getPinsByIds(ids)).map((p) => [p.id, p]));
  const pin = row.pinId ? (found.get(row.pinId) ?? null) : null;
  const imageId = imageIdOf(row.imageData ?? '') ?? data.imageId;
  return {
    identified: data.identified && !!pin,
    pin,
    confidence: row.confidence,
    message: data.message,
    error: null,
    serviceUnavailable: data.serviceUnavailable,
    analysis: data.analysis,
    similarPins: data.similar.flatMap((s) => {
      const p = found.get(s.pinId);
      return p ? [{ pin: p, matchScore: s.matchScore, ...(data.outcome === 'ambiguous' && s.nearIdentical != null ? { nearIdentical: s.nearIdentical } : {}) }] : [];
    }),
    imageData: imageUrl(imageId),
    imageId,
    newlyUnlockedBadges: [],
    outcome: data.outcome,
    identificationId: row.id,
  };
}

/**
 * The user chose their pin among near-identical candidates ('This is my pin'): the stored
 * identification now names it and counts toward the pin. Only the person who took the photo
 * (or anyone, for a visitor's photo) may choose, once, and only among the offered candidates.
 */
export async function chooseIdentifiedPin(actor: Actor | null, identificationId: unknown, pinId: unknown): Promise<IdentificationResult> {
  if (typeof identificationId !== 'string' || typeof pinId !== 'string') throw new Invalid('Choose one of the candidate pins');
  const row = identificationId.length <= 64 ? await db().select().from(identifications).where(eq(identifications.id, identificationId)).get() : undefined;
  const data = row?.identificationData as StoredIdentification | null | undefined;
  if (!row || !data || data.v !== 1) throw new NotFound('Identification not found');
  assertCanChooseIdentifiedPin(actor, row);
  if (row.pinId) return getIdentificationResult(row.id);
  const choice = data.similar.find((s) => s.pinId === pinId);
  if (!choice) throw new Invalid('Choose one of the candidate pins');
  const [pin] = await getPinsByIds([pinId]);
  if (!pin) throw new NotFound('Pin Not Found');
  const updated: StoredIdentification = {
    ...data,
    identified: true,
    outcome: 'match',
    message: `You chose ${pin.name}${pin.organization ? ` (${pin.organization.name})` : ''}.`,
    analysis: { ...data.analysis, name: pin.name, description: pin.description ?? data.analysis.description },
    similar: data.similar.filter((s) => s.pinId !== pinId),
  };
  await transaction(async (tx) => {
    await tx
      .update(identifications)
      .set({ pinId, confidence: choice.matchScore, identificationData: updated as unknown as Record<string, unknown> })
      .where(eq(identifications.id, row.id));
    await tx.update(pins).set({ identificationCount: sql`${pins.identificationCount} + 1` }).where(eq(pins.id, pinId));
  });
  return getIdentificationResult(row.id);
}

/**
 * Counts one identification for the client address (429 when over). IDENTIFY_RATE_LIMIT=off
 * lifts it for the benchmark, which posts hundreds of photos from one address.
 */
export async function limitIdentifyRate(clientIp: unknown): Promise<void> {
  if (process.env.IDENTIFY_RATE_LIMIT === 'off') return;
  await consumeRateLimit('identify-ip', typeof clientIp === 'string' && clientIp ? clientIp : 'unknown');
}
