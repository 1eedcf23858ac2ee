/**
 * The visual engine on its own (no database): generated pins, phone-like photos of them.
 * What a collector would notice: the right pin is named; a text-only variant that is not in the
 * catalogue (another team name on the same design) is not passed off as the catalogue pin; glare
 * on the photo does not lose the right pin; nor does a spinner that has turned.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_STEP, detailCheck, makeReferenceDetail, pinMask, referenceLayout, smearedReference } from '~/services/identification/detail.server';
import { extractFeatures, looksAgain, outnumbers, plausibleRivals, quickRank, shortlistPlace, unlistedLooks, VisualIndex } from '~/services/identification/engine.server';
import { decodeReference, toGray } from '~/services/identification/features.server';
import { getCV } from '~/services/identification/opencv.server';
import { motionBlurred, phonePhoto, photoOfPins, pinArtwork } from '../support/identify';

const GAIN = 1.8; // light enamel saturates at this exposure
const refs = new Map<string, Buffer>();
let index: VisualIndex;

async function addPin(pinId: string, picture: Buffer) {
  refs.set(pinId, picture);
  index.add({ imageId: pinId, pinId, features: await extractFeatures(picture) });
}

/** The photo with a bright reflection (a near-white ellipse) offset (dx, dy) from its centre. */
async function withReflection(photo: Buffer, dx: number, dy: number, rx: number, ry: number): Promise<Buffer> {
  const meta = await sharp(photo).metadata();
  const glare = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${meta.width}" height="${meta.height}">` +
      `<ellipse cx="${(meta.width ?? 0) / 2 + dx}" cy="${(meta.height ?? 0) / 2 + dy}" rx="${rx}" ry="${ry}" fill="#ffffff" fill-opacity="0.95"/></svg>`,
  );
  return sharp(photo).composite([{ input: glare }]).jpeg({ quality: 80 }).toBuffer();
}

/** The photo through a tone curve (each channel to this power: under 1 lifts the darks) and a colour cast. */
async function toneCurve(photo: Buffer, power: number, cast: number[]): Promise<Buffer> {
  const { data, info } = await sharp(photo).raw().toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i++) data[i] = Math.min(255, Math.round(255 * Math.pow(data[i] / 255, power) * cast[i % 3]));
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

/** The picture (512 px) with a dark blot (an ellipse) on the pin itself: a smudge, a chip in the enamel. */
async function blot(picture: Buffer, cx: number, cy: number, rx: number, ry: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="#000000"/></svg>`;
  return sharp(picture).composite([{ input: Buffer.from(svg) }]).jpeg({ quality: 92 }).toBuffer();
}

/**
 * The picture (512 px) with streaks of light (white bands, 4 px wide every 10 px, at 60% opacity) across
 * the band between y0 and y1: a reflection of blinds or a scratched sleeve over part of the pin.
 */
async function streaked(picture: Buffer, y0: number, y1: number): Promise<Buffer> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><defs>' +
    '<pattern id="s" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(35)">' +
    '<rect width="4" height="10" fill="#ffffff" fill-opacity="0.6"/></pattern></defs>' +
    `<rect x="40" y="${y0}" width="432" height="${y1 - y0}" fill="url(#s)"/></svg>`;
  return sharp(picture).composite([{ input: Buffer.from(svg) }]).jpeg({ quality: 92 }).toBuffer();
}

beforeAll(async () => {
  index = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
  await addPin('eagles', await pinArtwork(31, 'EAGLES', 2019));
  for (const seed of [32, 33, 34, 35]) await addPin(`pin-${seed}`, await pinArtwork(seed));
  await addPin('spinner', await pinArtwork(41, 'SPINNERS', 2021, { spin: 0 }));
}, 60_000);

describe('visual engine', () => {
  it('names the pin in a rotated, scaled photo with a confidence of at least 50', async () => {
    const result = await index.match(await phonePhoto(await pinArtwork(31, 'EAGLES', 2019), { rotate: 14, size: 340 }));
    expect(result.reason).toBe('match');
    expect(result.best?.pinId).toBe('eagles');
    expect(result.best?.confidence).toBeGreaterThanOrEqual(50);
    expect(result.best?.confidence).toBeLessThanOrEqual(100);
  });

  it('names the pin in a photo smeared by the phone moving while the shutter was open', async () => {
    // both are answered "no match" when the photo's features are found on the smeared photo itself
    for (const [size, length] of [
      [220, 16],
      [300, 22],
    ] as const) {
      const result = await index.match(await motionBlurred(await phonePhoto(await pinArtwork(33), { rotate: 20, size }), length, 141));
      expect(result.reason, `a ${size} px pin smeared over ${length} px`).toBe('match');
      expect(result.best?.pinId).toBe('pin-33');
    }
  });

  it('lets a most-voted image matched exhaustively into a full shortlist only in place of its weakest image, when it counts more inliers', () => {
    expect(shortlistPlace([30, 12, 9, 14], 11, 4)).toBe(2);
    expect(shortlistPlace([30, 12, 9, 14], 9, 4)).toBe(-1);
    expect(shortlistPlace([30, 9, 12, 9], 10, 4)).toBe(3); // the last of equally weak ones (the least voted)
    expect(shortlistPlace([30, 12], 5, 4)).toBe(2); // room left: after the others
  });

  it('looks again, on a no-match photo, at the references of the pins it suggests by appearance that the vote left out, and weighs one only when the photo finds it more strongly than every candidate, all of them weak', () => {
    const ref = (pinId: string, side = 'front') => ({ pinId, side });
    const a = ref('a'), aBack = ref('a', 'back'), b = ref('b'), c = ref('c'), d = ref('d'), e = ref('e'), listedPin = ref('f');
    const catalogue = [a, aBack, b, c, d, e, listedPin];
    const closest = ['f', 'a', 'b', 'c', 'd', 'e'].map((pinId) => ({ pinId }));
    // as many pins as an answer suggests (four), every reference of each, none already shortlisted
    expect(unlistedLooks(closest, catalogue, new Set([listedPin]))).toEqual([a, aBack, b, c]);
    expect(unlistedLooks([], catalogue, new Set())).toEqual([]);
    // the strongest candidate, refused, counted 18 inliers
    expect(outnumbers(38, 18)).toBe(true);
    expect(outnumbers(18, 18)).toBe(false);
    // below the fine check's 12 inliers, not even when no candidate counted any
    expect(outnumbers(11, 0)).toBe(false);
    expect(outnumbers(12, 0)).toBe(true);
    // only when the vote found no pin strongly: a pin of 50 inliers or more refused is not looked past
    expect(looksAgain(18)).toBe(true);
    expect(looksAgain(49)).toBe(true);
    expect(looksAgain(50)).toBe(false);
  });

  it('ranks a quick fit whose inliers bunch in a corner of the pin below one whose inliers spread over it', () => {
    const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    // 20 correspondences within a 10 px square of a 400 x 400 px pin, 16 spread over most of its face
    const bunched = { src: Array.from({ length: 40 }, (_, k) => 100 + ((k * 7) % 10)), dst: [] as number[] };
    bunched.dst = [...bunched.src];
    const spread = { src: Array.from({ length: 32 }, (_, k) => (k % 2 === 0 ? 50 + (k % 8) * 50 : 50 + Math.floor(k / 8) * 100)), dst: [] as number[] };
    spread.dst = [...spread.src];
    const area = 400 * 400;
    expect(quickRank(spread, { inliers: 16, H: identity }, area)).toBe(16);
    expect(quickRank(bunched, { inliers: 20, H: identity }, area)).toBeLessThan(20 / 2);
    // no fit counts nothing
    expect(quickRank(spread, { inliers: 0, H: null }, area)).toBe(0);
  });

  it('lets a colour variant found with a third of the inliers duel for the photo when the strongest pin\'s colours are not the photo\'s', () => {
    // the public set's photo of a cardinal and yellow pin: its teal and black variant counted 77 inliers
    // and aligned with a colour residual of 26, the cardinal one 27 inliers and a residual of 6
    const teal = { id: 'teal', inliers: 77, resid: 26 };
    const cardinal = { id: 'cardinal', inliers: 27, resid: 6 };
    const other = { id: 'other design', inliers: 20, resid: 7 };
    const byResid = <V extends { resid: number }>(vs: V[]) => vs.slice().sort((a, b) => a.resid - b.resid);
    const variants = (a: { id: string }, b: { id: string }) => [a.id, b.id].every((id) => id === 'teal' || id === 'cardinal');
    expect(plausibleRivals(byResid([teal, cardinal, other]), variants).map((v) => v.id)).toEqual(['cardinal']);
    // not its look-alike: no rival on so few inliers, and nothing is named
    expect(plausibleRivals(byResid([teal, other]), variants)).toEqual([]);
    // both variants' colours agree: the bar stays, the strongest alone is a rival
    const tealClose = { ...teal, resid: 7 };
    expect(plausibleRivals(byResid([tealClose, cardinal]), variants).map((v) => v.id)).toEqual(['teal']);
  });

  it('names a small pin in a soft photo, of which the vote finds few correspondences, and still refuses another team name there', async () => {
    // a pin about 105 px across, blurred: its descriptors land in neighbouring visual words, and the
    // vote's correspondences count under a dozen inliers; matched with every photo descriptor, it is
    // named (these photos were answered "no match" before)
    const soft = async (name: string, size: number, rotate: number) =>
      sharp(await phonePhoto(await pinArtwork(31, name, 2019), { rotate, size })).blur(1.2).jpeg({ quality: 85 }).toBuffer();
    for (const [size, rotate] of [
      [105, -8],
      [110, -25],
    ] as const) {
      const result = await index.match(await soft('EAGLES', size, rotate));
      expect(result.best?.pinId, `a ${size} px pin turned ${rotate} degrees`).toBe('eagles');
      const other = await index.match(await soft('HAWKS', size, rotate));
      expect(other.best, `another team name, ${size} px`).toBeNull();
    }
  });

  it('does not pass another team name on the same design off as the catalogue pin', async () => {
    const result = await index.match(await phonePhoto(await pinArtwork(31, 'RAVENS', 2019), { rotate: 14, size: 340 }));
    expect(result.best).toBeNull();
    // the look-alike is still offered as a suggestion, below the acceptance range
    expect(result.candidates[0]?.pinId).toBe('eagles');
    expect(result.candidates[0]?.score).toBeLessThan(50);
  });

  it('does not pass another year of the same pin off as the catalogue pin', async () => {
    // one changed digit (9 -> 8): the tile grid cuts it into pieces that each still correlate; the digit's
    // own box correlates far less than the other letters of the same sharp photo
    const result = await index.match(await phonePhoto(await pinArtwork(31, 'EAGLES', 2018), { rotate: 14, size: 340 }));
    expect(result.best).toBeNull();
    expect(result.candidates[0]?.pinId).toBe('eagles');
  });

  it('does not pass a year with another last digit off as the catalogue pin, in a sharp photo or a soft one', async () => {
    // a 0 where the catalogue prints a 9 correlates clearly less than the rest of its row (about 0.7 against
    // 0.97 and more), though above what the pin's other letters alone would call another letter
    for (const [size, blur] of [[300, 0], [260, 1.2], [340, 0.8]]) {
      const photo = await phonePhoto(await pinArtwork(31, 'EAGLES', 2010), { rotate: 14, size });
      const result = await index.match(blur ? await sharp(photo).blur(blur).jpeg({ quality: 85 }).toBuffer() : photo);
      expect(result.best).toBeNull();
      expect(result.candidates[0]?.pinId).toBe('eagles');
    }
  });

  it('reads a year printed along the ring\'s arc, whose turned letters stand in no row', async () => {
    // each letter of an arc stands higher or lower than the next, so no two of its last ones shared a
    // row and the year's digits were never compared: another year passed as the catalogue pin
    const art = (year: number) => pinArtwork(52, 'HAWKS', 2012, { arc: `OPEN ${year}` });
    const ring = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
    refs.set('hawks-ring', await art(2014));
    for (const id of ['hawks-ring', 'pin-32', 'pin-33']) ring.add({ imageId: id, pinId: id, features: await extractFeatures(refs.get(id) as Buffer) });
    const photo = async (year: number) => phonePhoto(await art(year), { rotate: 12, size: 360 });
    expect((await ring.match(await photo(2014))).best?.pinId).toBe('hawks-ring');
    const other = await ring.match(await photo(2016));
    expect(other.best).toBeNull();
    expect(other.candidates[0]?.pinId).toBe('hawks-ring');
  });

  it('finds a line of lettering that the pin\'s homography leaves a few pixels off, and still tells another year there', async () => {
    // the photo as warped onto the catalogue picture, its year's band 7 px lower than the homography
    // puts it (a pin that is not flat, a fit that leans on a spinner): beyond one letter's own search,
    // each digit looked for alone was another digit, and the right pin was refused as another year
    const cv = await getCV();
    const grayOf = async (year: number) => {
      const { data, info } = await sharp(await pinArtwork(31, 'EAGLES', year)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const img = { data: new Uint8Array(data), width: info.width, height: info.height };
      return { img, gray: toGray(img) };
    };
    const { img, gray } = await grayOf(2019);
    const ref = makeReferenceDetail(gray, img.width, img.height, referenceLayout(cv, img, gray));
    const W = img.width;
    const yearLower = (g: Uint8Array) => {
      const out = g.slice();
      for (let y = 157; y >= 107; y--) out.copyWithin(y * W, (y - 7) * W, (y - 6) * W);
      return out;
    };
    const valid = new Uint8Array(gray.length).fill(255);
    const same = detailCheck(cv, yearLower(gray), valid, ref);
    expect(same.wrongLetters).toBe(0);
    const other = detailCheck(cv, yearLower((await grayOf(2018)).gray), valid, ref);
    expect(other.lineEndLetters).toBeGreaterThan(0);
  });

  it('compares a photo smeared by the phone\'s motion with the reference smeared alike: the pin passes, another year does not', async () => {
    // a Gaussian blur of the reference, all the check tried before, leaves the streaks of a smeared photo
    // uncorrelated: the letters fall below what it reads, and the tiles below "close"
    const cv = await getCV();
    const grayOf = async (picture: Buffer) => {
      const { data, info } = await sharp(picture).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const img = { data: new Uint8Array(data), width: info.width, height: info.height };
      return { img, gray: toGray(img) };
    };
    const { img, gray } = await grayOf(await pinArtwork(31, 'EAGLES', 2019));
    const ref = makeReferenceDetail(gray, img.width, img.height, referenceLayout(cv, img, gray));
    const motion = { angle: 30, length: 18 };
    const photo = (await grayOf(await motionBlurred(await pinArtwork(31, 'EAGLES', 2019), motion.length, motion.angle))).gray;
    const valid = new Uint8Array(gray.length).fill(255);
    const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    const smeared = smearedReference(ref, identity, motion);
    const plain = detailCheck(cv, photo, valid, ref);
    const alike = detailCheck(cv, photo, valid, smeared);
    expect(alike.median).toBeGreaterThan(plain.median);
    expect(alike.notClose).toBeLessThan(plain.notClose);
    expect(alike.wrongLetters).toBe(0);
    expect(alike.lettersRead).toBeGreaterThan(plain.lettersRead);
    const other = (await grayOf(await motionBlurred(await pinArtwork(31, 'EAGLES', 2018), motion.length, motion.angle))).gray;
    expect(detailCheck(cv, other, valid, smeared).lineEndLetters).toBeGreaterThan(0);
  });

  it('names the pin when a blot hides a digit inside its year, and still refuses another tens digit', async () => {
    // a catalogue pin's look-alike that is not in the catalogue prints another name (many letters) or
    // another year (the last digits of a line); one digit spoiled inside the line is the pin's own damage
    const blotted = await blot(await pinArtwork(31, 'EAGLES', 2019), 244, 128, 10, 12); // over the 0 of 2019
    const result = await index.match(await phonePhoto(blotted, { rotate: 14, size: 340 }));
    expect(result.best?.pinId).toBe('eagles');
    const decade = await index.match(await phonePhoto(await pinArtwork(31, 'EAGLES', 2029), { rotate: 14, size: 340 }));
    expect(decade.best).toBeNull();
    expect(decade.candidates[0]?.pinId).toBe('eagles');
  });

  it('names the pin when a blot hides a digit inside its year and the catalogue holds its design with another team name, not with another year', async () => {
    // one spoiled letter inside a line is the pin's own damage; but a look-alike of another year at the
    // same place may be what the photo shows, its deciding digit missed by the letters. A look-alike
    // that prints another team name (five letters of six otherwise) is told apart by the name itself
    const blotted = await blot(await pinArtwork(31, 'EAGLES', 2019), 244, 128, 10, 12);
    for (const [rival, team, year] of [['bisons', 'BISONS', 2019], ['eagles-2018', 'EAGLES', 2018]] as const) {
      const pair = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
      for (const [pinId, picture] of [['eagles', await pinArtwork(31, 'EAGLES', 2019)], [rival, await pinArtwork(31, team, year)]] as const) {
        refs.set(pinId, picture);
        pair.add({ imageId: pinId, pinId, features: await extractFeatures(picture) });
      }
      const result = await pair.match(await phonePhoto(blotted, { rotate: 14, size: 340 }));
      if (rival === 'bisons') expect(result.best?.pinId).toBe('eagles');
      else expect(result.best).toBeNull();
      expect(result.candidates.map((c) => c.pinId).sort()).toEqual([rival, 'eagles'].sort());
    }
  });

  it('does not pass another team name off as the catalogue pin in an overexposed photo either', async () => {
    // the lettering printed on saturated enamel must still be compared, not left out as glare
    const overexposed = async (team: string) =>
      sharp(await phonePhoto(await pinArtwork(31, team, 2019), { rotate: -9, size: 360 })).linear(GAIN, 0).jpeg({ quality: 80 }).toBuffer();
    expect((await index.match(await overexposed('RAVENS'))).best).toBeNull();
    expect((await index.match(await overexposed('EAGLES'))).best?.pinId).toBe('eagles');
  });

  it('still names the pin when a reflection covers part of it', async () => {
    const photo = await phonePhoto(await pinArtwork(33), { rotate: -10, size: 360 });
    const result = await index.match(await withReflection(photo, -40, -60, 70, 28));
    expect(result.best?.pinId).toBe('pin-33');
  });

  it('does not pass another team name or year off as the catalogue pin when a reflection lies on it', async () => {
    // a reflection upsets the letters of the right pin too, but the letters must still refuse a changed name or year
    const reflected = async (team: string, year: number) =>
      withReflection(await phonePhoto(await pinArtwork(31, team, year), { rotate: 14, size: 340 }), 30, 40, 40, 16);
    expect((await index.match(await reflected('EAGLES', 2019))).best?.pinId).toBe('eagles');
    expect((await index.match(await reflected('RAVENS', 2019))).best).toBeNull();
    expect((await index.match(await reflected('EAGLES', 2018))).best).toBeNull();
  });

  it('names the pin when streaks of light cover the artwork between its year and its name, and still refuses another team name or year there', async () => {
    // the streaks leave over 40% of the detail check's tiles apart (a patch that alone refused the
    // pin); the colours agree and every letter that was read agrees, so the disagreement is the photo's own
    const photo = async (team: string, year: number) => phonePhoto(await streaked(await pinArtwork(31, team, year), 160, 330), { rotate: 14, size: 340 });
    expect((await index.match(await photo('EAGLES', 2019))).best?.pinId).toBe('eagles');
    expect((await index.match(await photo('RAVENS', 2019))).best).toBeNull();
    expect((await index.match(await photo('EAGLES', 2018))).best).toBeNull();
  });

  it('refuses another team name printed in a colour about as light as the enamel behind it, and names the pin under a colour cast', async () => {
    // teal letters on orange enamel are nearly one gray: compared in grayscale alone, RAVENS and
    // EAGLET were named EAGLES with a confidence of 98-99; on the colour axis that parts teal from
    // orange (the reference's tint) they are refused
    const art = (team: string) => pinArtwork(31, team, 2019, { banner: '#e8833a', ink: { fill: '#3cb9b4', line: '#555555' } });
    const tinted = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
    refs.set('eagles-teal', await art('EAGLES'));
    for (const id of ['eagles-teal', 'pin-32', 'pin-33']) tinted.add({ imageId: id, pinId: id, features: await extractFeatures(refs.get(id) as Buffer) });
    for (const gains of [[1, 1, 1], [1.12, 1, 0.85], [0.85, 1, 1.15]]) {
      const photo = async (team: string) => sharp(await phonePhoto(await art(team), { rotate: 14, size: 340 })).linear(gains, [0, 0, 0]).jpeg({ quality: 85 }).toBuffer();
      expect((await tinted.match(await photo('EAGLES'))).best?.pinId, `cast ${gains}`).toBe('eagles-teal');
      expect((await tinted.match(await photo('RAVENS'))).best, `cast ${gains}`).toBeNull();
    }
    expect((await tinted.match(await phonePhoto(await art('EAGLET'), { rotate: -20, size: 260 }))).best).toBeNull();
  });

  it('names a spinner pin whose centre has turned since the catalogue picture', async () => {
    const result = await index.match(await phonePhoto(await pinArtwork(41, 'SPINNERS', 2021, { spin: 70 }), { rotate: 12, size: 380 }));
    expect(result.best?.pinId).toBe('spinner');
  });

  it('names a pin whose baseball spinner has turned, and refuses another team name or year on it', async () => {
    // the ball's two seams are found as a row of two tall glyphs; turned, both read wrong, and the pin
    // was refused as another name would be. The 8 of 2018, printed where the pin has a 6, darkens its
    // box as a shadow would, but not the band around it
    const art = (team: string, year: number, spin: number) => pinArtwork(44, team, year, { spin, ball: true });
    const ball = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
    refs.set('dodgers-ball', await art('DODGERS', 2016, 0));
    for (const id of ['dodgers-ball', 'pin-32', 'pin-33']) ball.add({ imageId: id, pinId: id, features: await extractFeatures(refs.get(id) as Buffer) });
    const photo = async (team: string, year: number, spin: number) => phonePhoto(await art(team, year, spin), { rotate: -18, size: 240, quality: 70 });
    for (const spin of [45, 90]) expect((await ball.match(await photo('DODGERS', 2016, spin))).best?.pinId, `turned ${spin}`).toBe('dodgers-ball');
    expect((await ball.match(await photo('ROCKIES', 2016, 45))).best).toBeNull();
    expect((await ball.match(await photo('DODGERS', 2018, 45))).best).toBeNull();
  });

  it('names the year printed on the photo when the catalogue holds two years of one design', async () => {
    // the two look alike in colour and art, and the year is small: the colour duel at thumbnail size
    // cannot part them (it answered 'ambiguous'); the year's digits, compared at full resolution with
    // the photo under both references, can
    const family = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
    const smallYear = (year: number) => pinArtwork(31, 'EAGLES', year, { yearSize: 18 });
    for (const year of [2018, 2019]) {
      const picture = await smallYear(year);
      refs.set(`eagles-${year}`, picture);
      family.add({ imageId: `eagles-${year}`, pinId: `eagles-${year}`, features: await extractFeatures(picture) });
    }
    for (const year of [2018, 2019]) {
      const result = await family.match(await phonePhoto(await smallYear(year), { rotate: 14, size: 340 }));
      expect(result.best?.pinId).toBe(`eagles-${year}`);
      expect(result.candidates.map((c) => c.pinId)).toContain(`eagles-${2018 + 2019 - year}`);
    }
    // a year that is in neither: its 7 correlates better with the 9 than with the 8, but less than the
    // rest of the lettering does, so neither is named
    const other = await sharp(await phonePhoto(await smallYear(2017), { rotate: 14, size: 260 })).blur(1.5).jpeg({ quality: 85 }).toBuffer();
    const result = await family.match(other);
    expect(result.best).toBeNull();
    expect(result.candidates.map((c) => c.pinId).sort()).toEqual(['eagles-2018', 'eagles-2019']);
  });

  it('offers two pins that share one picture as the family to choose from, and a look-alike it told apart as only similar', async () => {
    // two catalogue pins with one picture (a pin sold in two editions: the store keeps the image once,
    // for both), and the same design with another team name and banner: a photo of the first two
    // cannot name either
    const catalogue = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
    const twin = await pinArtwork(61, 'HAWKS', 2020);
    const cousin = await pinArtwork(61, 'OWLS', 2020, { banner: '#1e3a8a' });
    refs.set('hawks', twin);
    refs.set('owls', cousin);
    const twinFeatures = await extractFeatures(twin);
    for (const pinId of ['hawks-royal', 'hawks-navy']) catalogue.add({ imageId: 'hawks', pinId, features: twinFeatures });
    catalogue.add({ imageId: 'owls', pinId: 'owls', features: await extractFeatures(cousin) });
    expect(catalogue.size).toBe(3);
    const result = await catalogue.match(await phonePhoto(twin, { rotate: 14, size: 340 }));
    expect(result.reason).toBe('ambiguous');
    expect(result.best).toBeNull();
    expect(result.candidates.map((c) => c.pinId)).toContain('owls');
    expect([...(result.family ?? [])].sort()).toEqual(['hawks-navy', 'hawks-royal']);
    // one edition withdrawn: the other is named
    catalogue.removePin('hawks-navy');
    expect((await catalogue.match(await phonePhoto(twin, { rotate: 14, size: 340 }))).best?.pinId).toBe('hawks-royal');
  });

  it('names the year the photo shows when the colours favour another year of its design, and still refuses a year that is in neither', async () => {
    // the catalogue's pictures of two years of one design show its banner in other shades (one picture
    // darker than the pin), and the photo's banner is the shade of the other year's picture: the colour
    // duel favours that year by far, and its detail check sees a digit of the year differ. The year's
    // digits, compared with the photo under each look-alike, name the year the photo shows
    const family = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
    for (const [year, banner] of [[2018, '#1f5c3a'], [2019, '#1a1a1a']] as const) {
      const picture = await pinArtwork(31, 'EAGLES', year, { banner });
      refs.set(`shade-${year}`, picture);
      family.add({ imageId: `shade-${year}`, pinId: `shade-${year}`, features: await extractFeatures(picture) });
    }
    for (const [year, banner, size] of [[2019, '#1f5c3a', 340], [2018, '#1a1a1a', 300]] as const) {
      const result = await family.match(await phonePhoto(await pinArtwork(31, 'EAGLES', year, { banner }), { rotate: 14, size }));
      expect(result.best?.pinId).toBe(`shade-${year}`);
    }
    for (const banner of ['#1f5c3a', '#1a1a1a']) {
      expect((await family.match(await phonePhoto(await pinArtwork(31, 'EAGLES', 2017, { banner }), { rotate: 14, size: 340 }))).best).toBeNull();
    }
  });

  it('names the year the photo shows when the colours favour another year whose digit looks alike, and the pin\'s own letters all pass', async () => {
    // as above, but the years are printed small in a condensed face: an 8 and a 6 of it correlate 0.9,
    // so the favoured year's detail check sees no letter differ and its colours were accepted (98-99
    // confidence for the other year in five of these photos); the digits, compared under both look-
    // alikes, name the year the photo shows
    const family = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
    const art = (year: number, banner: string) => pinArtwork(31, 'EAGLES', year, { banner, yearSize: 34, condensed: true });
    for (const [year, banner] of [[2016, '#1f5c3a'], [2018, '#1a1a1a']] as const) {
      const picture = await art(year, banner);
      refs.set(`condensed-${year}`, picture);
      family.add({ imageId: `condensed-${year}`, pinId: `condensed-${year}`, features: await extractFeatures(picture) });
    }
    for (const [year, banner] of [[2016, '#1a1a1a'], [2018, '#1f5c3a']] as const) {
      for (const [size, rotate] of [[260, 14], [300, -9], [300, 14], [340, -9], [380, -9]]) {
        const result = await family.match(await phonePhoto(await art(year, banner), { rotate, size }));
        expect(result.best?.pinId, `${year} at ${size} px, turned ${rotate}°`).toBe(`condensed-${year}`);
      }
    }
    // a year in neither is still not named
    for (const banner of ['#1f5c3a', '#1a1a1a']) {
      expect((await family.match(await phonePhoto(await art(2017, banner), { rotate: 14, size: 340 }))).best).toBeNull();
    }
  }, 60_000);

  it('names the catalogue pin in a photo of several pins, beside another design\'s look-alike', async () => {
    // a lanyard or a pin board: beside the pin, another that shares a catalogue pin's design but prints
    // another team name. That catalogue pin is found there, at another place in the photo, and the two
    // share nothing to compare: it must not keep the pin that is in the catalogue from being named
    const board = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
    const hornets = await pinArtwork(51, 'HORNETS', 2017, { hexagon: true });
    const eagles = await pinArtwork(31, 'EAGLES', 2019);
    for (const [pinId, picture] of [['eagles-round', eagles], ['hornets-hexagon', hornets]] as const) {
      refs.set(pinId, picture);
      board.add({ imageId: pinId, pinId, features: await extractFeatures(picture) });
    }
    const beside = async (left: Buffer, right: Buffer) =>
      board.match(
        await photoOfPins([
          { picture: left, size: 300, rotate: -12, cutOut: true, centre: [215, 330] },
          { picture: right, size: 300, rotate: 9, cutOut: true, centre: [585, 310] },
        ]),
      );
    expect((await beside(await pinArtwork(31, 'RAVENS', 2019), hornets)).best?.pinId).toBe('hornets-hexagon');
    expect((await beside(eagles, await pinArtwork(51, 'WASPS', 2017, { hexagon: true }))).best?.pinId).toBe('eagles-round');
    // two catalogue pins side by side: one of them is named, rather than a choice between them
    expect(['eagles-round', 'hornets-hexagon']).toContain((await beside(eagles, hornets)).best?.pinId);
  });

  it('names the colour variant the photo shows when its black looks grey in the photo', async () => {
    // two colour variants: a black banner and a dark green one. Flare or a phone's tone curve lifts the
    // photo's darks to a warm grey while its light tones stay; a light fit with an offset of its own per
    // channel turned the green into that grey more easily than the black
    const variants = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
    const variant = (banner: string) => pinArtwork(38, 'OWLS', 2020, { banner });
    for (const [pinId, banner] of [['owls-black', '#1a1a1a'], ['owls-green', '#1f5c3a']]) {
      const picture = await variant(banner);
      refs.set(pinId, picture);
      variants.add({ imageId: pinId, pinId, features: await extractFeatures(picture) });
    }
    for (const [size, power] of [[340, 1], [300, 0.5], [360, 0.5]]) {
      const photo = await phonePhoto(await variant('#1a1a1a'), { rotate: -11, size });
      expect((await variants.match(await toneCurve(photo, power, [1, 0.95, 0.85]))).best?.pinId).toBe('owls-black');
    }
  });

  it('names a glitter pin whose specks lie elsewhere than on the catalogue picture, and still refuses another name', async () => {
    // no two glitter pins carry their specks alike: around the lettering they made a patch of tiles that
    // did not correlate with the reference, which refused the pin as another team name would
    const sparkly = new VisualIndex(async (imageId) => refs.get(imageId) ?? null);
    const picture = await pinArtwork(36, 'COMETS', 2016, { glitter: 1 });
    refs.set('comets', picture);
    sparkly.add({ imageId: 'comets', pinId: 'comets', features: await extractFeatures(picture) });
    for (const [glitter, rotate] of [[2, 5], [3, -4]]) {
      const photo = await phonePhoto(await pinArtwork(36, 'COMETS', 2016, { glitter }), { rotate, size: 540, quality: 90 });
      expect((await sparkly.match(photo)).best?.pinId).toBe('comets');
    }
    const other = await phonePhoto(await pinArtwork(36, 'ROCKETS', 2016, { glitter: 2 }), { rotate: 5, size: 540, quality: 90 });
    expect((await sparkly.match(other)).best).toBeNull();
  });

  it('answers no match for a pin it has never seen', async () => {
    const result = await index.match(await phonePhoto(await pinArtwork(77), { rotate: 5 }));
    expect(result.best).toBeNull();
    expect(result.reason).toBe('no_match');
  });

  it('answers no match for a picture too thin or too small to hold a pin, and stores such a picture as a reference', async () => {
    // a strip 2 px high is brought to 1024 x 1 px; ORB's smaller levels of it would have no pixels at all
    for (const [width, height] of [[2000, 2], [2, 2000], [1, 1], [40, 40]]) {
      const picture = await sharp({ create: { width, height, channels: 3, background: '#c03030' } }).png().toBuffer();
      const result = await index.match(picture);
      expect(result.reason, `${width} x ${height}`).toBe('no_match');
      expect(result.best).toBeNull();
      // a vendor's odd upload is kept; it simply gives the matcher nothing to find
      await expect(extractFeatures(picture), `${width} x ${height}`).resolves.toBeInstanceOf(Uint8Array);
    }
  });

  it('compares the cream enamel inside a silver outline, and the lettering printed on it', async () => {
    // a light silver outline is near-white too: the background fill used to run on through it into the
    // enamel, and the name printed there was never compared
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" shape-rendering="crispEdges"><rect width="256" height="256" fill="#fbfbfb"/>' +
      '<circle cx="128" cy="128" r="110" fill="#c8c8cc"/>' +
      '<circle cx="128" cy="128" r="92" fill="#f6f1e4"/><text x="128" y="136" font-size="30" text-anchor="middle" fill="#1c2a5a">EAGLES</text></svg>';
    const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const img = { data: new Uint8Array(data), width: info.width, height: info.height };
    const at = (mask: Uint8Array, x: number, y: number) => mask[y * info.width + x];
    const stepped = pinMask(img, BACKGROUND_STEP);
    expect(at(stepped, 128, 80)).toBe(1); // cream enamel above the name
    expect(at(stepped, 60, 128)).toBe(1);
    expect(at(stepped, 4, 4)).toBe(0); // studio background
    expect(at(stepped, 128, 250)).toBe(0);
    // without the step the fill runs on through the silver outline into the enamel
    expect(at(pinMask(img), 128, 80)).toBe(0);
    // so that plain silhouette is left aside: the tiles compare the enamel, and the name's letters are found
    const layout = referenceLayout(await getCV(), img, toGray(img));
    expect(at(layout.pin, 128, 80)).toBe(1);
    expect(at(layout.pin, 4, 4)).toBe(0);
    expect(layout.glyphs.length).toBeGreaterThanOrEqual(5); // EAGLES
  });

  it('makes a pin photographed on a table into a catalogue-style reference: the pin alone, on white', async () => {
    const art = await pinArtwork(909, 'COMETS');
    const cv = await getCV();
    // the pin fills about a tenth of the 800 x 640 photo
    const photo = await phonePhoto(art, { rotate: 15, size: 220, cutOut: true });
    const { image: ref, cut } = await decodeReference(cv, photo);
    const light = (i: number) => Math.min(ref.data[i * 3], ref.data[i * 3 + 1], ref.data[i * 3 + 2]) > 240;
    const n = ref.width * ref.height;
    let pin = 0;
    for (let i = 0; i < n; i++) if (!light(i)) pin++;
    // cropped to the round pin (the frame is about square) and it fills most of it (a disc fills 79% of its square)
    expect(Math.abs(ref.width - ref.height)).toBeLessThan(40);
    expect(pin / n).toBeGreaterThan(0.6);
    // the table around it is painted white
    for (const [x, y] of [[2, 2], [ref.width - 3, 2], [2, ref.height - 3], [ref.width - 3, ref.height - 3]]) expect(light(y * ref.width + x)).toBe(true);
    // the stored cut gives the same reference again (the detail check), without cutting anew
    expect(cut.length).toBeGreaterThan(0);
    const again = await decodeReference(cv, photo, cut);
    expect(Buffer.compare(Buffer.from(again.image.data), Buffer.from(ref.data))).toBe(0);
    // a catalogue shot on white is used as it is
    const shot = await decodeReference(cv, art);
    expect([shot.image.width, shot.image.height, shot.cut.length]).toEqual([512, 512, 0]);
  });

  it('names a pin added from a small, soft phone photo with a reflection of its own on its next, sharper photo', async () => {
    // the pin fills a fifth of its first photo: cut out and enlarged, its reference is blurred, and a
    // reflection whitens part of it; it is matched exhaustively, the photo blurred to its sharpness and
    // the reflection left out (the pin was refused before)
    const art = await pinArtwork(950, 'HORNETS', 2022);
    const glare = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><defs><radialGradient id="g">' +
        '<stop offset="0" stop-color="#fff"/><stop offset="0.6" stop-color="#fff" stop-opacity="0.9"/><stop offset="1" stop-color="#fff" stop-opacity="0"/>' +
        '</radialGradient></defs><ellipse cx="300" cy="200" rx="110" ry="70" fill="url(#g)"/></svg>',
    );
    const withGlare = await sharp(art).composite([{ input: glare }]).jpeg({ quality: 92 }).toBuffer();
    await addPin('added', await phonePhoto(withGlare, { rotate: 6, size: 160, cutOut: true }));
    const result = await index.match(await phonePhoto(art, { rotate: -12, size: 400 }));
    expect(result.best?.pinId).toBe('added');
  });
});
