/** The identification answer as pages and /api clients see it (spec §3). */
import type { CompletedChallenge, UnlockedBadge } from './achievements';
import type { PinDto } from './pins';

export interface IdentificationAnalysis {
  name: string;
  description: string;
  features: string[];
  analysis: string;
  /** 0-100 */
  confidence: number;
}

export interface SimilarPin {
  pin: PinDto;
  /** 0-100 */
  matchScore: number;
  /**
   * With outcome 'ambiguous': one of the near-identical pins the photo could be (the user chooses
   * among these); false for a pin that is only similar. Absent when the outcome is not 'ambiguous'.
   */
  nearIdentical?: boolean;
}

/** The identification response (spec §3), plus the ids that let a page show it again. */
export interface IdentificationResult {
  identified: boolean;
  pin: PinDto | null;
  /** percent, 0-100 */
  confidence: number;
  message: string;
  error: string | null;
  serviceUnavailable: boolean;
  analysis: IdentificationAnalysis;
  similarPins: SimilarPin[];
  /** URL of the stored photo */
  imageData: string;
  /** the stored photo's id (the add-new-pin form carries it as the first photo) */
  imageId: string;
  newlyUnlockedBadges: UnlockedBadge[];
  /** today's challenges this photo completed (absent on a result shown again) */
  completedChallenges?: CompletedChallenge[];
  /** 'ambiguous': near-identical family members, the user chooses among similarPins */
  outcome: 'match' | 'no_match' | 'ambiguous';
  identificationId: string;
}
