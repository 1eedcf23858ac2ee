/** The shapes the admin area's pages and /api/admin calls share (see services/admin/*.server.ts). */
import type { Rarity, Role, VendorStatus } from '~/utils/constants';

/** 'Active' once onboarding is complete, else 'Pending Setup' (spec §2). */
export type UserStatus = 'Active' | 'Pending Setup';

/** GET /api/admin/users: one user of `{ users, total }`. */
export interface AdminUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  nickname: string | null;
  displayName: string;
  profileImageUrl: string | null;
  role: Role;
  isOnboardingComplete: boolean;
  status: UserStatus;
  createdAt: string;
  updatedAt: string;
}

export interface AdminUserList {
  users: AdminUser[];
  total: number;
}

/** The details view: the user and what they hold. */
export interface AdminUserDetails extends AdminUser {
  teamsManaged: number;
  collectionEntries: number;
  identifications: number;
  vendorStatus: VendorStatus | null;
}

/** GET /api/admin/pins: one pin of `{ pins, total }` (spec §3 'Admin pin list'). */
export interface AdminPin {
  id: string;
  name: string;
  description: string | null;
  organizationId: string;
  organization: string | null;
  teamId: string | null;
  team: string | null;
  totalQuantity: number;
  rarity: Rarity;
  estimatedValue: number | null;
  isFeatured: boolean;
  distributionDate: string | null;
  year: number | null;
  event: string | null;
  createdAt: string;
  images: string[];
  thumbnail: string | null;
  primaryPhotoIndex: number;
}

export interface AdminPinList {
  pins: AdminPin[];
  total: number;
}

export interface AdminOrganization {
  id: string;
  name: string;
  description: string | null;
  createdAt: string;
  pinCount: number;
}

export interface AdminOrganizationList {
  organizations: AdminOrganization[];
  total: number;
}

/** GET /api/admin/teams: one team (spec §3 'Admin team list item'). */
export interface AdminTeam {
  id: string;
  name: string;
  description: string | null;
  location: string | null;
  managerId: string | null;
  managerName: string | null;
  memberCount: number;
  createdAt: string;
}

export interface AdminTeamList {
  items: AdminTeam[];
  total: number;
}

/** A manager candidate (spec §3). */
export interface ManagerCandidate {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  nickname: string | null;
}

/** One row of the audit log as the admin pages show it. */
export interface AuditLogEntry {
  id: string;
  userId: string | null;
  actorName: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  /** the admin page of the record, when it has one */
  targetHref: string | null;
  details: Record<string, unknown> | null;
  /** the details as "role: player → manager" lines, for the pages */
  summary: string;
  timestamp: string;
}

export interface AuditLogPage {
  entries: AuditLogEntry[];
  total: number;
}
