/** The shapes in which teams leave the server (pages and /api alike); see services/teams.server.ts. */

/** How the signed-in user belongs to a team in their list. */
export type TeamRelation = 'manager' | 'coach' | 'player' | 'admin';

/** GET /api/teams: a team the user manages, coaches or plays on. */
export interface TeamSummary {
  id: string;
  name: string;
  location: string | null;
  description: string | null;
  managerId: string | null;
  /** the stored image (full size); `logoThumbUrl` is the small variant cards show */
  logoUrl: string | null;
  logoThumbUrl: string | null;
  createdAt: string;
  relation: TeamRelation;
  /** roster plus staff */
  memberCount: number;
}

export interface TeamHeader {
  id: string;
  name: string;
  description: string | null;
  location: string | null;
  managerId: string | null;
  managerName: string | null;
  logoUrl: string | null;
  logoThumbUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RosterEntry {
  id: string;
  playerName: string;
  /** the player's account e-mail, when the child has an account */
  email: string | null;
  position: string | null;
  jerseyNumber: string | null;
  isActive: boolean;
  joinedAt: string;
}

export interface StaffEntry {
  id: string;
  userId: string | null;
  userName: string;
  email: string | null;
  /** 'manager' or 'assistant_coach' (shown with the underscore as a space) */
  role: string;
  isActive: boolean;
  joinedAt: string;
}

/** GET /api/teams/{id}/details */
export interface TeamDetails {
  team: TeamHeader;
  roster: RosterEntry[];
  staff: StaffEntry[];
}

/** What a team's deletion did (the confirmation and the toast say so). */
export interface DeletedTeam {
  id: string;
  name: string;
  removedPlayers: number;
  removedStaff: number;
  /** pins of the team that stay in the catalogue, now without a team */
  keptPins: number;
}
