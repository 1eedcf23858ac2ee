/**
 * Identification service: input validation (413 / image_parse_error), a pin added through
 * createPin identifiable on the next photo, what is stored (identification row, pin count, user
 * stats and badges), and the optional AI analysis against a local OpenAI-compatible stub.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '~/services/users.server';
import { db } from '~/db/index.server';
import { identifications, imageFeatures, images, organizations, pins, userStats } from '~/db/schema';
import { identificationToasts } from '~/components/identify-actions';
import { ensureAchievements } from '~/services/achievement-definitions.server';
import { pickCandidateByText } from '~/services/identification/ai.server';
import {
  AI_UNAVAILABLE_MESSAGE,
  chooseIdentifiedPin,
  getIdentificationResult,
  identifyPin,
  shownSimilar,
} from '~/services/identification/identify.server';
import { SIMILAR_MIN_SCORE, SUGGESTION_MIN_SCORE } from '~/services/identification/decision.server';
import { readIdentifyRequest } from '~/http/identify-request.server';
import { getVisualIndex, loadStoredFeatures, removePinFromIndex, storeBackedIndex, storeMissingPixels } from '~/services/identification/index.server';
import { importCatalogue } from '~/cli/catalogue-import';
import { getImageVariant } from '~/services/images.server';
import { createPin } from '~/services/pins.server';
import { dayWith } from '../support/challenges';
import { createUser } from '../support/factories';
import { dataUrl, phonePhoto, pinArtwork } from '../support/identify';
import { earlierFormPixels } from '../support/pixels';

const asSession = (u: Awaited<ReturnType<typeof createUser>>): SessionUser => ({ ...u, vendor: null });

async function statusOf(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { status?: number; message?: string };
    return { status: e.status ?? 500, message: e.message ?? '' };
  }
  return { status: 200, message: '' };
}

let vendor: SessionUser;
let knownArt: Buffer;
let knownPinId: string;

beforeAll(async () => {
  await ensureAchievements();
  vendor = asSession(await createUser({ role: 'vendor' }));
  knownArt = await pinArtwork(101, 'FALCONS');
  const created = await createPin(vendor, {
    name: 'Springfield Falcons 12U - Cooperstown 2019',
    description: 'Round pin, gold metal, red and blue; text "FALCONS", "2019".',
    organizationName: 'Springfield Falcons Baseball',
    year: 2019,
    images: [knownArt],
  });
  knownPinId = created.id;
  // another pin in the catalogue, so a match has to choose
  await createPin(vendor, { name: 'Riverside Otters 10U - Omaha 2021', organizationName: 'Riverside Otters', images: [await pinArtwork(202, 'OTTERS')] });
});

afterEach(() => {
  delete process.env.AI_BASE_URL;
  delete process.env.AI_API_KEY;
  delete process.env.AI_MODEL;
  delete process.env.AI_TIMEOUT_MS;
});

describe('input validation', () => {
  it('refuses a photo over 5 MB with 413', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 10, 0x41);
    big.set([0xff, 0xd8, 0xff, 0xe0], 0);
    expect((await statusOf(identifyPin(null, big))).status).toBe(413);
    expect((await statusOf(identifyPin(null, dataUrl(big)))).status).toBe(413);
    // the request itself is refused before its body is read
    const request = new Request('http://localhost/api/identify', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(8 * 1024 * 1024) },
      body: '{}',
    });
    expect((await statusOf(readIdentifyRequest(request))).status).toBe(413);
  });

  it('answers 400 image_parse_error for an image that does not decode', async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 0x37)]);
    const result = await statusOf(identifyPin(null, dataUrl(broken)));
    expect(result.status).toBe(400);
    expect(result.message).toContain('image_parse_error');
    // a photo cut short in transfer: nothing is recorded for it
    const before = (await db().select().from(identifications)).length;
    const whole = await phonePhoto(knownArt);
    const truncated = await statusOf(identifyPin(null, dataUrl(whole.subarray(0, Math.floor(whole.length * 0.6)))));
    expect(truncated.status).toBe(400);
    expect(truncated.message).toContain('image_parse_error');
    // a small file of a huge, flat picture (60 megapixels) is refused as the image store refuses it
    const huge = await sharp({ create: { width: 10_000, height: 6_000, channels: 3, background: '#c03030' } }).jpeg({ quality: 50 }).toBuffer();
    expect(huge.length).toBeLessThan(5 * 1024 * 1024);
    const tooManyPixels = await statusOf(identifyPin(null, dataUrl(huge)));
    expect(tooManyPixels.status).toBe(400);
    expect(tooManyPixels.message).toContain('image_parse_error');
    expect((await db().select().from(identifications)).length).toBe(before);
    const notBase64 = await statusOf(identifyPin(null, 'data:image/jpeg;base64,@@@not base64@@@'));
    expect(notBase64.status).toBe(400);
    expect(notBase64.message).toContain('image_parse_error');
  });

  it('answers a picture that decodes but is a 2 px strip with "no match", and records it', async () => {
    const strip = await sharp({ create: { width: 2000, height: 2, channels: 3, background: '#204080' } }).png().toBuffer();
    const before = (await db().select().from(identifications)).length;
    const result = await identifyPin(null, dataUrl(strip, 'image/png'));
    expect(result.identified).toBe(false);
    expect(result.pin).toBeNull();
    expect((await db().select().from(identifications)).length).toBe(before + 1);
  });

  it('refuses a file that is not an image (415, image_parse_error) and a missing image (400)', async () => {
    const text = await statusOf(identifyPin(null, dataUrl(Buffer.from('hello, this is a text file and not a picture'), 'text/plain')));
    expect(text.status).toBe(415);
    expect(text.message).toContain('image_parse_error');
    expect((await statusOf(identifyPin(null, undefined))).status).toBe(400);
    expect((await statusOf(identifyPin(null, 42))).status).toBe(400);
    const badJson = new Request('http://localhost/api/identify', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{nope' });
    expect((await statusOf(readIdentifyRequest(badJson))).status).toBe(400);
  });

  it('takes multipart uploads in the field image', async () => {
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(await phonePhoto(knownArt))], { type: 'image/jpeg' }), 'pin.jpg');
    const input = await readIdentifyRequest(new Request('http://localhost/api/identify', { method: 'POST', body: form }));
    const result = await identifyPin(null, input);
    expect(result.identified).toBe(true);
    expect(result.pin?.id).toBe(knownPinId);
  });
});

describe('identification', () => {
  it('identifies a known pin from a photo, stores the photo, the row and the count', async () => {
    const before = await db().select().from(pins).where(eq(pins.id, knownPinId)).get();
    const photo = await phonePhoto(knownArt, { rotate: -12 });
    const result = await identifyPin(null, dataUrl(photo));
    expect(result.identified).toBe(true);
    expect(result.pin?.name).toBe('Springfield Falcons 12U - Cooperstown 2019');
    expect(result.confidence).toBeGreaterThan(0);
    expect(result.confidence).toBeLessThanOrEqual(100);
    expect(result.serviceUnavailable).toBe(false);
    expect(result.error).toBeNull();
    expect(result.imageData).toMatch(/^\/images\/[a-f0-9]{32}$/);
    expect(result.analysis.name).toBe('Springfield Falcons 12U - Cooperstown 2019');
    expect(result.similarPins.length).toBeLessThanOrEqual(4);
    expect(result.similarPins.every((s) => s.pin.id !== knownPinId)).toBe(true);
    const row = await db().select().from(identifications).where(eq(identifications.id, result.identificationId)).get();
    expect(row?.pinId).toBe(knownPinId);
    const after = await db().select().from(pins).where(eq(pins.id, knownPinId)).get();
    expect(after!.identificationCount).toBe(before!.identificationCount + 1);
    // the result can be shown again by id
    const again = await getIdentificationResult(result.identificationId);
    expect(again.pin?.id).toBe(knownPinId);
    expect(again.imageData).toBe(result.imageData);
    // the photo was stored with the answer: it is there the moment the answer is
    const [stored] = await db().select({ id: images.id }).from(images).where(eq(images.id, result.imageId));
    expect(stored?.id).toBe(result.imageId);
    const served = await getImageVariant(result.imageId, 'full', 'jpeg');
    expect(served.bytes.byteLength).toBeGreaterThan(1000);
    expect(served.width).toBeLessThanOrEqual(1024);
    // the same photo sent again is stored once, under the same id
    const repeat = await identifyPin(null, dataUrl(photo));
    expect(repeat.imageId).toBe(result.imageId);
    expect((await getImageVariant(repeat.imageId, 'thumb', 'webp')).width).toBeLessThanOrEqual(320);
  });

  it('answers no match for a pin that is not in the catalogue, and stores it without a pin', async () => {
    const unknown = await phonePhoto(await pinArtwork(9090, 'WOMBATS', 1999));
    const result = await identifyPin(null, dataUrl(unknown));
    expect(result.identified).toBe(false);
    expect(result.pin).toBeNull();
    expect(result.confidence).toBe(0);
    expect(result.message.length).toBeGreaterThan(0);
    expect(result.analysis.description.length).toBeGreaterThan(0);
    const row = await db().select().from(identifications).where(eq(identifications.id, result.identificationId)).get();
    expect(row?.pinId).toBeNull();
  });

  it('a new pin created through createPin is identified on the next photo (no restart)', async () => {
    const art = await pinArtwork(4242, 'GATORS', 2024);
    const photo = dataUrl(await phonePhoto(art, { rotate: 15 }));
    const first = await identifyPin(null, photo);
    expect(first.identified).toBe(false);
    // the vendor adds it from the no-match result: the identification photo is its first photo
    const created = await createPin(vendor, {
      name: 'Lakeside Gators 14U - Myrtle Beach 2024',
      description: 'New pin',
      organizationName: 'Lakeside Gators',
      images: [`/images/${first.imageId}`, art],
    });
    const features = await db().select().from(imageFeatures);
    expect(features.some((f) => f.imageId === first.imageId)).toBe(true);
    const next = await identifyPin(null, dataUrl(await phonePhoto(art, { rotate: -20, size: 300 })));
    expect(next.identified).toBe(true);
    expect(next.pin?.id).toBe(created.id);

    // removed pins are no longer matched
    await removePinFromIndex(created.id);
    const gone = await identifyPin(null, dataUrl(await phonePhoto(art, { rotate: 5 })));
    expect(gone.pin?.id).not.toBe(created.id);
    expect((await getVisualIndex()).size).toBeGreaterThan(0);
  });

  it('decodes, in the background, the references whose features an earlier version stored without their pixels', async () => {
    const [image] = (await db().select({ images: pins.images }).from(pins).where(eq(pins.id, knownPinId)).get())!.images;
    const stored = await db().select({ pixels: imageFeatures.pixels }).from(imageFeatures).where(eq(imageFeatures.imageId, image)).get();
    expect(stored?.pixels?.length).toBeGreaterThan(1000);
    await db().update(imageFeatures).set({ pixels: null }).where(eq(imageFeatures.imageId, image));
    // until then, the match decodes the reference: the pin is still named
    const before = await identifyPin(null, dataUrl(await phonePhoto(knownArt, { rotate: 9, size: 330 })));
    expect(before.pin?.id).toBe(knownPinId);
    expect(await storeMissingPixels()).toBeGreaterThanOrEqual(1);
    const after = await db().select({ pixels: imageFeatures.pixels }).from(imageFeatures).where(eq(imageFeatures.imageId, image)).get();
    expect(after?.pixels).toEqual(stored?.pixels);
    expect(await storeMissingPixels()).toBe(0);
  });

  it('makes again, in the background, the pixels an earlier version stored without a tint channel or a pin mask', async () => {
    const [image] = (await db().select({ images: pins.images }).from(pins).where(eq(pins.id, knownPinId)).get())!.images;
    const stored = await db().select({ pixels: imageFeatures.pixels }).from(imageFeatures).where(eq(imageFeatures.imageId, image)).get();
    for (const [k, form] of ([1, 2] as const).entries()) {
      await db()
        .update(imageFeatures)
        .set({ pixels: Buffer.from(earlierFormPixels(stored!.pixels!, form)) })
        .where(eq(imageFeatures.imageId, image));
      // the earlier form still reads meanwhile: the pin is named
      const before = await identifyPin(null, dataUrl(await phonePhoto(knownArt, { rotate: -7 + k, size: 330 })));
      expect(before.pin?.id).toBe(knownPinId);
      expect(await storeMissingPixels()).toBeGreaterThanOrEqual(1);
      const after = await db().select({ pixels: imageFeatures.pixels }).from(imageFeatures).where(eq(imageFeatures.imageId, image)).get();
      expect(after?.pixels).toEqual(stored?.pixels);
      expect(await storeMissingPixels()).toBe(0);
    }
  });

  it('a pin added with nothing but the phone photo that found no match is identified on the next photo', async () => {
    const art = await pinArtwork(5151, 'COMETS', 2023);
    const first = await identifyPin(null, dataUrl(await phonePhoto(art, { rotate: 12, size: 260, cutOut: true })));
    expect(first.identified).toBe(false);
    // its only reference is the photo: the pin on a striped table, a small part of the frame
    const created = await createPin(vendor, { name: 'Hillcrest Comets 11U - Omaha 2023', organizationName: 'Hillcrest Comets', images: [`/images/${first.imageId}`] });
    const next = await identifyPin(null, dataUrl(await phonePhoto(art, { rotate: -28, size: 360, cutOut: true })));
    expect(next.pin?.id).toBe(created.id);
    expect(next.identified).toBe(true);
    // a photo of another pin is not taken for it
    const other = await identifyPin(null, dataUrl(await phonePhoto(knownArt, { rotate: 20, cutOut: true })));
    expect(other.pin?.id).toBe(knownPinId);
  });

  it('counts toward a signed-in user’s stats and badges in the same write', async () => {
    const player = asSession(await createUser());
    const result = await identifyPin(player, dataUrl(await phonePhoto(knownArt, { rotate: 3 })));
    expect(result.identified).toBe(true);
    expect(result.newlyUnlockedBadges.map((b) => b.name)).toContain('First Identification');
    const stats = await db().select().from(userStats).where(eq(userStats.userId, player.id)).get();
    expect(stats?.totalIdentifications).toBe(1);
    expect(stats?.successfulIdentifications).toBe(1);
    const row = await db().select().from(identifications).where(eq(identifications.id, result.identificationId)).get();
    expect(row?.userId).toBe(player.id);
  });

  it('completes the day’s identification challenge and says so with the answer', async () => {
    // a day far from today whose set asks for one identification
    const { noon, rule: spotter } = dayWith('identify_pins', { from: '2031-01-01', target: 1 });
    const player = asSession(await createUser());
    const first = await identifyPin(player, dataUrl(await phonePhoto(knownArt, { rotate: 2 })), { now: noon });
    expect(first.completedChallenges).toEqual([expect.objectContaining({ name: spotter.name, reward: spotter.reward })]);
    expect(identificationToasts(first)).toContainEqual({ title: 'Challenge Complete!', description: `"${spotter.name}" is done: +${spotter.reward} points.`, variant: 'success' });
    // paid once: a second photo that day completes nothing
    const second = await identifyPin(player, dataUrl(await phonePhoto(knownArt, { rotate: 4 })), { now: noon });
    expect(second.completedChallenges).toEqual([]);
    expect(identificationToasts(second).map((t) => t.title)).not.toContain('Challenge Complete!');
    // a visitor's photo counts for nobody
    expect((await identifyPin(null, dataUrl(await phonePhoto(knownArt, { rotate: 6 })), { now: noon })).completedChallenges).toEqual([]);
  });

  it('offers the near-identical pins of an ambiguous photo to choose from, apart from the pins that are only similar', async () => {
    // two pins with one picture (a pin sold in two editions), and its design with another team name and banner
    const twin = await pinArtwork(6161, 'HERONS', 2022);
    const royal = await createPin(vendor, { name: 'Bay City Herons 12U - Omaha 2022 (Royal)', organizationName: 'Bay City Herons', images: [twin] });
    // the same picture: the store keeps one copy, which both pins reference
    const navy = await createPin(vendor, { name: 'Bay City Herons 12U - Omaha 2022 (Navy)', organizationName: 'Bay City Herons', images: [twin] });
    expect(navy.images).toEqual(royal.images);
    const cousin = await createPin(vendor, {
      name: 'Bay City Ospreys 12U - Omaha 2022',
      organizationName: 'Bay City Ospreys',
      images: [await pinArtwork(6161, 'OSPREYS', 2022, { banner: '#1e3a8a' })],
    });
    const result = await identifyPin(null, dataUrl(await phonePhoto(twin, { rotate: 12 })));
    expect(result.outcome).toBe('ambiguous');
    expect(result.identified).toBe(false);
    const flags = new Map(result.similarPins.map((s) => [s.pin.id, s.nearIdentical]));
    expect(flags.get(royal.id)).toBe(true);
    expect(flags.get(navy.id)).toBe(true);
    expect(flags.get(cousin.id)).toBe(false);
    // the near-identical pins come first, and the message counts them alone
    expect(result.similarPins.slice(0, 2).map((s) => s.pin.id).sort()).toEqual([royal.id, navy.id].sort());
    expect(result.message).toBe('This pin is one of 2 near-identical pins. Check the team name and year on your pin and choose it below.');
    expect(result.analysis.analysis).toContain('matches 2 near-identical pins');
    // shown again, the same
    const again = await getIdentificationResult(result.identificationId);
    expect(again.similarPins.map((s) => [s.pin.id, s.nearIdentical])).toEqual(result.similarPins.map((s) => [s.pin.id, s.nearIdentical]));
    // loaded again from the database (as at a restart), both pins still share the picture
    const reloaded = storeBackedIndex(null);
    await loadStoredFeatures(reloaded);
    const again2 = await reloaded.match(await phonePhoto(twin, { rotate: -10 }));
    expect(again2.reason).toBe('ambiguous');
    expect([...(again2.family ?? [])].sort()).toEqual([royal.id, navy.id].sort());
    // the choice is recorded; the answer then names the pin and flags nothing
    const chosen = await chooseIdentifiedPin(null, result.identificationId, navy.id);
    expect(chosen.identified).toBe(true);
    expect(chosen.pin?.id).toBe(navy.id);
    expect(chosen.similarPins.every((s) => s.nearIdentical === undefined)).toBe(true);
    for (const id of [royal.id, navy.id, cousin.id]) await removePinFromIndex(id);
  });

  it('offers the closest pins when none matches, and lets the photographer choose among them only', async () => {
    // the known pin's design with another year: not named, the pin offered first
    const otherYear = await identifyPin(null, dataUrl(await phonePhoto(await pinArtwork(101, 'FALCONS', 2004), { rotate: 8 })));
    expect(otherYear.identified).toBe(false);
    expect(otherYear.outcome).toBe('no_match');
    expect(otherYear.similarPins[0]?.pin.id).toBe(knownPinId);
    expect(otherYear.similarPins[0]?.matchScore).toBeLessThan(50);
    expect((await statusOf(chooseIdentifiedPin(null, otherYear.identificationId, 'not-a-candidate'))).status).toBe(400);
    const chosen = await chooseIdentifiedPin(null, otherYear.identificationId, knownPinId);
    expect(chosen.identified).toBe(true);
    expect(chosen.pin?.id).toBe(knownPinId);
    expect(chosen.similarPins.map((s) => s.pin.id)).not.toContain(knownPinId);
  });
});

describe('the similar pins an answer shows', () => {
  const scores = new Map([['a', 90], ['b', 45], ['c', 29], ['d', 20], ['e', 17], ['f', 31], ['g', 60]]);
  const scoreOf = (id: string) => scores.get(id) ?? 0;
  const none = new Set<string>();

  it('beside a named pin: the others from 30, never the pin itself, at most 4', () => {
    expect(shownSimilar('match', ['a', 'b', 'c', 'd', 'e'], scoreOf, { bestId: 'a', family: none })).toEqual(['b']);
    expect(shownSimilar('match', ['a', 'b', 'f', 'g', 'c', 'b2'], (id) => (id === 'b2' ? 40 : scoreOf(id)), { bestId: null, family: none })).toEqual(['a', 'b', 'f', 'g']);
  });

  it('when none is named: the closest pins from 18, with what little evidence they have', () => {
    expect(shownSimilar('no_match', ['b', 'c', 'd', 'e'], scoreOf, { bestId: null, family: none })).toEqual(['b', 'c', 'd']);
    expect(SUGGESTION_MIN_SCORE).toBeLessThan(SIMILAR_MIN_SCORE);
  });

  it('an ambiguous answer: its family always, the pins only similar from 30', () => {
    expect(shownSimilar('ambiguous', ['d', 'e', 'b', 'c'], scoreOf, { bestId: null, family: new Set(['d', 'e']) })).toEqual(['d', 'e', 'b']);
    // the family comes first whatever the candidates' order
    expect(shownSimilar('ambiguous', ['b', 'd', 'g', 'e'], scoreOf, { bestId: null, family: new Set(['d', 'e']) })).toEqual(['d', 'e', 'b', 'g']);
  });
});

describe('AI analysis (OpenAI-compatible stub)', () => {
  let server: http.Server;
  let baseUrl: string;
  let mode: 'ok' | 'fail' | 'slow' = 'ok';
  const seen: { auth?: string; model?: string; hasImage: boolean }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const parsed = JSON.parse(body || '{}') as { model?: string; messages?: { content?: { type: string }[] }[] };
        seen.push({
          auth: req.headers.authorization,
          model: parsed.model,
          hasImage: !!parsed.messages?.[0]?.content?.some((c) => c.type === 'image_url'),
        });
        if (mode === 'fail') {
          res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":{"message":"model crashed"}}');
          return;
        }
        const answer = {
          name: 'Springfield Falcons 2019',
          description: 'A round gold pin with a falcon on red enamel.',
          features: ['Round shape', 'Gold metal'],
          text: ['FALCONS', '2019'],
          team: 'Falcons',
          year: 2019,
          tournament: 'Cooperstown',
          confidence: 88,
        };
        const send = () =>
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(
            JSON.stringify({
              id: 'chatcmpl-test',
              object: 'chat.completion',
              created: 0,
              model: parsed.model,
              choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(answer) } }],
            }),
          );
        if (mode === 'slow') setTimeout(send, 6000).unref();
        else send();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const configure = () => {
    process.env.AI_BASE_URL = baseUrl;
    process.env.AI_API_KEY = 'test-key';
    process.env.AI_MODEL = 'vision-test';
  };

  it('enriches the analysis when configured and working', async () => {
    configure();
    mode = 'ok';
    seen.length = 0;
    const result = await identifyPin(null, dataUrl(await phonePhoto(knownArt)));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ auth: 'Bearer test-key', model: 'vision-test', hasImage: true });
    expect(result.serviceUnavailable).toBe(false);
    expect(result.identified).toBe(true);
    expect(result.analysis.description).toBe('A round gold pin with a falcon on red enamel.');
    expect(result.analysis.features).toEqual(expect.arrayContaining(['Round shape', 'Gold metal']));
    expect(result.analysis.features.join(' ')).toContain('FALCONS');
  });

  it('still returns the visual result with serviceUnavailable when the AI fails', async () => {
    configure();
    mode = 'fail';
    const result = await identifyPin(null, dataUrl(await phonePhoto(knownArt)));
    expect(result.serviceUnavailable).toBe(true);
    expect(result.message).toBe(AI_UNAVAILABLE_MESSAGE);
    expect(result.identified).toBe(true);
    expect(result.pin?.id).toBe(knownPinId);
  });

  it('gives up after AI_TIMEOUT_MS', async () => {
    configure();
    process.env.AI_TIMEOUT_MS = '300';
    mode = 'slow';
    const started = Date.now();
    const result = await identifyPin(null, dataUrl(await phonePhoto(knownArt)));
    // the stub answers after 6 s: the answer came long before, with the local engine's result
    expect(Date.now() - started).toBeLessThan(4000);
    expect(result.serviceUnavailable).toBe(true);
    expect(result.identified).toBe(true);
  });

  it('is complete from the local engine when not configured', async () => {
    seen.length = 0;
    const result = await identifyPin(null, dataUrl(await phonePhoto(knownArt)));
    expect(seen).toHaveLength(0);
    expect(result.serviceUnavailable).toBe(false);
    expect(result.analysis.name).toBe('Springfield Falcons 12U - Cooperstown 2019');
    expect(result.analysis.features.length).toBeGreaterThan(0);
    expect(result.analysis.analysis.length).toBeGreaterThan(0);
  });

  it('uses the text the model read to choose among near-identical family members', () => {
    const family = [
      { pinId: 'a', name: 'Maple Grove Rabbits 12U - Omaha Road Trip 2017', description: 'text "RABBITS", "12U 2017"', year: 2017, event: 'Omaha Road Trip' },
      { pinId: 'b', name: 'Maple Grove Rabbits 12U - Omaha Road Trip 2018', description: 'text "RABBITS", "12U 2018"', year: 2018, event: 'Omaha Road Trip' },
      { pinId: 'c', name: 'Maple Grove Rabbits 12U - Omaha Road Trip 2020', description: 'text "RABBITS", "12U 2020"', year: 2020, event: 'Omaha Road Trip' },
    ];
    const read = (text: string[], year: number | null) => ({ name: 'Rabbits pin', text, team: 'Rabbits', year, tournament: null, description: '' });
    expect(pickCandidateByText(read(['MAPLE GROVE RABBITS', '12U 2018'], 2018), family)).toBe('b');
    // nothing distinguishing read: no guess
    expect(pickCandidateByText(read(['RABBITS'], null), family)).toBeNull();
  });
});

describe('catalogue import', () => {
  it('creates organizations and pins, updates existing ones, skips bad rows whole with their line, extracts features', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pindex-import-'));
    fs.mkdirSync(path.join(dir, 'img'));
    fs.writeFileSync(path.join(dir, 'img/a.jpg'), await pinArtwork(5001, 'OWLS'));
    fs.writeFileSync(path.join(dir, 'img/b.jpg'), await pinArtwork(5002, 'MOOSE'));
    fs.writeFileSync(path.join(dir, 'img/b2.jpg'), await pinArtwork(5003, 'MOOSE'));
    const header = 'name,organization,description,rarity,year,event,estimated_value,total_quantity,images';
    fs.writeFileSync(
      path.join(dir, 'cat.csv'),
      [
        header,
        'Import Owls 2019,Import League,"Round pin; text ""OWLS""",rare,2019,Summer Slam,12.50,80,img/a.jpg',
        'Import Moose 2020,Import League,"Two lines',
        'of description",,2020,,,300,img/b.jpg|img/b2.jpg',
        'Bad Year Pin,Import League,desc,,1850,,,10,img/a.jpg',
        'Missing Image Pin,Import League,desc,,2010,,,10,img/nope.jpg',
        ',Import League,no name,,2010,,,10,',
      ].join('\n'),
    );
    const log: string[] = [];
    const first = await importCatalogue(path.join(dir, 'cat.csv'), (l) => log.push(l));
    expect(first.created).toBe(2);
    expect(first.skipped.map((s) => s.line)).toEqual([5, 6, 7]);
    expect(first.skipped[0].message).toMatch(/year/);
    expect(first.skipped[1].message).toMatch(/image not found: img\/nope.jpg/);
    expect(first.skipped[2].message).toMatch(/name is required/);
    expect(log.some((l) => l.includes('created Import Owls 2019'))).toBe(true);
    const owls = await db().select().from(pins).where(eq(pins.name, 'Import Owls 2019')).get();
    expect(owls).toMatchObject({ rarity: 'rare', year: 2019, event: 'Summer Slam', estimatedValueCents: 1250, totalQuantity: 80 });
    const moose = await db().select().from(pins).where(eq(pins.name, 'Import Moose 2020')).get();
    expect(moose?.description).toBe('Two lines\nof description');
    expect(moose?.images).toHaveLength(2);
    const org = await db().select().from(organizations).where(eq(organizations.name, 'Import League')).all();
    expect(org).toHaveLength(1);
    const features = await db().select({ imageId: imageFeatures.imageId, pixels: imageFeatures.pixels }).from(imageFeatures);
    for (const id of [...owls!.images, ...moose!.images]) {
      expect(features.map((f) => f.imageId)).toContain(id);
      // with the reference decoded once for the match
      expect(features.find((f) => f.imageId === id)?.pixels?.length).toBeGreaterThan(1000);
    }

    // the same name + organization updates the pin instead of adding another
    fs.writeFileSync(path.join(dir, 'cat.csv'), [header, 'Import Owls 2019,import league,Updated,,2019,,,500,img/a.jpg'].join('\n'));
    const second = await importCatalogue(path.join(dir, 'cat.csv'), () => undefined);
    expect(second).toMatchObject({ created: 0, updated: 1 });
    const again = await db().select().from(pins).where(eq(pins.name, 'Import Owls 2019')).all();
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ id: owls!.id, description: 'Updated', totalQuantity: 500, rarity: 'uncommon' });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
