/** What the trading pages and /api calls show (browser-safe). */
import type { NotificationType, TradeStatus } from '~/utils/constants';

export interface TradePin {
  id: string;
  name: string;
  thumbnail: string | null;
  rarity: string;
}

export interface TraderSummary {
  id: string;
  name: string;
  nickname: string | null;
}

export interface TradeMatch {
  user: TraderSummary;
  /** my trading pins they want */
  give: TradePin[];
  /** their trading pins I want */
  receive: TradePin[];
  twoWay: boolean;
}

export interface TradeProposalDto {
  id: string;
  status: TradeStatus;
  proposer: TraderSummary;
  recipient: TraderSummary;
  /** pins the proposer gives */
  proposerGives: TradePin[];
  /** pins the recipient gives */
  recipientGives: TradePin[];
  note: string | null;
  parentId: string | null;
  createdAt: string;
  expiresAt: string;
  closedAt: string | null;
  /** what the asking user may do now */
  canAnswer: boolean;
  canCancel: boolean;
}

export interface NotificationDto {
  id: string;
  type: NotificationType;
  message: string;
  link: string | null;
  read: boolean;
  createdAt: string;
}

