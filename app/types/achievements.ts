/** A badge a change has just earned (each one is a 'Badge Unlocked!' toast). */
export interface UnlockedBadge {
  id: string;
  name: string;
  description: string;
  points: number;
}

/** A daily challenge a change has just completed (a 'Challenge Complete!' toast; its reward is paid). */
export interface CompletedChallenge {
  id: string;
  name: string;
  reward: number;
}
