/** A badge a change has just earned (each one is a 'Badge Unlocked!' toast). */
export interface UnlockedBadge {
  id: string;
  name: string;
  description: string;
  points: number;
}
