/**
 * The lettering read as text (text.server.ts): the comparison of a reference's line with the photo's
 * reading of it, and the real OCR models on pictures drawn here: the lines of a reference are found
 * and read, and a photo of another year of the pin is told from a photo of the pin.
 */
import { describe, expect, it } from 'vitest';
import { makeReferenceDetail, referenceLayout } from '~/services/identification/detail.server';
import { decodeRGB, toGray } from '~/services/identification/features.server';
import { getCV } from '~/services/identification/opencv.server';
import {
  decodeTextLines,
  encodeTextLines,
  findTextLines,
  lineAgrees,
  lineRefutes,
  linesBeside,
  readPhotoLines,
  roundPin,
  storedLine,
} from '~/services/identification/text.server';
import { danglingPin, pinArtwork } from '../support/identify';

/** A reading with every character at probability p. */
const read = (text: string, p = 0.99) => ({ text, probs: [...text].map(() => p) });

describe('lineRefutes', () => {
  it('refutes another year read with near certainty', () => {
    expect(lineRefutes('2019', read('2016', 1))).toBe(true);
    expect(lineRefutes('PATRIOTS 2015', read('PATRIOTS 2016', 0.995))).toBe(true);
  });

  it('refutes another team name, and not the same name with its spaces and case read otherwise', () => {
    expect(lineRefutes('EAGLE POINT', read('CLEARWATER', 0.97))).toBe(true);
    expect(lineRefutes('CRUSADERS', read('GATORS', 0.87))).toBe(true); // another team name, read less surely
    expect(lineRefutes('Stony Brook', read('STONYBROOK', 0.97))).toBe(false);
  });

  it('takes letters a blurred line is read as for one another, and a cropped end, as the same line', () => {
    expect(lineRefutes('11U 2014', read('1102014'))).toBe(false); // U read as 0
    expect(lineRefutes('GOLDEN VALLEY', read('COLDEN VALLEY'))).toBe(false);
    expect(lineRefutes('DIAMOND 2025', read('DIAMOND 202'))).toBe(false);
    expect(lineRefutes('STATE 2016', read('SIATE 2016'))).toBe(false);
    expect(lineRefutes('LAKE PLACID', read('PLACID', 0.95))).toBe(false); // a cropped box
    expect(lineRefutes('LABOR DAY', read('LABORY', 0.95))).toBe(false);
    expect(lineRefutes('CHAMPIONS2020', read('CHAMPVE9', 0.85))).toBe(false);
    expect(lineRefutes('LITHUANIA', read('UEAA', 0.83))).toBe(false); // a garbled part of a glared line
  });

  it('refutes nothing on an unsure reading: a digit below near certainty, one or two letters, a low mean', () => {
    expect(lineRefutes('2015', read('2018', 0.9))).toBe(false);
    expect(lineRefutes('SANDY HOOK', read('SANDV HOOM', 0.95))).toBe(false);
    expect(lineRefutes('EAGLE POINT', read('CLEARWATER', 0.6))).toBe(false);
    expect(lineRefutes('2019', read('', 0))).toBe(false);
  });
});

describe('lineAgrees', () => {
  it('takes a line read as printed, or with one letter read otherwise or cropped', () => {
    expect(lineAgrees('2019', read('2019'))).toBe(true);
    expect(lineAgrees('Stony Brook', read('STONYBROOK', 0.9))).toBe(true);
    expect(lineAgrees('ASPEN HILL UFOS', read('ASPENHILIUFOS'))).toBe(true);
    expect(lineAgrees('10U 2012', read('0U2012'))).toBe(true); // the box cropped the first digit
    expect(lineAgrees('DUKES 13U', read('DUKES I3D'))).toBe(true); // look-alikes
  });

  it('never takes a digit read otherwise, missing or added, a second letter otherwise, or an unsure reading', () => {
    expect(lineAgrees('PALM COAST 2022', read('PALM COAST 2023'))).toBe(false);
    expect(lineAgrees('10U 2024', read('10U 202'))).toBe(false);
    expect(lineAgrees('GULF COAST', read('GULF COAST 1'))).toBe(false);
    expect(lineAgrees('2019', read('2018'))).toBe(false);
    expect(lineAgrees('MANCHESTER', read('MANCHESTFA'))).toBe(false);
    expect(lineAgrees('EAGLE POINT', read('EAGLE POINT', 0.6))).toBe(false);
  });
});

describe('linesBeside', () => {
  const lines = (...texts: string[]) => texts.map((text, k) => ({ x: 10, y: 40 * k, w: 200, h: 30, text }));
  it('gives the lines another reference of the pin prints that this one lacks', () => {
    expect(linesBeside(lines('Flames'), lines('DEER PARK 2023', 'Flames')).map((l) => l.text)).toEqual(['DEER PARK 2023']);
    expect(linesBeside(lines('OAK RIDGE'), lines('BILLIARDS 14U', 'OAK RIDGE')).map((l) => l.text)).toEqual(['BILLIARDS 14U']);
    expect(linesBeside(lines('20', '16'), lines('SUMMER CLASSIC 11U', '20', '16')).map((l) => l.text)).toEqual(['SUMMER CLASSIC 11U']);
  });

  it('takes a line the extraction read otherwise for the same line', () => {
    expect(linesBeside(lines('ASPEN HILL UFOS', 'GULF COAST'), lines('ASPENHILUS'))).toEqual([]);
    expect(linesBeside(lines('LAKEVIEW 2025', 'STINGRAYS'), lines('LAKEVEW2025', 'STINGRAYS'))).toEqual([]);
    expect(linesBeside(lines('13U 2023', 'STONY BROOK'), lines('13U2023', 'STONYBROK'))).toEqual([]);
    expect(linesBeside(lines('MEMORIAL DAY'), lines('MEMORIAL DAY 11U'))).toEqual([]);
    expect(linesBeside(lines('AKE PLACID 14U'), lines('LAKE PLACID 14U'))).toEqual([]);
    // a short line is no part of a long one that happens to hold its letters
    expect(linesBeside(lines('SUMMER CLASSIC 11U'), lines('16')).map((l) => l.text)).toEqual(['16']);
  });
});

describe('stored lines', () => {
  it('keeps lines read with confidence and two letters or digits, and stores them as they were', () => {
    expect(storedLine(read('2019', 0.95))).toBe(true);
    expect(storedLine(read('2019', 0.7))).toBe(false);
    expect(storedLine(read('★', 0.99))).toBe(false);
    const lines = [{ x: 12.34, y: 5, w: 100.06, h: 30, text: 'EAGLE POINT' }];
    expect(decodeTextLines(encodeTextLines(lines))).toEqual([{ x: 12.3, y: 5, w: 100.1, h: 30, text: 'EAGLE POINT' }]);
    expect(decodeTextLines(new Uint8Array(0))).toEqual([]);
    const ring = { cx: 255.5, cy: 256, r: 226.04, half: 'bottom' as const };
    expect(decodeTextLines(encodeTextLines([{ x: 1, y: 2, w: 3, h: 4, text: 'COOPERSTOWN 2013', ring }]))).toEqual([
      { x: 1, y: 2, w: 3, h: 4, text: 'COOPERSTOWN 2013', ring: { ...ring, r: 226 } },
    ]);
  });
});

describe('the OCR models', () => {
  const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1];

  it('reads a reference\'s lines, and tells a photo of another year from one of the pin', async () => {
    const cv = await getCV();
    const reference = await decodeRGB(await pinArtwork(31, 'EAGLES', 2019), 512);
    const lines = await findTextLines(cv, reference);
    const texts = lines.map((l) => l.text.replace(/\s/g, ''));
    expect(texts).toContain('2019');
    expect(texts).toContain('EAGLES');
    // the photos as aligned onto the reference (identity): the pin, and the same design in 2016
    const verdicts = async (photo: typeof reference) => (await readPhotoLines(cv, photo, identity, reference, lines)).map((l) => `${l.text.replace(/\s/g, '')} ${l.verdict}`);
    expect(await verdicts(reference)).toEqual(expect.arrayContaining(['2019 agrees', 'EAGLES agrees']));
    const otherYear = await decodeRGB(await pinArtwork(31, 'EAGLES', 2016), 512);
    expect(await verdicts(otherYear)).toContain('2019 refutes');
    const otherTeam = await decodeRGB(await pinArtwork(31, 'RAVENS', 2019), 512);
    expect(await verdicts(otherTeam)).toContain('EAGLES refutes');
  }, 30_000);

  it('reads no line the photo does not cover', async () => {
    const cv = await getCV();
    const reference = await decodeRGB(await pinArtwork(31, 'EAGLES', 2019), 512);
    const lines = await findTextLines(cv, reference);
    const otherYear = await decodeRGB(await pinArtwork(31, 'EAGLES', 2016), 512);
    // the photo shifted 400 px to the right: its pixels cover no line of the reference
    const read = await readPhotoLines(cv, otherYear, [1, 0, 400, 0, 1, 0, 0, 0, 1], reference, lines);
    expect(read.map((l) => l.verdict)).toEqual(lines.map(() => 'unseen'));
  }, 30_000);

  it('reads the lines where the homography puts them, and gives their boxes in the reference\'s frame', async () => {
    const cv = await getCV();
    const reference = await decodeRGB(await pinArtwork(31, 'EAGLES', 2019), 512);
    const lines = await findTextLines(cv, reference);
    // the pin photographed 100 px from the left and 60 from the top of a larger white frame
    const width = 700, height = 640;
    const photo = { data: new Uint8Array(width * height * 3).fill(255), width, height };
    for (let y = 0; y < reference.height; y++) {
      photo.data.set(reference.data.subarray(y * reference.width * 3, (y + 1) * reference.width * 3), ((y + 60) * width + 100) * 3);
    }
    const read = await readPhotoLines(cv, photo, [1, 0, -100, 0, 1, -60, 0, 0, 1], reference, lines);
    expect(read.map((l) => l.verdict)).toEqual(lines.map(() => 'agrees'));
    expect(read.map((l) => l.box)).toEqual(lines.map((l) => [l.x, l.y, l.w, l.h]));
  }, 30_000);

  it('reads the lettering along a round pin\'s ring, and tells another year printed there', async () => {
    const cv = await getCV();
    const reference = await decodeRGB(await pinArtwork(31, 'EAGLES', 2019, { arc: 'COOPERSTOWN 2013' }), 512);
    const ring = roundPin(reference);
    expect(ring?.cx).toBeCloseTo(256, -1);
    expect(ring?.r).toBeGreaterThan(215);
    const lines = await findTextLines(cv, reference);
    const arc = lines.filter((l) => l.ring);
    // in one line or two (the detector may part the name from the year)
    const bottom = arc.filter((l) => l.ring?.half === 'bottom').sort((a, b) => a.x - b.x);
    expect(bottom.map((l) => l.text.replace(/\s/g, '')).join('')).toBe('COOPERSTOWN2013');
    // only the ring's lines: the axis-aligned ones would tell the photos apart on their own
    expect((await readPhotoLines(cv, reference, identity, reference, arc)).map((l) => l.verdict)).toEqual(arc.map(() => 'agrees'));
    const otherYear = await decodeRGB(await pinArtwork(31, 'EAGLES', 2019, { arc: 'COOPERSTOWN 2015' }), 512);
    expect((await readPhotoLines(cv, otherYear, identity, reference, arc)).map((l) => l.verdict)).toContain('refutes');
  }, 30_000);

  it('reads a dangler\'s lettering as the dangler has swung, and still tells another age group printed there', async () => {
    const cv = await getCV();
    const reference = await decodeRGB(await danglingPin('10U'), 512);
    const gray = toGray(reference);
    const ref = makeReferenceDetail(gray, reference.width, reference.height, referenceLayout(cv, reference, gray));
    expect(ref.parts).toHaveLength(1);
    const lines = await findTextLines(cv, reference);
    expect(lines.map((l) => l.text)).toEqual(expect.arrayContaining(['10U', 'EAGLES']));
    const verdicts = async (photo: typeof reference, detail?: typeof ref) =>
      (await readPhotoLines(cv, photo, identity, reference, lines, detail)).map((l) => `${l.text} ${l.verdict}`);
    // swung either way since the reference was taken: read where the reference has it, the label is
    // not read as printed, and read as the dangler hangs in the photo it is
    for (const swing of [18, -24]) {
      const swung = await decodeRGB(await danglingPin('10U', swing), 512);
      expect(await verdicts(swung)).not.toContain('10U agrees');
      expect(await verdicts(swung, ref)).toEqual(expect.arrayContaining(['10U agrees', 'EAGLES agrees']));
    }
    expect(await verdicts(await decodeRGB(await danglingPin('12U', 18), 512), ref)).toContain('10U refutes');
  }, 30_000);

  it('finds no ring on a pin that is not round', async () => {
    expect(roundPin(await decodeRGB(await pinArtwork(31, 'EAGLES', 2019, { hexagon: true }), 512))).toBeNull();
  });
});
