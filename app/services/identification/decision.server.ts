// The last two stages of a match (engine.server.ts): `score` orders the candidates from their recorded
// evidence (inliers, aligned colours, the duels between look-alikes) and `decide` names a pin, answers
// "ambiguous" with a family, or answers "no match". Neither reads an image: whatever further evidence
// the decision asks for (a candidate's detail check, the letters of look-alikes) comes through
// `DecisionProbes`, which the engine answers from the photo and a test from recorded results.
import { matchConfidence, type ConfidenceInputs } from "./confidence.server";
import type { DetailResult } from "./detail.server";
import type { LineReading } from "./text.server";

export interface MatchResult {
  /** the named pin, its confidence (50-99) and what that was computed from */
  best: { pinId: string; confidence: number; evidence?: ConfidenceInputs } | null;
  candidates: { pinId: string; score: number }[];
  reason: "match" | "no_match" | "ambiguous";
  /**
   * With "ambiguous": the pins among `candidates` that could not be told apart (the duels' favourite,
   * its rivals at its place and the pins it was not parted from), for the user to choose among; the
   * other candidates are only similar.
   */
  family?: string[];
  timings?: Record<string, number>;
}

/** A decision: a match result without its timings. */
export type Decision = Omit<MatchResult, "timings">;

/** What scoring and deciding read of a candidate (one reference image of a pin). */
export interface CandidateEvidence {
  pinId: string;
  /** geometric inliers of its homography (or the quick count when none was fitted) */
  inliers: number;
  /** its homography, photo -> reference; null when none was fitted */
  H: number[] | null;
  /** mean colour residual of the photo warped onto its thumbnail (undefined: colours not compared) */
  resid?: number;
  /** ... of the best 75% of the pin's pixels */
  residTrim?: number;
}

/** A duel between two look-alike candidates on the pixels where their references differ (`pairwise`). */
export interface DuelOutcome<V> {
  a: V;
  b: V;
  errA: number;
  errB: number;
  /** pixels where the two references differ */
  area: number;
}

/** What the duels between the plausible candidates came to. */
export interface DuelTally<V> {
  /** the candidates that duelled (`plausibleRivals`) */
  plausible: V[];
  wins: Map<V, number>;
  losses: Map<V, number>;
  /** smallest relative margin of the candidate's wins (0 once it lost or tied; 1 with no duel) */
  margin: Map<V, number>;
  /** largest error of the photo on the differing pixels of the duels it won */
  duelErr: Map<V, number>;
  /** the pairs that no duel parted: too close to call, or look-alikes at one place with no pixels to compare */
  unparted: [V, V][];
  /** [winner, loser] of the duels that parted them */
  beaten: [V, V][];
}

/** The candidates in order: the duels' order, then the other pins by their score. */
export interface Scored<V> {
  /** the plausible candidates, the pins that lost no duel first */
  ordered: V[];
  winner: V | undefined;
  /** the pins of the answer with their scores (at most `limit`) */
  candidates: { pinId: string; score: number }[];
  /** the pins with the most geometric evidence, scores below 50: the suggestions of a "no match" */
  closest: { pinId: string; score: number }[];
}

/**
 * The evidence the decision may ask for beyond the recorded one. The engine answers from the photo
 * (each at most once per candidate); a test answers from recorded results.
 */
export interface DecisionProbes<V> {
  /** The two candidates were found at one place in the photo (their silhouettes overlap). */
  samePlace(a: V, b: V): boolean;
  /** The candidate's full-resolution detail check (undefined: none could be made). */
  detail(v: V): Promise<DetailResult | undefined>;
  /**
   * Every look-alike among the plausible candidates checked in detail, and the one whose letters the
   * photo shows (`readLetters` in compare.server.ts), with its smallest margin and its detail check;
   * null when the letters name none.
   */
  readLetters(): Promise<{ v: V; margin: number; d: DetailResult | undefined } | null>;
  /** `o` is a look-alike of `winner` that prints at most YEAR_LETTERS letters otherwise (another year or age group). */
  yearApart(o: V, winner: V): Promise<boolean>;
  /**
   * The letters the winner and its look-alike `o` print otherwise, compared with the photo in the
   * winner's frame (`letterDuel`): a negative score leans to `o`. Null when they cannot be compared.
   */
  letterLean(winner: V, o: V): Promise<{ letters: number; score: number } | null>;
  /**
   * The photo, warped onto the candidate's reference, read on its lines of lettering
   * (`readPhotoLines` in text.server.ts): how each line reads (`refutes`, `confirms`).
   */
  textReads(v: V): Promise<LineReading[]>;
  /** Records the time spent since the last lap under this name (optional). */
  lap?(name: string): void;
}

/** The highest score of a pin that is not named (a suggestion, or one of a family to choose from). */
const NO_MATCH_MAX_SCORE = 49;

// ---- tunables (fitted on the public benchmark set as a whole) ----
const AMBIGUOUS_MARGIN = 0.05; // relative error gap required to prefer one look-alike pin over another
const PAIR_MIN_AREA = 12;
const PLAUSIBLE_FACTOR = 1.4;
const PLAUSIBLE_ADD = 4;
// Acceptance rule (fitted on the public benchmark as a whole, not per query):
//   inliers >= ACCEPT_INLIERS and aligned colour residual <= ACCEPT_RESID + ACCEPT_RESID_PER_INLIER * (inliers - ACCEPT_INLIERS)
const ACCEPT_INLIERS = 18;
const ACCEPT_RESID = 10;
const ACCEPT_RESID_PER_INLIER = 0.5;
// Full-resolution detail acceptance (detail.server.ts): enough textured tiles compared, few of them
// disagreeing, and no larger patch of disagreement (a different team name or year)
export const DETAIL_MIN_INLIERS = 12;
const DETAIL_MIN_TILES = 20;
const DETAIL_MAX_MISMATCH = 0.2;
const DETAIL_MAX_CLUSTER = 3;
// a share of the pin's tiles not close to the reference vetoes it; letters that differ veto it on their
// own (wrongLetters), so the share is for a pin changed beyond its lettering: over 40% (30% refused right
// pins that motion blur, defocus, glare or a small pin in the frame left a third of the tiles apart, and
// no unknown pin more)
const DETAIL_VETO_SHARE = 0.4;
const DETAIL_VETO_CLUSTER = 20;
// letters that differ (wrongLetters): a look-alike that is not in the catalogue prints another team name
// (several letters, though glare may leave only two of them to compare) or another year or age group (the
// last digits of a line: lineEndLetters); one letter that differs inside a line is glare, a speck or a
// dangler's swing on the catalogue pin
const LETTERS_VETO = 2;
// letters compared one by one (`lettersRead`) for the pin's lettering to count as read (`photoDamage`)
const LETTERS_READ_MIN = 8;
// ... and the share of the pin's tiles not close to the reference for a disagreement to count as spread
// over the pin (glare, blur) rather than a patch of lettering
const DAMAGE_SPREAD = 0.3;
// a photo with highlights on this share of the pin's pixels or more (the detail check measures them):
// the colour check also accepts the residual of the pin's best 75% of pixels
const HIGHLIGHT_SHARE = 0.01;
// ... up to this share: a reflection covers a minority of a pin; saturated over more of it, the photo is
// blown out or the pin is not where the fit puts it, and no check is relaxed
const HIGHLIGHT_SHARE_MAX = 0.2;
const DUEL_ERR_MAX = 30; // photo disagrees with every look-alike on their differing pixels -> not in catalogue

/** A pin counts this share of the strongest pin's inliers to rival it in the colour duels... */
const RIVAL_INLIERS = 0.4;

/**
 * The pins whose aligned colours (`resid`) rival the best (sorted by resid, as `aligned` is given), at
 * most four. A pin with fewer than RIVAL_INLIERS of the strongest's inliers is no rival, unless the
 * strongest's own colours are not the photo's and the pin is its look-alike (`lookAlike`: the references
 * align). A colour variant shares every feature of the design, and the one whose colours the photo shows
 * may count a third of the other's inliers (the die lines stand out better on a dark enamel): one public
 * photo was answered no match so. Between look-alikes whose colours both agree the bar stays: one found
 * with few inliers more often ties the duels than tells them apart (three photos at 5,000 pins).
 */
export function plausibleRivals<V extends { inliers: number; resid?: number }>(aligned: V[], lookAlike: (strongest: V, v: V) => boolean): V[] {
  const r0 = aligned[0]?.resid ?? 99;
  const i0 = Math.max(0, ...aligned.map((v) => v.inliers));
  const close = (v: V) => (v.resid ?? 99) <= r0 * PLAUSIBLE_FACTOR + PLAUSIBLE_ADD;
  const strongest = aligned.find((v) => v.inliers === i0);
  const offColour = !!strongest && !close(strongest);
  // (the strongest itself, off colour, is not close: it never reaches `rival`)
  const rival = (v: V) => v.inliers >= i0 * RIVAL_INLIERS || (offColour && lookAlike(strongest as V, v));
  return aligned.filter((v) => close(v) && rival(v)).slice(0, 4);
}

/**
 * The duels' outcomes tallied: a duel with too few differing pixels parts nothing (between two pins
 * found at different places in the photo it is no duel at all: `samePlace`), one whose errors differ by
 * less than AMBIGUOUS_MARGIN is too close to call, any other has a winner and a loser.
 */
export function tallyDuels<V>(plausible: V[], outcomes: DuelOutcome<V>[], samePlace: (a: V, b: V) => boolean): DuelTally<V> {
  const wins = new Map<V, number>();
  const margin = new Map<V, number>();
  const duelErr = new Map<V, number>();
  for (const v of plausible) {
    wins.set(v, 0);
    margin.set(v, 1);
    duelErr.set(v, 0);
  }
  const losses = new Map<V, number>();
  const unparted: [V, V][] = [];
  const beaten: [V, V][] = [];
  for (const { a: A, b: B, errA, errB, area } of outcomes) {
    if (area < PAIR_MIN_AREA) {
      // nothing to compare: two pins found at different places in the photo (a photo of several pins)
      // are no rivals; at the same place, their references agree there, and neither can be preferred
      if (!samePlace(A, B)) continue;
      margin.set(A, 0);
      margin.set(B, 0);
      unparted.push([A, B]);
      continue;
    }
    const rel = (errB - errA) / Math.max(errA, errB, 1);
    const w = rel >= 0 ? A : B;
    const l = rel >= 0 ? B : A;
    if (Math.abs(rel) < AMBIGUOUS_MARGIN) unparted.push([A, B]);
    else beaten.push([w, l]);
    wins.set(w, (wins.get(w) ?? 0) + 1);
    losses.set(l, (losses.get(l) ?? 0) + 1);
    margin.set(w, Math.min(margin.get(w) ?? 1, Math.abs(rel)));
    margin.set(l, 0);
    duelErr.set(w, Math.max(duelErr.get(w) ?? 0, Math.min(errA, errB)));
  }
  return { plausible, wins, losses, margin, duelErr, unparted, beaten };
}

/** A candidate's score, 0-100: 40 x its share of 60 inliers plus 60 x its colour agreement (0.3 when not compared). */
export function pinScore(v: { inliers: number; resid?: number }): number {
  const g = Math.min(1, v.inliers / 60);
  const f = v.resid === undefined ? 0.3 : Math.max(0, 1 - v.resid / 40);
  return 100 * (0.4 * g + 0.6 * f);
}

/**
 * The score stage. `verified`: every verified candidate, most inliers first; `tally`: the duels of the
 * plausible ones. The pins that lost no duel come first, by their colour residual (pins found at
 * different places in the photo never duel, and the one whose colours agree best comes first), then the
 * others by duels won; the winner is the first of them. The answer's candidates are those, then the
 * remaining pins by score; a "no match" suggests the pins of most inliers instead: once the colour
 * comparison's favourite is rejected, its order is no better a guess (on the public set the photo's own
 * pin came first among the suggestions for 65 of the 74 no-match photos that suggest it, in duel order
 * for 54).
 */
export function score<V extends CandidateEvidence>(verified: V[], tally: DuelTally<V>, limit: number): Scored<V> {
  const { plausible, wins, losses } = tally;
  const unbeaten = (v: V) => ((losses.get(v) ?? 0) === 0 ? 0 : 1);
  const ordered = [...plausible].sort(
    (x, y) =>
      unbeaten(x) - unbeaten(y) ||
      (unbeaten(x) === 0 ? 0 : (wins.get(y) ?? 0) - (wins.get(x) ?? 0)) ||
      (x.resid ?? 99) - (y.resid ?? 99),
  );
  const pinBest = new Map<string, V>();
  for (const v of verified) {
    const cur = pinBest.get(v.pinId);
    if (!cur || pinScore(v) > pinScore(cur)) pinBest.set(v.pinId, v);
  }
  const rest = [...pinBest.values()].filter((v) => !ordered.some((o) => o.pinId === v.pinId)).sort((x, y) => pinScore(y) - pinScore(x));
  let prev = 101;
  const candidates = [...ordered, ...rest].slice(0, limit).map((v) => {
    const sc = Math.min(prev, Math.round(pinScore(v)));
    prev = sc;
    return { pinId: v.pinId, score: sc };
  });
  const most = new Map<string, V>();
  for (const v of verified) {
    const cur = most.get(v.pinId);
    if (!cur || v.inliers > cur.inliers) most.set(v.pinId, v);
  }
  let top = NO_MATCH_MAX_SCORE;
  const closest = [...most.values()]
    .sort((x, y) => y.inliers - x.inliers || pinScore(y) - pinScore(x))
    .slice(0, limit)
    .map((v) => {
      top = Math.min(top, Math.round(pinScore(v)));
      return { pinId: v.pinId, score: top };
    });
  return { ordered, winner: ordered[0], candidates, closest };
}

/** The aligned colour residual the acceptance rule allows at this many inliers. */
export function allowedResid(inliers: number): number {
  return ACCEPT_RESID + ACCEPT_RESID_PER_INLIER * (inliers - ACCEPT_INLIERS);
}

/** Enough textured tiles compared, few of them disagreeing, and no larger patch of disagreement. */
export function detailAccepts(d: DetailResult): boolean {
  return d.tiles >= DETAIL_MIN_TILES && d.mismatch <= DETAIL_MAX_MISMATCH && d.cluster <= DETAIL_MAX_CLUSTER;
}

/**
 * A patch of lettering (or a large share of the pin) that is not close to the reference, or letters that
 * differ: a digit at the end of a line (another year), or several (another name).
 */
export function detailVetoes(d: DetailResult): boolean {
  return tilesVeto(d) || lettersRefuse(d);
}

/** A patch of lettering, or a large share of the pin, that is not close to the reference. */
function tilesVeto(d: DetailResult): boolean {
  return d.notClose > DETAIL_VETO_SHARE || d.notCloseCluster > DETAIL_VETO_CLUSTER;
}

/** Letters that refuse the pin: a digit at the end of a line (another year), or several (another name). */
function lettersRefuse(d: DetailResult): boolean {
  return d.wrongLetters >= LETTERS_VETO || d.lineEndLetters > 0;
}

/**
 * The detail check's disagreement is the photo's own damage, not another team name or year: it is spread
 * over the pin (tiles that are not close on at least DAMAGE_SPREAD of it; glare, motion blur or a soft
 * corner leave a third of the tiles apart, where the letters of another name or year leave a patch the
 * size of a line), the pin's design still shows through it (tiles that do not correlate at all on at most
 * DETAIL_VETO_SHARE of it), enough textured tiles were compared, at least LETTERS_READ_MIN of the
 * reference's letters and digits were compared one by one, and none of them refuses the pin
 * (`lettersRefuse`). On the public set, the favourites refused by the patch rule alone while their colours
 * agreed were those of 10 photos, all of the right pin (8 of them meet this, the other two had 0 and 4
 * letters read): top-1 85.2 -> 86.5%, no false match more. At 5,000 pins two unknown photos were such
 * favourites: a look-alike whose letters missed the difference, with not-close tiles on a fifth of the
 * pin, and a novel pin whose tiles did not correlate at all on 57% of it; neither meets this.
 */
function photoDamage(d: DetailResult): boolean {
  return d.notClose >= DAMAGE_SPREAD && readableDamage(d) && d.lettersRead >= LETTERS_READ_MIN && !lettersRefuse(d);
}

/**
 * The tiles' disagreement may be the photo's own damage when its lettering, read as text, is the pin's
 * (`textReads`, `confirms`): the pin's design still shows through it and enough textured tiles were
 * compared.
 */
function readableDamage(d: DetailResult): boolean {
  return d.mismatch <= DETAIL_VETO_SHARE && d.tiles >= DETAIL_MIN_TILES;
}

/**
 * The detail check refuses the pin for one letter alone, at a line's end (where a year's digit is),
 * and agrees elsewhere: another year, or a speck, a dangler's shadow or a mark of the artwork that the
 * letter boxes took for lettering. The reading as text tells (`readsWhole`).
 */
function oneLineEndLetter(d: DetailResult): boolean {
  return d.wrongLetters === 1 && d.lineEndLetters === 1;
}

/** Highlights on the pin (a reflection), not a blown-out photo or a pin that is elsewhere. */
function highlighted(d: DetailResult): boolean {
  return d.highlights >= HIGHLIGHT_SHARE && d.highlights <= HIGHLIGHT_SHARE_MAX;
}

/**
 * The aligned colours agree; with highlights on the pin (its detail check `d`), those of its best 75% of
 * pixels will do: the reflections' share of the residual is not the pin's colour.
 */
function colourAccepts(v: { inliers: number; resid?: number; residTrim?: number }, d: DetailResult | undefined): boolean {
  if (v.inliers < ACCEPT_INLIERS) return false;
  const allowed = allowedResid(v.inliers);
  return (v.resid ?? 99) <= allowed || (!!d && highlighted(d) && (v.residTrim ?? 99) <= allowed);
}

/**
 * A match with `v`: its confidence (`matchConfidence`, from its evidence, the smallest margin of its
 * duels and its detail check `d`), and the other candidates scored below it.
 */
function accept<V extends CandidateEvidence>(v: V, margin: number, d: DetailResult | undefined, input: DecisionInput<V>): Answer<V> {
  const { verified, scored: { candidates }, limit } = input;
  const x = confidenceInputs(v, margin, d, verified);
  const confidence = matchConfidence(x);
  const out = candidates.filter((c) => c.pinId !== v.pinId).map((c) => ({ pinId: c.pinId, score: Math.min(c.score, confidence - 1) }));
  out.unshift({ pinId: v.pinId, score: confidence });
  return { decision: { best: { pinId: v.pinId, confidence, evidence: x }, candidates: out.slice(0, limit), reason: "match" }, named: v };
}

/** The cascade's answer, with the candidate (the reference of the named pin) it accepted when it names one. */
interface Answer<V> {
  decision: Decision;
  named?: V;
}

/** What a match's confidence is computed from (`ConfidenceInputs`). */
function confidenceInputs<V extends CandidateEvidence>(v: V, margin: number, d: DetailResult | undefined, verified: V[]): ConfidenceInputs {
  const runnerUp = Math.max(0, ...verified.filter((o) => o.pinId !== v.pinId).map((o) => o.inliers));
  return {
    inliers: v.inliers,
    colour: (v.resid ?? 99) / Math.max(1, allowedResid(v.inliers)),
    margin,
    runnerUp: runnerUp / Math.max(1, v.inliers),
    ...(d ? { detail: storedDetail(d) } : {}),
  };
}

/** A detail check as the answer's evidence stores it: the differing letters' boxes left out. */
function storedDetail(d: DetailResult): Omit<DetailResult, "wrongBoxes"> {
  const { wrongBoxes: _boxes, ...stored } = d;
  return stored;
}

export interface DecisionInput<V> {
  /** every verified candidate, most inliers first */
  verified: V[];
  tally: DuelTally<V>;
  scored: Scored<V>;
  limit: number;
}

/**
 * The decide stage. Accept the favourite when its colours or its detail agree and no letter refuses it;
 * when the duels cannot part look-alikes, read their letters or answer "ambiguous" with the family (the
 * favourite, its rivals at its place and any pin it was not parted from); when the favourite is refused
 * (or there is none), check the pin with the most inliers on its own; when the named pin's lettering
 * reads otherwise, look for the look-alike whose lettering the photo reads; otherwise "no match" with
 * the pins of most geometric evidence.
 */
export async function decide<V extends CandidateEvidence>(input: DecisionInput<V>, probes: DecisionProbes<V>): Promise<Decision> {
  const { decision, named } = await cascade(input, probes);
  // the named pin's lettering, read as text on the photo: a line that reads otherwise (another year
  // or team name, which the catalogue does not hold) turns the match into no match, the pin still
  // first among the suggestions. The lines read are those of the reference the cascade accepted (a
  // pin with two references may be named on either), and those its other verified reference prints
  // and it lacks (`linesBeside`). Validation, engine alone: 5 of the 14
  // near-duplicates named and a novel pin refused, no right pin (README, "Reading the lettering")
  if (named && refutes(await probes.textReads(named))) {
    // ... unless the pin with the most inliers is another pin that passes its detail check and whose
    // own lettering does not read otherwise: the photo reads "STONY BROOK" where the duels' favourite
    // prints "FOX HOLLOW", and the pin found most strongly prints "STONY BROOK"
    const other = await strongestOnItsOwn(input, probes, named);
    if (other?.named && !refutes(await probes.textReads(other.named))) return other.decision;
    // ... or a look-alike found at its place reads as it prints its own lines (`readAsLookAlike`)
    const confirmed = await readAsLookAlike(input, probes, named);
    if (confirmed) return confirmed;
    const suggestions = decision.candidates.map((c) => ({ pinId: c.pinId, score: Math.min(c.score, NO_MATCH_MAX_SCORE) }));
    return { best: null, candidates: suggestions, reason: "no_match" };
  }
  if (decision.reason === "ambiguous" && decision.family) return (await familyByText(input, probes, decision.family)) ?? decision;
  return decision;
}

/**
 * One of a family offered whose own lines (those not every other member prints: its year, or its age
 * group) the photo reads as it prints them, when it reads another member's own lines otherwise, for
 * every other member: named if its detail agrees. The lines the members share tell nothing.
 */
async function familyByText<V extends CandidateEvidence>(input: DecisionInput<V>, probes: DecisionProbes<V>, family: string[]): Promise<Decision | null> {
  const members = family.map((id) => input.scored.ordered.find((v) => v.pinId === id) ?? input.verified.find((v) => v.pinId === id));
  if (members.some((v) => !v)) return null;
  const reads = await Promise.all((members as V[]).map(async (v) => ({ v, lines: await probes.textReads(v) })));
  const own = (r: (typeof reads)[number]) => r.lines.filter((l) => !reads.every((o) => o === r || o.lines.some((m) => lettersOf(m.text) === lettersOf(l.text))));
  const confirmed = reads.filter((r) => confirms(own(r)));
  if (confirmed.length !== 1 || !reads.every((r) => r === confirmed[0] || differs(own(r)))) return null;
  const v = confirmed[0].v;
  if (v.inliers < DETAIL_MIN_INLIERS) return null;
  return namedOnDetail(v, input, probes);
}

/** A match with `v` when its detail check agrees and nothing vetoes it, else null. */
async function namedOnDetail<V extends CandidateEvidence>(v: V, input: DecisionInput<V>, probes: DecisionProbes<V>): Promise<Decision | null> {
  const d = await probes.detail(v);
  return d && detailAccepts(d) && !detailVetoes(d) ? accept(v, 1, d, input).decision : null;
}

/**
 * A look-alike of the refused pin, found at its place in the photo, whose own lines (those the refused
 * pin does not print: its team name or its year) the photo reads as it prints them, and none of whose
 * lines reads otherwise: the lettering that refused one pin of a design names another. Named if it is
 * the only one of the first LOOK_ALIKES_READ so read and its detail agrees. A pin that is not in the
 * catalogue prints lines that none of them prints, so no other pin's reads as printed.
 */
async function readAsLookAlike<V extends CandidateEvidence>(input: DecisionInput<V>, probes: DecisionProbes<V>, refused: V): Promise<Decision | null> {
  const seen = new Set<string>([refused.pinId]);
  const others: V[] = [];
  for (const v of input.verified) {
    // (colours compared: found where the pin is, with a place to compare)
    if (seen.has(v.pinId) || !v.H || v.inliers < DETAIL_MIN_INLIERS || v.resid === undefined) continue;
    seen.add(v.pinId);
    if (probes.samePlace(v, refused)) others.push(v);
  }
  if (others.length === 0) return null;
  const refusedLines = (await probes.textReads(refused)).map((l) => lettersOf(l.text));
  const reads = await Promise.all(others.slice(0, LOOK_ALIKES_READ).map(async (v) => ({ v, lines: await probes.textReads(v) })));
  const own = (lines: LineReading[]) => lines.filter((l) => !refusedLines.includes(lettersOf(l.text)));
  const confirmed = reads.filter((r) => confirms(own(r.lines)) && !differs(r.lines));
  return confirmed.length === 1 ? namedOnDetail(confirmed[0].v, input, probes) : null;
}
const LOOK_ALIKES_READ = 3;

/** A line's letters and digits, upper case. */
function lettersOf(text: string): string {
  return text.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
}

/** A line of the reading refutes the pin (`lineRefutes`: another year or team name). */
function refutes(lines: LineReading[]): boolean {
  return lines.some((l) => l.verdict === "refutes");
}

/** A line reads otherwise with confidence, or refutes the pin. */
function differs(lines: LineReading[]): boolean {
  return lines.some((l) => l.verdict === "refutes" || l.verdict === "otherwise");
}

/**
 * Every line of the reference, READS_WHOLE_MIN or more, was read with confidence letter for letter as
 * it prints it: a line that merely agrees (`lineAgrees` takes one letter read otherwise) may be the
 * one whose last letter differs ("EAGLET" for "EAGLES").
 */
function readsWhole(lines: LineReading[]): boolean {
  return lines.length >= READS_WHOLE_MIN && lines.every((l) => l.verdict === "agrees" && l.same);
}
const READS_WHOLE_MIN = 2;

/**
 * Lines of `minChars` letters and digits or more in all read as the reference prints them, and none
 * reads otherwise with confidence.
 */
function confirms(lines: LineReading[], minChars = 1): boolean {
  const agreed = lines.filter((l) => l.verdict === "agrees").reduce((n, l) => n + lettersOf(l.text).length, 0);
  return agreed > 0 && agreed >= minChars && !differs(lines);
}
// a patch of tiles apart is the photo's damage only when lines of this many letters and digits read as
// printed: a near-duplicate's other team name is a patch beside the "10U" that reads as printed
const DAMAGE_READ_CHARS = 6;

/**
 * The pin with the most inliers, checked in detail on its own once the pin `refused` is not named (or
 * when no pin's colours came close enough to make one the favourite, `refused` null): it is named when
 * its colours or its detail agree, as the favourite's must, and nothing vetoes it (or the veto is the
 * photo's own damage: `vetoWaived`). Null when it is `refused`'s pin, has no homography or
 * too few inliers for a detail check, or its evidence falls short.
 */
async function strongestOnItsOwn<V extends CandidateEvidence>(input: DecisionInput<V>, probes: DecisionProbes<V>, refused: V | null): Promise<Answer<V> | null> {
  const g = input.verified[0];
  if (!g?.H || g.pinId === refused?.pinId || g.inliers < DETAIL_MIN_INLIERS) return null;
  const dg = await probes.detail(g);
  probes.lap?.("fallback");
  if (!dg) return null;
  const colourOk = colourAccepts(g, dg);
  if (!detailAccepts(dg) && !colourOk) return null;
  return !detailVetoes(dg) || (await vetoWaived(g, dg, colourOk, probes)) ? accept(g, 1, dg, input) : null;
}

/**
 * The detail check's veto of `v` is the photo's own damage, not another team name or year. Its
 * letters that differ are the pin's when each lies in a line that the photo reads letter for letter
 * as printed (`same`), or when the one that differs is at a line's end and every line reads as
 * printed (`oneLineEndLetter`, `readsWhole`). Its tiles that differ are the photo's damage when its
 * colours agree and the disagreement is spread over a pin whose letters were compared one by one
 * (`photoDamage`) or whose lettering reads as printed (`readableDamage`, `confirms`).
 */
async function vetoWaived<V extends CandidateEvidence>(v: V, d: DetailResult, colourOk: boolean, probes: DecisionProbes<V>): Promise<boolean> {
  if (colourOk && photoDamage(d)) return true;
  const lines = await probes.textReads(v);
  const readAsPrinted = d.wrongBoxes.length > 0 && d.wrongBoxes.every((g) => lines.some((l) => l.same && boxHolds(l.box, g)));
  if (lettersRefuse(d) && !readAsPrinted && !(oneLineEndLetter(d) && readsWhole(lines))) return false;
  return !tilesVeto(d) || (colourOk && readableDamage(d) && confirms(lines, DAMAGE_READ_CHARS));
}

/** A line's box holds a glyph's centre. */
function boxHolds(box: LineReading["box"], [x, y, w, h]: number[]): boolean {
  if (!box) return false;
  const [bx, by, bw, bh] = box;
  const cx = x + w / 2, cy = y + h / 2;
  return cx >= bx && cx <= bx + bw && cy >= by && cy <= by + bh;
}

/**
 * The cascade of rules that names a pin, offers a family or finds no match, before the lettering is
 * read as text (`decide`).
 */
async function cascade<V extends CandidateEvidence>(input: DecisionInput<V>, probes: DecisionProbes<V>): Promise<Answer<V>> {
  const { tally, scored } = input;
  const { plausible, margin, duelErr, unparted, beaten } = tally;
  const { winner, candidates, closest } = scored;
  const noMatchAnswer: Answer<V> = { decision: { best: null, candidates: closest, reason: "no_match" } };
  // full-resolution detail check of the winner
  const d = winner ? await probes.detail(winner) : undefined;
  probes.lap?.("detail");
  // no favourite: the colours that came closest were those of a pin found with too few inliers to rival
  // the strongest, and the strongest's own were not close to them (glare, a tint of the light); it is
  // checked on its own, as when a favourite is refused
  if (!winner) return (await strongestOnItsOwn(input, probes, null)) ?? noMatchAnswer;
  /**
   * An "ambiguous" answer: the candidates, and among them the family to choose from: the favourite,
   * its rivals found at its place (the pins whose colours came close enough to duel), and any pin it
   * was not parted from (a duel too close to call, one it lost, or no pixels to compare). The other
   * candidates are only similar (on the public set, 32 of the 37 ambiguous answers also show pins
   * outside their family, mostly of other designs that share a template, which had all been offered
   * as near-identical; the photo's own pin is in the family for 26 of the 28 known photos answered
   * so, and for the other 2, whose colours or inliers fell short of a rival's, it is still shown).
   */
  const ambiguous = (): Answer<V> => {
    const kin = new Set<string>([winner.pinId]);
    for (const v of plausible) if (v !== winner && probes.samePlace(v, winner)) kin.add(v.pinId);
    for (const [A, B] of unparted) if (A === winner || B === winner) kin.add((A === winner ? B : A).pinId);
    for (const [w, l] of beaten) if (l === winner) kin.add(w.pinId);
    const family = candidates.map((c) => c.pinId).filter((id) => kin.has(id));
    const unsure = candidates.map((c) => ({ pinId: c.pinId, score: Math.min(c.score, NO_MATCH_MAX_SCORE) }));
    return { decision: { best: null, candidates: unsure, reason: "ambiguous", family: family.length > 1 ? family : candidates.map((c) => c.pinId) } };
  };
  // two ways to accept: the aligned colours agree (thumbnail), or the full-resolution detail agrees
  // tile by tile (survives glare, blur and lighting that upset the colour residual)
  const colourOk = colourAccepts(winner, d);
  const detailOk = !!d && winner.inliers >= DETAIL_MIN_INLIERS && detailAccepts(d);
  // the colour check can favour a pin with little geometric evidence over one with much more (glare
  // or lighting raise the latter's residual, or the favourite was found on another pin of the photo,
  // or it beat the pin with the most inliers in a duel its colours misjudged): when the favoured pin
  // is not accepted, the pin with the most inliers is checked in detail on its own
  const noMatch = async (): Promise<Answer<V>> => (await strongestOnItsOwn(input, probes, winner)) ?? noMatchAnswer;
  if (!colourOk && !detailOk) return noMatch();
  // look-alikes may print another year or team name: each is checked in detail and their differing
  // letters are compared with the photo (a pin that is no look-alike of another has no letters to
  // compare, and is not checked); the look-alike whose letters the photo shows, if its detail agrees
  const byLetters = async (refused?: V): Promise<Answer<V> | null> => {
    const read = await probes.readLetters();
    const dv = read?.d;
    if (read && read.v !== refused && dv && read.v.inliers >= DETAIL_MIN_INLIERS && detailAccepts(dv) && !detailVetoes(dv)) {
      return accept(read.v, read.margin, dv, input);
    }
    return null;
  };
  const m = plausible.length > 1 ? (margin.get(winner) ?? 0) : 1;
  // look-alikes that the colours cannot tell apart
  if (plausible.length > 1 && m < AMBIGUOUS_MARGIN) return (await byLetters()) ?? ambiguous();
  if (!detailOk && (duelErr.get(winner) ?? 0) > DUEL_ERR_MAX) return noMatch();
  // the colours' favourite whose letters differ from the photo's may be another year of a look-alike
  // that prints the photo's: the few pixels of a digit, at thumbnail size, can favour the wrong year by
  // far (three known photos of the public set), and its letters then tell. The favourite itself stays
  // refused even when its letters beat the look-alike's: they are compared only where the two differ,
  // and the letter that refused it may be where another year, not in the catalogue, differs
  const lettersOrNoMatch = async () => (plausible.length > 1 && (await byLetters(winner))) || noMatch();
  // a patch of lettering (or a large share of the pin) that is not close to the reference: most
  // likely another team name or year of the same design, which is not in the catalogue; unless the
  // disagreement is the photo's own (glare, blur, a spinner), which its colours and its lettering,
  // compared letter by letter or read as text, tell (`vetoWaived`)
  if (d && detailVetoes(d) && !(await vetoWaived(winner, d, colourOk, probes))) return lettersOrNoMatch();
  // a letter that differs inside a line passes for the pin's own damage only when no look-alike (the
  // same design: the references align) that differs from it in a year or an age group was found at
  // its place: between years of one design, it may be the digit that tells them apart. A look-alike
  // that prints another team name differs in more letters than YEAR_LETTERS, and those the photo
  // shows as the pin's own.
  /** A look-alike a year apart from the winner, found at its place in the photo. */
  const yearApartHere = async (o: V) => o !== winner && probes.samePlace(o, winner) && (await probes.yearApart(o, winner));
  if (d && d.wrongLetters > 0) {
    for (const o of plausible) if (await yearApartHere(o)) return lettersOrNoMatch();
  }
  // a look-alike a year apart found at the winner's place: the winner's letters may all pass (the
  // photo's 6 correlates 0.90 with the 8 of another year of a condensed font, and the thumbnails'
  // duel favoured that year), so their differing letters are compared with the photo in the
  // winner's frame; when the photo leans to the look-alike's, all are compared as for look-alikes
  // the colours cannot tell apart, and the one whose letters the photo shows is named instead (two
  // public photos of a 2016 pin were named 2018). The first comparison costs a few ms; the second
  // checks every look-alike in detail
  if (d) {
    for (const o of plausible) {
      if (!(await yearApartHere(o))) continue;
      const lean = await probes.letterLean(winner, o);
      if (!lean || lean.letters === 0 || lean.score >= 0) continue;
      const read = await byLetters();
      if (read?.named && read.named.pinId !== winner.pinId) return read;
      break;
    }
  }
  return accept(winner, plausible.length > 1 ? m : 1, d, input);
}

/**
 * Similar pins scoring below this are noise beside a named pin and are not shown (the near-identical
 * pins of an ambiguous answer always are: they are the choice). A pin's score is 40 x its share of 60
 * geometric inliers plus 60 x its colour agreement, and a pin whose colours were never compared counts
 * 0.3 of that: such a pin with a handful of chance inliers lands at 18-29 (a pennant beside shields
 * scored 24-25). From 30 on, a pin either agreed in colour or had a third of the inliers: it looks alike.
 */
export const SIMILAR_MIN_SCORE = 30;
/**
 * ... and below this when no pin is named: then the similar pins are the photographer's way to their
 * pin ("This is my pin"), and a pin the photo's geometry found, whose colours were not found unlike
 * (18: a few inliers, colours never compared), is worth a look. Below 18 the colours were compared and
 * disagree. On the validation set (engine alone, answers unchanged) the photo's own pin is then among
 * the pins shown for 86.3% of the known photos instead of 84.3%, the public set's 96.8% unchanged; a
 * photo of a pin not in the catalogue is shown 3.1 pins instead of 1.5.
 */
export const SUGGESTION_MIN_SCORE = 18;
/** How many similar pins an answer shows (`shownSimilar` in identify.server.ts): a no match's suggestions. */
export const SIMILAR_PINS_LIMIT = 4;

/**
 * Whether the pins of closest appearance would be shown beside a no-match answer's `candidates`
 * (best first): not when its engine's suggestions that look alike fill every place. The engine then
 * leaves the photo's windows alone (about 40 ms of CPU; 12 of the validation set's 73 no-match
 * answers, every other photo).
 */
export function appearanceWanted(candidates: Decision["candidates"]): boolean {
  return lookingAlike(candidates).length < SIMILAR_PINS_LIMIT;
}

/** The engine's suggestions that look alike (SIMILAR_MIN_SCORE): a no-match answer shows them first. */
function lookingAlike(candidates: Decision["candidates"]): Decision["candidates"] {
  return candidates.filter((c) => c.score >= SIMILAR_MIN_SCORE);
}

/**
 * A no-match answer's suggestions with the pins whose appearance comes closest to the photo's
 * (`appearance.server.ts`, best first): the engine's suggestions that look alike (SIMILAR_MIN_SCORE)
 * keep the first places, the pins of closest appearance fill the others, and the engine's weaker
 * suggestions come after them. A pin of closest appearance scores 49 x its similarity, at least
 * SUGGESTION_MIN_SCORE (18-49): shown, never named.
 */
export function suggestByAppearance(candidates: Decision["candidates"], closest: { pinId: string; similarity: number }[]): Decision["candidates"] {
  const out = lookingAlike(candidates);
  const seen = new Set(out.map((c) => c.pinId));
  for (const a of closest) {
    if (out.length >= SIMILAR_PINS_LIMIT) break;
    if (seen.has(a.pinId)) continue;
    seen.add(a.pinId);
    const engine = candidates.find((c) => c.pinId === a.pinId);
    out.push({ pinId: a.pinId, score: Math.max(engine?.score ?? 0, Math.min(NO_MATCH_MAX_SCORE, Math.max(SUGGESTION_MIN_SCORE, Math.round(NO_MATCH_MAX_SCORE * a.similarity)))) });
  }
  for (const c of candidates) if (!seen.has(c.pinId)) out.push(c);
  return out;
}
