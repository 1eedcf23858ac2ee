/** Comments and reactions on a pin, as the pin page and /api show them (browser-safe). */
import type { ReactionType } from '~/utils/constants';

export interface PinCommentDto {
  id: string;
  pinId: string;
  content: string;
  author: { id: string | null; name: string; nickname: string | null };
  createdAt: string;
  updatedAt: string;
  edited: boolean;
  canEdit: boolean;
  canDelete: boolean;
}

export interface PinReactionsDto {
  counts: Record<ReactionType, number>;
  /** the viewer's own reactions (empty for a visitor) */
  mine: ReactionType[];
}
