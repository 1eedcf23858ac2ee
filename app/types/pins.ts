/** The one shape in which a pin leaves the server (pages and /api alike); see services/pin-dto.server.ts. */
import type { Rarity } from '~/utils/constants';

export interface PinDto {
  id: string;
  name: string;
  description: string | null;
  images: string[];
  thumbnail: string | null;
  primaryPhotoIndex: number;
  rarity: Rarity;
  rarityScore: number;
  totalQuantity: number;
  availableQuantity: number;
  identificationCount: number;
  organizationId: string;
  organization: { id: string; name: string } | null;
  teamId: string | null;
  team: { id: string; name: string } | null;
  year: number | null;
  event: string | null;
  estimatedValue: number | null;
  distributionDate: string | null;
  createdBy: string | null;
  createdAt: string;
  isFeatured: boolean;
}
