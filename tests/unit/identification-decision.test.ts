/**
 * The engine's last two stages on recorded candidates, without images: `score` orders what the
 * shortlist, verification and comparison found, `decide` turns it into the answer a collector sees
 * (a named pin, a family to choose from, or no match with suggestions). The evidence a decision asks
 * for beyond the recorded one (a detail check, the letters of look-alikes) is answered from recordings.
 */
import { describe, expect, it } from 'vitest';
import {
  decide,
  score,
  suggestByAppearance,
  appearanceWanted,
  tallyDuels,
  type CandidateEvidence,
  type DecisionProbes,
  type DuelOutcome,
} from '~/services/identification/decision.server';
import { CONFIDENCE_FEATURES, matchProbability } from '~/services/identification/confidence.server';
import confidenceModel from '~/services/identification/confidence-model.json';
import type { DetailResult } from '~/services/identification/detail.server';
import type { LineReading } from '~/services/identification/text.server';

const H = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** A verified candidate as the compare stage leaves it. */
const cand = (pinId: string, inliers: number, resid?: number, extra: Partial<CandidateEvidence> = {}): CandidateEvidence => ({ pinId, inliers, H, resid, ...extra });

/** A detail check where the photo agrees with the reference tile by tile and letter by letter. */
const agrees: DetailResult = {
  tiles: 80,
  mismatch: 0.02,
  cluster: 0,
  median: 0.9,
  notClose: 0.05,
  notCloseCluster: 1,
  wrongLetters: 0,
  lineEndLetters: 0,
  wrongBoxes: [],
  lettersRead: 12,
  sigma: 1,
  highlights: 0,
};
/** ... and one of another year of the design: the last digit of a line differs. */
const otherYear: DetailResult = { ...agrees, wrongLetters: 1, lineEndLetters: 1, wrongBoxes: [[200, 300, 14, 30]], notCloseCluster: 3 };
/**
 * ... and one where glare or blur left a patch of tiles apart on a small pin whose letters were too
 * few to compare one by one: it passes for the photo's damage only when its lettering reads as text.
 */
const damaged: DetailResult = { ...agrees, mismatch: 0.1, cluster: 5, notClose: 0.45, notCloseCluster: 28, lettersRead: 2 };
/** ... and one where the pin's design does not show at all. */
const unlike: DetailResult = { ...agrees, mismatch: 0.6, cluster: 30, median: 0.1, notClose: 0.8, notCloseCluster: 40 };

interface Recorded {
  details?: Map<CandidateEvidence, DetailResult>;
  read?: { v: CandidateEvidence; margin: number } | null;
  yearApart?: boolean;
  /** the candidates whose lettering the photo reads otherwise */
  textRefutes?: Set<CandidateEvidence>;
  /** ... whose lettering it reads as printed */
  textConfirms?: Set<CandidateEvidence>;
  /** ... of which it reads a line otherwise, though not surely enough to refute */
  textDiffers?: Set<CandidateEvidence>;
}

/** Probes that answer from recordings, and the candidates whose detail check the decision asked for. */
function recorded(r: Recorded) {
  const asked: string[] = [];
  const probes: DecisionProbes<CandidateEvidence> = {
    samePlace: () => true, // every pair found at one place in the photo
    detail: async (v) => {
      asked.push(v.pinId);
      return r.details?.get(v);
    },
    readLetters: async () => (r.read ? { ...r.read, d: r.details?.get(r.read.v) } : null),
    yearApart: async () => r.yearApart ?? false,
    letterLean: async () => null,
    // each pin prints a line its look-alikes print too, and one of its own (its id)
    textReads: async (v) => {
      const own = r.textRefutes?.has(v) ? 'refutes' : r.textConfirms?.has(v) ? 'agrees' : r.textDiffers?.has(v) ? 'otherwise' : 'unsure';
      const shared = own === 'agrees' || own === 'otherwise' ? 'agrees' : 'unsure';
      return [{ text: 'SHARED', verdict: shared, same: shared === 'agrees' }, { text: v.pinId, verdict: own, same: own === 'agrees' }];
    },
  };
  return { probes, asked };
}

/** The answer for candidates (most inliers first), the plausible ones and their duels. */
async function answer(verified: CandidateEvidence[], plausible: CandidateEvidence[], duels: DuelOutcome<CandidateEvidence>[], r: Recorded) {
  const { probes, asked } = recorded(r);
  const tally = tallyDuels(plausible, duels, probes.samePlace);
  const scored = score(verified, tally, 5);
  return { ...(await decide({ verified, tally, scored, limit: 5 }, probes)), asked, scored };
}

describe('score', () => {
  it('puts the pin that lost no duel first, then the others by their score', () => {
    const eagles = cand('eagles', 60, 14);
    const hawks = cand('hawks', 70, 12);
    const owls = cand('owls', 20, 30);
    // hawks' colours agree a little better overall, but on the pixels where the two differ the photo is eagles'
    const duel = { a: hawks, b: eagles, errA: 30, errB: 12, area: 400 };
    const tally = tallyDuels([hawks, eagles], [duel], () => true);
    const { ordered, winner, candidates, closest } = score([hawks, eagles, owls], tally, 5);
    expect(winner).toBe(eagles);
    expect(ordered).toEqual([eagles, hawks]);
    expect(candidates.map((c) => c.pinId)).toEqual(['eagles', 'hawks', 'owls']);
    // scores never rise down the list
    expect(candidates.map((c) => c.score)).toEqual([...candidates.map((c) => c.score)].sort((x, y) => y - x));
    // the suggestions of a no match: most inliers first, all below 50
    expect(closest.map((c) => c.pinId)).toEqual(['hawks', 'eagles', 'owls']);
    expect(Math.max(...closest.map((c) => c.score))).toBeLessThan(50);
  });

  it('does not make two pins found at different places in a photo rivals', () => {
    const a = cand('a', 50, 10), b = cand('b', 45, 11);
    const tally = tallyDuels([a, b], [{ a, b, errA: 0, errB: 0, area: 0 }], () => false);
    expect(tally.unparted).toEqual([]);
    expect(tally.margin.get(a)).toBe(1);
  });
});

describe('decide', () => {
  it('names the pin whose colours agree, with a confidence and the others below it', async () => {
    const eagles = cand('eagles', 90, 8), owls = cand('owls', 15);
    const result = await answer([eagles, owls], [eagles], [], { details: new Map([[eagles, agrees]]) });
    expect(result.reason).toBe('match');
    expect(result.best?.pinId).toBe('eagles');
    expect(result.best?.confidence).toBeGreaterThanOrEqual(50);
    expect(result.best?.confidence).toBeLessThanOrEqual(99);
    expect(result.candidates[0]).toEqual({ pinId: 'eagles', score: result.best?.confidence });
    for (const c of result.candidates.slice(1)) expect(c.score).toBeLessThan(result.best?.confidence ?? 0);
  });

  it('names the pin on its detail check when glare spoils its colours', async () => {
    const eagles = cand('eagles', 40, 45);
    const result = await answer([eagles], [eagles], [], { details: new Map([[eagles, agrees]]) });
    expect(result.best?.pinId).toBe('eagles');
  });

  it('does not pass another year of a catalogue pin off as the catalogue pin', async () => {
    const eagles = cand('eagles', 90, 8), owls = cand('owls', 14);
    const result = await answer([eagles, owls], [eagles], [], { details: new Map([[eagles, otherYear]]) });
    expect(result.reason).toBe('no_match');
    expect(result.best).toBeNull();
    expect(result.candidates.map((c) => c.pinId)).toEqual(['eagles', 'owls']);
    expect(Math.max(...result.candidates.map((c) => c.score))).toBeLessThan(50);
  });

  it('answers no match, the pin first among the suggestions, when its lettering reads otherwise as text', async () => {
    // every letter passed the detail check (a 6 correlates with the catalogue's 9), but the photo reads "2016"
    const eagles = cand('eagles', 90, 8), owls = cand('owls', 15);
    const details = new Map([[eagles, agrees]]);
    expect((await answer([eagles, owls], [eagles], [], { details })).best?.pinId).toBe('eagles');
    const result = await answer([eagles, owls], [eagles], [], { details, textRefutes: new Set([eagles]) });
    expect(result.reason).toBe('no_match');
    expect(result.best).toBeNull();
    expect(result.candidates.map((c) => c.pinId)).toEqual(['eagles', 'owls']);
    expect(Math.max(...result.candidates.map((c) => c.score))).toBeLessThan(50);
  });

  it('reads the lettering of the reference it named the pin on, when the pin has two', async () => {
    // the pin's close-up shot has more inliers, but glare spoils its colours; its whole shot agrees
    const closeUp = cand('eagles', 90, 40), whole = cand('eagles', 60, 8), owls = cand('owls', 15);
    const details = new Map([[whole, agrees]]);
    const named = await answer([closeUp, whole, owls], [whole], [], { details });
    expect(named.scored.winner).toBe(whole);
    expect(named.best?.pinId).toBe('eagles');
    // a line of the whole shot reads otherwise on the photo: refused, though the close-up's lines agree
    const refused = await answer([closeUp, whole, owls], [whole], [], { details, textRefutes: new Set([whole]) });
    expect(refused.reason).toBe('no_match');
    expect(refused.candidates[0]?.pinId).toBe('eagles');
    // ... and a close-up that reads otherwise does not refuse the match made on the whole shot
    const kept = await answer([closeUp, whole, owls], [whole], [], { details, textRefutes: new Set([closeUp]) });
    expect(kept.best?.pinId).toBe('eagles');
  });

  it('names a pin whose tiles glare left apart when its lettering reads as it prints it', async () => {
    const eagles = cand('eagles', 80, 17), owls = cand('owls', 15);
    const details = new Map([[eagles, damaged]]);
    expect((await answer([eagles, owls], [eagles], [], { details })).reason).toBe('no_match');
    const read = await answer([eagles, owls], [eagles], [], { details, textConfirms: new Set([eagles]) });
    expect(read.best?.pinId).toBe('eagles');
    // ... not on a short line alone: another team name of the design is a patch beside the "10U" that reads as printed
    const tally = tallyDuels([eagles], [], () => true);
    const tenU = { ...recorded({ details }).probes, textReads: async (): Promise<LineReading[]> => [{ text: '10U', verdict: 'agrees', same: true }] };
    expect((await decide({ verified: [eagles, owls], tally, scored: score([eagles, owls], tally, 5), limit: 5 }, tenU)).reason).toBe('no_match');
    // ... not when letters of its lettering refuse it (two digits of another year, in a line that was not read)
    const otherDigits = { ...damaged, wrongLetters: 2, lineEndLetters: 2, wrongBoxes: [[200, 300, 14, 30], [215, 300, 14, 30]] };
    const year = await answer([eagles, owls], [eagles], [], { details: new Map([[eagles, otherDigits]]), textConfirms: new Set([eagles]) });
    expect(year.reason).toBe('no_match');
  });

  it('names a pin refused for one letter at a line\'s end when every line of its lettering reads as printed', async () => {
    // the letter boxes took a mark of the artwork beside the year for a digit that differs
    const eagles = cand('eagles', 90, 8), owls = cand('owls', 14);
    const details = new Map([[eagles, otherYear]]);
    expect((await answer([eagles, owls], [eagles], [], { details, textConfirms: new Set([eagles]) })).best?.pinId).toBe('eagles');
    // ... not when a line was not surely read (the year may be the one)
    expect((await answer([eagles, owls], [eagles], [], { details, textDiffers: new Set([eagles]) })).reason).toBe('no_match');
    expect((await answer([eagles, owls], [eagles], [], { details })).reason).toBe('no_match');
  });

  it('names a pin refused for one letter at a line\'s end when that line reads letter for letter as printed', async () => {
    // the year "20" reads "20", not surely (0.65), and the other lines are not read at all
    const eagles = cand('eagles', 90, 8), owls = cand('owls', 14);
    const details = new Map([[eagles, otherYear]]);
    const reading = (same: boolean, box: [number, number, number, number]): LineReading[] => [
      { text: 'EAGLES', verdict: 'unsure', same: false, box: [100, 60, 300, 40] },
      { text: '20', verdict: 'unsure', same, box },
    ];
    const probes = (lines: LineReading[]) => ({ ...recorded({ details }).probes, textReads: async () => lines });
    const decideWith = async (lines: LineReading[]) => {
      const tally = tallyDuels([eagles], [], () => true);
      return decide({ verified: [eagles, owls], tally, scored: score([eagles, owls], tally, 5), limit: 5 }, probes(lines));
    };
    // the differing glyph's box is [200, 300, 14, 30]
    expect((await decideWith(reading(true, [180, 290, 70, 50]))).best?.pinId).toBe('eagles');
    expect((await decideWith(reading(false, [180, 290, 70, 50]))).reason).toBe('no_match');
    // ... a line read as printed elsewhere on the pin says nothing of the glyph
    expect((await decideWith(reading(true, [300, 290, 70, 50]))).reason).toBe('no_match');
  });

  it('names a pin whose differing letters all lie in a line read as printed, glare over its tiles', async () => {
    // glare over "GUAM 2021": its 2 and 1 differ letter by letter and a patch of tiles is apart, but the
    // line reads "GUAM 2021" and the pin's colours agree
    const guam = cand('guam', 140, 13), owls = cand('owls', 14);
    const glared: DetailResult = { ...damaged, lettersRead: 22, wrongLetters: 2, lineEndLetters: 2, wrongBoxes: [[290, 65, 10, 22], [305, 66, 7, 21]] };
    const lines = (year: LineReading['verdict']): LineReading[] => [
      { text: 'STINGRAYS', verdict: 'agrees', same: true, box: [190, 260, 130, 32] },
      { text: 'GUAM 2021', verdict: year, same: year === 'agrees', box: [198, 63, 118, 28] },
    ];
    const decideWith = async (reading: LineReading[]) => {
      const tally = tallyDuels([guam], [], () => true);
      const probes = { ...recorded({ details: new Map([[guam, glared]]) }).probes, textReads: async () => reading };
      return decide({ verified: [guam, owls], tally, scored: score([guam, owls], tally, 5), limit: 5 }, probes);
    };
    expect((await decideWith(lines('agrees'))).best?.pinId).toBe('guam');
    expect((await decideWith(lines('unsure'))).reason).toBe('no_match');
  });

  it('names the one of a family whose lettering the photo reads, when it reads every other otherwise', async () => {
    const y2018 = cand('owls-2018', 80, 9), y2019 = cand('owls-2019', 78, 9.5), y2020 = cand('owls-2020', 70, 9.6);
    const ties = [
      { a: y2018, b: y2019, errA: 10, errB: 10.2, area: 300 },
      { a: y2018, b: y2020, errA: 10, errB: 10.1, area: 300 },
    ];
    const details = new Map([[y2018, agrees], [y2019, agrees], [y2020, agrees]]);
    const all = [y2018, y2019, y2020];
    const named = await answer(all, all, ties, { details, textConfirms: new Set([y2019]), textDiffers: new Set([y2018, y2020]) });
    expect(named.best?.pinId).toBe('owls-2019');
    // a member whose lines the photo did not read with confidence leaves the choice to the collector
    const unread = await answer(all, all, ties, { details, textConfirms: new Set([y2019]), textDiffers: new Set([y2018]) });
    expect(unread.reason).toBe('ambiguous');
    // ... and so do two members that both read as printed (their lettering is the same)
    const both = await answer(all, all, ties, { details, textConfirms: new Set([y2019, y2020]), textDiffers: new Set([y2018]) });
    expect(both.reason).toBe('ambiguous');
  });

  it('offers look-alikes the photo cannot tell apart as a family to choose from', async () => {
    const y2018 = cand('owls-2018', 80, 9), y2019 = cand('owls-2019', 78, 9.5), other = cand('hawks', 20);
    const tie = { a: y2018, b: y2019, errA: 10, errB: 10.2, area: 300 };
    const result = await answer([y2018, y2019, other], [y2018, y2019], [tie], { details: new Map([[y2018, agrees], [y2019, agrees]]) });
    expect(result.reason).toBe('ambiguous');
    expect(result.family).toEqual(['owls-2018', 'owls-2019']);
    expect(result.candidates.map((c) => c.pinId)).toContain('hawks');
    expect(Math.max(...result.candidates.map((c) => c.score))).toBeLessThan(50);
  });

  it('names the look-alike whose letters the photo shows', async () => {
    const y2018 = cand('owls-2018', 80, 9), y2019 = cand('owls-2019', 78, 9.5);
    const tie = { a: y2018, b: y2019, errA: 10, errB: 10.2, area: 300 };
    const details = new Map([[y2018, agrees], [y2019, agrees]]);
    const result = await answer([y2018, y2019], [y2018, y2019], [tie], { details, read: { v: y2019, margin: 0.3 } });
    expect(result.reason).toBe('match');
    expect(result.best?.pinId).toBe('owls-2019');
  });

  it('checks the pin with the most inliers on its own when the colours favoured a pin found elsewhere', async () => {
    // the colours' favourite has few inliers, and neither its colours nor its detail agree enough; the
    // strongest pin, whose colours glare spoiled, was no rival of it, and its own detail check agrees
    const strongest = cand('eagles', 120, 40), favourite = cand('hawks', 20, 15);
    const result = await answer([strongest, favourite], [favourite], [], { details: new Map([[favourite, unlike], [strongest, agrees]]) });
    expect(result.asked).toEqual(['hawks', 'eagles']);
    expect(result.best?.pinId).toBe('eagles');
  });

  it('checks the pin with the most inliers on its own when it lost a duel to a favourite that is then refused', async () => {
    // the duel's colours favoured hawks, found at the same place with a third of the inliers; hawks'
    // detail shows nothing of the photo, and the strongest pin's detail agrees tile by tile
    const strongest = cand('eagles', 42, 9), favourite = cand('hawks', 21, 8.5);
    const duel = { a: strongest, b: favourite, errA: 20, errB: 6, area: 300 };
    const details = new Map([[favourite, unlike], [strongest, agrees]]);
    const result = await answer([strongest, favourite], [strongest, favourite], [duel], { details });
    expect(result.scored.winner).toBe(favourite);
    expect(result.asked).toEqual(['hawks', 'eagles']);
    expect(result.best?.pinId).toBe('eagles');
    // ... and not when its own detail disagrees
    const refused = await answer([strongest, favourite], [strongest, favourite], [duel], { details: new Map([[favourite, unlike], [strongest, otherYear]]) });
    expect(refused.reason).toBe('no_match');
  });

  it('names the pin with the most inliers on its colours when blur left its detail short of agreeing', async () => {
    // a smeared photo: the duels favoured a pin of another design; the strongest pin's colours agree and
    // its tiles mostly do, with a patch of six apart where the smear crossed its lettering
    const strongest = cand('willow-springs', 70, 26), favourite = cand('fox-hollow', 53, 19);
    const duel = { a: strongest, b: favourite, errA: 25, errB: 18, area: 300 };
    const details = new Map([[favourite, unlike], [strongest, { ...agrees, mismatch: 0.1, cluster: 6, notCloseCluster: 9 }]]);
    const result = await answer([strongest, favourite], [strongest, favourite], [duel], { details });
    expect(result.best?.pinId).toBe('willow-springs');
    // ... and not when its colours do not agree either
    const off = cand('willow-springs', 70, 40);
    const offDuel = { ...duel, a: off };
    const refused = await answer([off, favourite], [off, favourite], [offDuel], { details: new Map([[favourite, unlike], [off, details.get(strongest)!]]) });
    expect(refused.reason).toBe('no_match');
  });

  it('names the pin with the most inliers when the named pin reads otherwise and its own lettering does not', async () => {
    // the duels favoured "Fox Hollow Royals", whose colours and detail agree; the photo reads "STONY BROOK",
    // which the pin found with the most inliers prints
    const stony = cand('stony-brook-royals', 63, 19), fox = cand('fox-hollow-royals', 48, 19);
    const duel = { a: stony, b: fox, errA: 22, errB: 20, area: 300 };
    const details = new Map([[fox, agrees], [stony, agrees]]);
    const result = await answer([stony, fox], [stony, fox], [duel], { details, textRefutes: new Set([fox]) });
    expect(result.best?.pinId).toBe('stony-brook-royals');
    // ... and no match when its lettering reads otherwise too (another team name of the design)
    const neither = await answer([stony, fox], [stony, fox], [duel], { details, textRefutes: new Set([fox, stony]) });
    expect(neither.reason).toBe('no_match');
    expect(neither.candidates[0]?.pinId).toBe('fox-hollow-royals');
  });

  it('checks the pin with the most inliers on its own when no pin became the favourite', async () => {
    // a tint of the light: the closest colours were those of a pin found with 25 inliers, too few to
    // rival the strongest, and the strongest's own were not close to them; its colours still pass the
    // acceptance rule and its detail, a patch apart under glare, vetoes nothing
    const strongest = cand('silver-lake-dodgers', 71, 27), weak = cand('whitewater-smash', 25, 16);
    const glared = { ...agrees, mismatch: 0.18, cluster: 13, notClose: 0.2, notCloseCluster: 13 };
    const result = await answer([strongest, weak], [], [], { details: new Map([[strongest, glared]]) });
    expect(result.scored.winner).toBeUndefined();
    expect(result.asked).toEqual(['silver-lake-dodgers']);
    expect(result.best?.pinId).toBe('silver-lake-dodgers');
    // ... and not when its colours do not agree either
    const off = cand('silver-lake-dodgers', 71, 40);
    expect((await answer([off, weak], [], [], { details: new Map([[off, glared]]) })).reason).toBe('no_match');
    // ... nor when its detail vetoes it (another year)
    expect((await answer([strongest, weak], [], [], { details: new Map([[strongest, otherYear]]) })).reason).toBe('no_match');
  });

  it('names the look-alike at its place whose lettering the photo reads, when the named pin reads otherwise', async () => {
    // the duels favoured the 2015 pin of a design, the photo reads "JULY 4TH 2016", which the 2016 pin,
    // found at the same place with fewer inliers, prints
    const y2015 = cand('crocodiles-2015', 72, 7), y2016 = cand('crocodiles-2016', 23, 8), other = cand('owls', 14);
    const details = new Map([[y2015, agrees], [y2016, agrees]]);
    const all = [y2015, y2016, other];
    const named = await answer(all, [y2015], [], { details, textRefutes: new Set([y2015]), textConfirms: new Set([y2016]) });
    expect(named.best?.pinId).toBe('crocodiles-2016');
    // ... not when its lettering is not read with confidence
    expect((await answer(all, [y2015], [], { details, textRefutes: new Set([y2015]) })).reason).toBe('no_match');
    // ... nor when its detail disagrees
    const refused = await answer(all, [y2015], [], { details: new Map([[y2015, agrees], [y2016, otherYear]]), textRefutes: new Set([y2015]), textConfirms: new Set([y2016]) });
    expect(refused.reason).toBe('no_match');
    // ... nor when two look-alikes read as printed
    const y2017 = cand('crocodiles-2017', 20, 8);
    const two = await answer([...all, y2017], [y2015], [], { details: new Map([...details, [y2017, agrees]]), textRefutes: new Set([y2015]), textConfirms: new Set([y2016, y2017]) });
    expect(two.reason).toBe('no_match');
    // ... nor when it was found elsewhere in the photo (its colours never compared at the pin's place)
    const elsewhere = cand('crocodiles-2016', 23);
    expect((await answer([y2015, elsewhere, other], [y2015], [], { details: new Map([[y2015, agrees], [elsewhere, agrees]]), textRefutes: new Set([y2015]), textConfirms: new Set([elsewhere]) })).reason).toBe('no_match');
  });

  it('answers no match, without a detail check, when nothing was verified', async () => {
    const result = await answer([], [], [], {});
    expect(result).toMatchObject({ best: null, candidates: [], reason: 'no_match' });
    expect(result.asked).toEqual([]);
  });
});

describe("a match's confidence", () => {
  it('is lower when another pin was found with nearly as many inliers', async () => {
    const eagles = cand('eagles', 90, 8);
    const alone = await answer([eagles, cand('owls', 10)], [eagles], [], { details: new Map([[eagles, agrees]]) });
    const rivalled = await answer([eagles, cand('hawks', 85, 30)], [eagles], [], { details: new Map([[eagles, agrees]]) });
    expect(alone.best?.pinId).toBe('eagles');
    expect(rivalled.best?.pinId).toBe('eagles');
    expect(rivalled.best?.confidence).toBeLessThan(alone.best?.confidence ?? 0);
  });

  it("is higher when the photo showed the pin's lettering than when none of it could be read", async () => {
    const eagles = cand('eagles', 90, 8);
    const read = await answer([eagles], [eagles], [], { details: new Map([[eagles, { ...agrees, lettersRead: 20 }]]) });
    const unread = await answer([eagles], [eagles], [], { details: new Map([[eagles, { ...agrees, lettersRead: 0 }]]) });
    expect(unread.best?.confidence).toBeGreaterThanOrEqual(50);
    expect(read.best?.confidence).toBeGreaterThan(unread.best?.confidence ?? 0);
  });

  it('comes from a model fitted on the inputs the engine gives it', () => {
    // a new input without a refit (tests/bench/fit-confidence.ts) would be read with another's weight
    expect(confidenceModel.features).toEqual([...CONFIDENCE_FEATURES]);
    for (const list of [confidenceModel.mean, confidenceModel.scale, confidenceModel.weights]) expect(list).toHaveLength(CONFIDENCE_FEATURES.length);
    const p = matchProbability({ inliers: 60, colour: 0.5, margin: 1, runnerUp: 0.2, detail: agrees });
    expect(p).toBeGreaterThan(0.5);
    expect(p).toBeLessThan(1);
  });
});

describe("a no-match answer's suggestions by appearance", () => {
  const engine = [
    { pinId: 'clear', score: 34 },
    { pinId: 'weak-a', score: 24 },
    { pinId: 'weak-b', score: 20 },
    { pinId: 'unlike', score: 9 },
  ];
  const looks = [
    { pinId: 'look-1', similarity: 0.82 },
    { pinId: 'weak-b', similarity: 0.7 },
    { pinId: 'look-3', similarity: 0.3 },
    { pinId: 'look-4', similarity: 0.2 },
  ];

  it("keeps the engine's clear suggestions first and fills the other places with the closest pins", () => {
    const out = suggestByAppearance(engine, looks);
    expect(out.slice(0, 4).map((c) => c.pinId)).toEqual(['clear', 'look-1', 'weak-b', 'look-3']);
    // every pin of either list stays, the engine's weaker suggestions after those shown
    expect(out.map((c) => c.pinId)).toEqual(['clear', 'look-1', 'weak-b', 'look-3', 'weak-a', 'unlike']);
  });

  it('scores a pin of close appearance 18-49: shown as a suggestion, never as a match', () => {
    const out = suggestByAppearance([], looks);
    expect(out.map((c) => c.score)).toEqual([40, 34, 18, 18]);
    // a pin the engine also suggested keeps its own score when that is higher
    expect(suggestByAppearance([{ pinId: 'look-1', score: 45 }], looks).find((c) => c.pinId === 'look-1')?.score).toBe(45);
  });

  it("leaves the engine's suggestions as they were when no appearance was compared", () => {
    expect(suggestByAppearance(engine, [])).toEqual(engine);
  });

  it('wants no appearance when the engine fills every place with pins that look alike', () => {
    const full = [
      { pinId: 'a', score: 44 },
      { pinId: 'weak', score: 22 },
      { pinId: 'b', score: 38 },
      { pinId: 'c', score: 31 },
      { pinId: 'd', score: 30 },
    ];
    expect(appearanceWanted(engine)).toBe(true);
    expect(appearanceWanted(full.slice(0, 4))).toBe(true);
    expect(appearanceWanted(full)).toBe(false);
    // the closest pins would not have changed the answer: the engine may leave the windows alone
    expect(suggestByAppearance(full, looks)).toEqual(suggestByAppearance(full, []));
    expect(suggestByAppearance(full, []).map((c) => c.pinId)).toEqual(['a', 'b', 'c', 'd', 'weak']);
  });
});
