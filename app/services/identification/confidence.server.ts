// A match's confidence: the probability that the named pin is the photo's, from a logistic model over
// the evidence the decision already has (`ConfidenceInputs`). The model is fitted by
// `tests/bench/fit-confidence.ts` on the public benchmark set's matches and its scale is calibrated on
// the validation set's (engine README, "How far a match's confidence can be trusted"); it is stored in
// `confidence-model.json`. It only says how sure a match is: which pin is named, and whether one is, is
// the decision's.
import type { DetailResult } from './detail.server';
import model from './confidence-model.json';

/** What a match's confidence is computed from: the named candidate's evidence, as the decision saw it. */
export interface ConfidenceInputs {
  /** geometric inliers of the named reference */
  inliers: number;
  /** its aligned colour residual over what the acceptance rule allows at its inliers (99 / allowed when not compared) */
  colour: number;
  /** the smallest relative margin of the duels it won (1 with none) */
  margin: number;
  /** the most inliers of any other pin, over its own */
  runnerUp: number;
  /** its full-resolution detail check, when one was made */
  detail?: Pick<DetailResult, 'tiles' | 'median' | 'notClose' | 'mismatch' | 'lettersRead' | 'wrongLetters' | 'highlights' | 'sigma'>;
}

/**
 * The model's inputs, in the order of its weights. Of the evidence recorded (`ConfidenceInputs`, kept
 * whole so that a refit can try other inputs), only these two sort right matches from wrong ones on
 * the validation set better than chance when fitted on the public set (area under the ROC curve 0.62
 * together): another pin found with nearly as many inliers, and how many of the reference's letters
 * the detail check compared (a near-duplicate of another year or team name is named most often from a
 * small or blurred photo, whose letters could not be read). Adding the inliers, the colours, the duels'
 * margin or the detail tiles fitted the public set's 13 wrong matches better and sorted the validation
 * set's worse (0.48 with all eleven).
 */
export const CONFIDENCE_FEATURES = ['runner-up share', 'letters read'] as const;

export function confidenceFeatures(x: ConfidenceInputs): number[] {
  return [Math.min(1.5, Math.max(0, x.runnerUp)), Math.log1p(x.detail?.lettersRead ?? 0)];
}

/** A fitted model: standardisation, weights of the standardised inputs, and the calibrating scale. */
export interface ConfidenceModel {
  features: readonly string[];
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  /** Platt scaling fitted on the validation set: p = sigmoid(a * logit + b) */
  calibration: { a: number; b: number };
}

/** The model's logit before calibration. */
export function confidenceLogit(m: ConfidenceModel, f: number[]): number {
  let z = m.bias;
  for (let i = 0; i < f.length; i++) z += m.weights[i] * ((f[i] - m.mean[i]) / m.scale[i]);
  return z;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The probability that the match is right, 0-1. */
export function matchProbability(x: ConfidenceInputs, m: ConfidenceModel = model as ConfidenceModel): number {
  return sigmoid(m.calibration.a * confidenceLogit(m, confidenceFeatures(x)) + m.calibration.b);
}

/** A match's confidence as shown: its probability in percent, 50-99 (a match is never shown as a coin toss or a certainty). */
export function matchConfidence(x: ConfidenceInputs, m: ConfidenceModel = model as ConfidenceModel): number {
  return Math.max(50, Math.min(99, Math.round(100 * matchProbability(x, m))));
}
