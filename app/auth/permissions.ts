/**
 * The one place that answers "may this actor do this to that".
 *
 * - Role sets name who holds a capability (`ADMIN_ROLES`, `PIN_CREATOR_ROLES`, ...).
 * - `can*` answer yes or no, for services and for pages that hide a button.
 * - `assert*` throw the typed error the answer means: Unauthorized (401) for a visitor, Forbidden
 *   (403) for a signed-in user who may not. Services call these; the server always checks, a
 *   hidden button is only a courtesy.
 *
 * Pure: no database, no HTTP, so services, guards and components can all import it.
 */
import { Conflict, Forbidden, Invalid, NotFound, Unauthorized } from '~/services/errors';
import { ROLES, type Role } from '~/utils/constants';

/** Who is acting: enough of the signed-in user to decide (or null for a visitor). */
export interface Actor {
  id: string;
  role: Role;
}
type MaybeActor = Actor | null | undefined;

// ---------------------------------------------------------------- role sets

export const ADMIN_ROLES = ['admin', 'super_admin'] as const satisfies readonly Role[];
/** Roles that may add pins to the catalogue (and the organizations they name). */
export const PIN_CREATOR_ROLES = ['vendor', 'manager', 'admin', 'super_admin'] as const satisfies readonly Role[];
export const VENDOR_ROLES = ['vendor'] as const satisfies readonly Role[];
export const MANAGER_ROLES = ['manager'] as const satisfies readonly Role[];
/** The roles a user may choose for themself at onboarding; any other is given by an admin. */
export const SELF_CHOSEN_ROLES = ['player', 'assistant_coach', 'manager'] as const satisfies readonly Role[];

export function hasRole(actor: MaybeActor, roles: readonly Role[]): boolean {
  return !!actor && roles.includes(actor.role);
}

export function isAdmin(actor: MaybeActor): boolean {
  return hasRole(actor, ADMIN_ROLES);
}

export function isAdminRole(role: Role | null | undefined): boolean {
  return !!role && (ADMIN_ROLES as readonly Role[]).includes(role);
}

/** The Vendor link and dashboard are for role vendor (others see 'Become a Vendor'). */
export function isVendorRole(role: Role | null | undefined): boolean {
  return !!role && (VENDOR_ROLES as readonly Role[]).includes(role);
}

/** A visitor may not: 401. Narrows the actor for the caller. */
export function assertSignedIn(actor: MaybeActor, message?: string): asserts actor is Actor {
  if (!actor) throw new Unauthorized(message);
}

/** 401 for a visitor, 403 for a role outside `roles`. */
export function assertRole(actor: MaybeActor, roles: readonly Role[], message?: string): asserts actor is Actor {
  assertSignedIn(actor);
  if (!roles.includes(actor.role)) throw new Forbidden(message);
}

export function assertAdmin(actor: MaybeActor, message?: string): asserts actor is Actor {
  assertRole(actor, ADMIN_ROLES, message);
}

// ---------------------------------------------------------------- pins and organizations

export function canCreatePin(actor: MaybeActor): boolean {
  return hasRole(actor, PIN_CREATOR_ROLES);
}

/** Any signed-in user may suggest a pin; one who may not add pins has it reviewed by an admin. */
export function assertCanSuggestPin(actor: MaybeActor): asserts actor is Actor {
  assertSignedIn(actor, 'Please sign in to suggest a pin');
}

/** The pin suggestion queue (approve, reject) is for admins. */
export function canReviewSuggestions(actor: MaybeActor): boolean {
  return isAdmin(actor);
}

export function assertCanReviewSuggestions(actor: MaybeActor): asserts actor is Actor {
  assertRole(actor, ADMIN_ROLES, 'Only admins can review pin suggestions');
}

export function assertCanCreatePin(actor: MaybeActor): asserts actor is Actor {
  assertRole(actor, PIN_CREATOR_ROLES, 'Only vendors, team managers and admins can add pins to the database');
}

/** A pin is changed by its creator or an admin. */
export function canEditPin(actor: MaybeActor, pin: { createdBy: string | null }): boolean {
  if (!actor) return false;
  return isAdmin(actor) || (pin.createdBy != null && pin.createdBy === actor.id);
}

export function assertCanEditPin(actor: MaybeActor, pin: { createdBy: string | null }, verb: 'edit' | 'delete' = 'edit'): asserts actor is Actor {
  assertSignedIn(actor);
  if (!canEditPin(actor, pin)) throw new Forbidden(`Only the pin’s creator or an admin can ${verb} this pin`);
}

/** Rarity by hand and featuring are catalogue-wide decisions: admins only. */
export function assertCanCurate(actor: MaybeActor, what: 'rarity' | 'featured'): void {
  if (!isAdmin(actor)) throw new Forbidden(what === 'rarity' ? 'Only admins can set the rarity by hand' : 'Only admins can feature pins');
}

export function assertCanCreateOrganization(actor: MaybeActor): asserts actor is Actor {
  assertRole(actor, PIN_CREATOR_ROLES, 'Only vendors, team managers and admins can add organizations');
}

/** Renaming and deleting organizations is the admins' (they are shared by every pin). */
export function assertCanManageOrganizations(actor: MaybeActor): asserts actor is Actor {
  assertAdmin(actor);
}

// ---------------------------------------------------------------- people: collections, profiles

/** A collection, its stats and badges are read by their owner or an admin. */
export function canReadCollection(actor: MaybeActor, ownerId: string): boolean {
  return !!actor && (actor.id === ownerId || isAdmin(actor));
}

export function assertCanReadCollection(actor: MaybeActor, ownerId: string): asserts actor is Actor {
  assertSignedIn(actor);
  if (!canReadCollection(actor, ownerId)) throw new Forbidden('You can only view your own collection');
}

/** Only the owner changes a collection (admins read any, but do not change others'). */
export function assertCanWriteCollection(actor: MaybeActor, ownerId: string, message?: string): asserts actor is Actor {
  assertSignedIn(actor, message);
  if (actor.id !== ownerId) throw new Forbidden('You can only change your own collection');
}

/** A profile (display name, picture, onboarding) is changed only by its owner. */
export function assertCanEditProfile(actor: MaybeActor, userId: string): asserts actor is Actor {
  assertSignedIn(actor);
  if (actor.id !== userId) throw new Forbidden('You can only change your own profile');
}

/** The person who took an identification's photo chooses its pin (anyone, for a visitor's photo). */
export function assertCanChooseIdentifiedPin(actor: MaybeActor, photo: { userId: string | null }): void {
  if (photo.userId && photo.userId !== actor?.id) throw new Forbidden('Only the person who took this photo can choose its pin');
}

// ---------------------------------------------------------------- roles

/**
 * Role changes: super_admin changes anyone to any role; admin changes only users who are neither
 * admin nor super_admin, and only to such roles; nobody changes their own role; others cannot.
 * The last super_admin keeps the role: `assertKeepsSuperAdmin`, with the count the service reads.
 */
export function canChangeRole(actor: MaybeActor, target: { id: string; role: Role }, newRole: Role): boolean {
  return roleChangeRefusal(actor, target, newRole) === null;
}

export function assertCanChangeRole(actor: MaybeActor, target: { id: string; role: Role }, newRole: Role): asserts actor is Actor {
  assertSignedIn(actor);
  const refusal = roleChangeRefusal(actor, target, newRole);
  if (refusal) throw new Forbidden(refusal);
}

/** May this actor change roles at all (before a target is known)? */
export function assertCanManageRoles(actor: MaybeActor): asserts actor is Actor {
  assertAdmin(actor, 'Only admins can change roles');
}

/** The roles this actor may give this user (none for their own account): what a role picker offers. */
export function rolesAssignableBy(actor: MaybeActor, target: { id: string; role: Role }): Role[] {
  return ROLES.filter((role) => role !== target.role && canChangeRole(actor, target, role));
}

export const LAST_SUPER_ADMIN_MESSAGE = 'The last super admin cannot be demoted: make another user super admin first';

/**
 * The instance always keeps a super admin: demoting the last one is refused (409). The caller
 * counts the super admins in the transaction of the change.
 */
export function assertKeepsSuperAdmin(target: { role: Role }, newRole: Role, superAdminCount: number): void {
  if (target.role === 'super_admin' && newRole !== 'super_admin' && superAdminCount <= 1) throw new Conflict(LAST_SUPER_ADMIN_MESSAGE);
}

function roleChangeRefusal(actor: MaybeActor, target: { id: string; role: Role }, newRole: Role): string | null {
  if (!actor || !isAdmin(actor)) return 'Only admins can change roles';
  if (actor.id === target.id) return 'You cannot change your own role';
  if (actor.role === 'super_admin') return null;
  if (isAdminRole(target.role) || isAdminRole(newRole)) return 'Admins cannot change admin or super admin roles';
  return null;
}

// ---------------------------------------------------------------- the second half

/** A team is changed by its manager (teams.managerId) or an admin. */
export function canManageTeam(actor: MaybeActor, team: { managerId: string | null }): boolean {
  if (!actor) return false;
  return isAdmin(actor) || (team.managerId != null && team.managerId === actor.id);
}

export function assertCanManageTeam(actor: MaybeActor, team: { managerId: string | null }): asserts actor is Actor {
  assertSignedIn(actor);
  if (!canManageTeam(actor, team)) throw new Forbidden('Only the team’s manager can change this team');
}

/** Roles that may start a team (its creator becomes its manager). */
export const TEAM_CREATOR_ROLES = ['manager', 'admin', 'super_admin'] as const satisfies readonly Role[];

export function canCreateTeam(actor: MaybeActor): boolean {
  return hasRole(actor, TEAM_CREATOR_ROLES);
}

export function assertCanCreateTeam(actor: MaybeActor): asserts actor is Actor {
  assertRole(actor, TEAM_CREATOR_ROLES, 'Only team managers can create teams');
}

/** How an actor belongs to a team: facts the teams service reads from the database. */
export interface TeamMembership {
  managerId: string | null;
  /** the actor is on the roster (a player account) */
  onRoster: boolean;
  /** the actor is on the staff (assistant coach or manager row) */
  onStaff: boolean;
}

/** A team is seen by its manager, its members (roster player accounts, staff users) and admins. */
export function canViewTeam(actor: MaybeActor, team: TeamMembership): boolean {
  if (!actor) return false;
  return canManageTeam(actor, team) || team.onRoster || team.onStaff;
}

export function assertCanViewTeam(actor: MaybeActor, team: TeamMembership): asserts actor is Actor {
  assertSignedIn(actor);
  if (!canViewTeam(actor, team)) throw new Forbidden('Only this team’s members can view it');
}

/** A user's list of teams and team pins is read by that user or an admin. */
export function assertCanViewUserTeams(actor: MaybeActor, userId: string): asserts actor is Actor {
  assertSignedIn(actor);
  if (actor.id !== userId && !isAdmin(actor)) throw new Forbidden('You can only view your own team pins');
}

/** A listing is changed by the vendor that owns it (vendors.userId) or an admin. */
export function canEditListing(actor: MaybeActor, listing: { vendorUserId: string | null }): boolean {
  if (!actor) return false;
  return isAdmin(actor) || (listing.vendorUserId != null && listing.vendorUserId === actor.id);
}

export function assertCanEditListing(actor: MaybeActor, listing: { vendorUserId: string | null }): asserts actor is Actor {
  assertSignedIn(actor);
  if (!canEditListing(actor, listing)) throw new Forbidden('You can only change your own listings');
}

/** An order is seen by its buyer, its vendor and admins. */
export function canViewOrder(actor: MaybeActor, order: { buyerId: string | null; vendorUserId: string | null }): boolean {
  if (!actor) return false;
  return isAdmin(actor) || actor.id === order.buyerId || (order.vendorUserId != null && actor.id === order.vendorUserId);
}

export function assertCanViewOrder(actor: MaybeActor, order: { buyerId: string | null; vendorUserId: string | null }): asserts actor is Actor {
  assertSignedIn(actor);
  if (!canViewOrder(actor, order)) throw new Forbidden('You can only view your own orders');
}

/** An order is fulfilled (shipped, delivered) only by its own vendor. */
export function assertCanFulfilOrder(actor: MaybeActor, order: { vendorUserId: string | null }): asserts actor is Actor {
  assertSignedIn(actor);
  if (order.vendorUserId == null || order.vendorUserId !== actor.id) throw new Forbidden('Only the order’s vendor can fulfil it');
}

/** A vendor record as far as permissions care: whose it is and whether it was approved. */
export interface VendorFacts {
  userId: string;
  isApproved: boolean;
}

/** Selling (listing pins, the vendor dashboard's tabs) needs an approved vendor record of one's own. */
export function canSell(actor: MaybeActor, vendor: VendorFacts | null | undefined): boolean {
  return !!actor && !!vendor && vendor.isApproved && vendor.userId === actor.id;
}

export function assertCanSell(actor: MaybeActor, vendor: VendorFacts | null | undefined): asserts actor is Actor {
  assertSignedIn(actor);
  if (!canSell(actor, vendor)) throw new Forbidden(vendor ? 'Your vendor application has not been approved yet' : 'Only approved vendors can list pins');
}

/** Buying needs an account; a vendor cannot buy their own listing. */
export function assertCanBuy(actor: MaybeActor, listing: { vendorUserId: string }): asserts actor is Actor {
  assertSignedIn(actor, 'Please sign in to add pins to your cart');
  if (listing.vendorUserId === actor.id) throw new Forbidden('You cannot buy your own listing');
}

/**
 * Cancelling: the buyer while the order is pending (not yet paid); its vendor or an admin while
 * it is pending or paid (a paid order's money is then returned outside the app).
 */
export function canCancelOrder(actor: MaybeActor, order: { buyerId: string; vendorUserId: string | null; status: string }): boolean {
  if (!actor) return false;
  if (order.status !== 'pending' && order.status !== 'paid') return false;
  if (isAdmin(actor) || (order.vendorUserId != null && order.vendorUserId === actor.id)) return true;
  return actor.id === order.buyerId && order.status === 'pending';
}

/** Vendor applications are decided by admins. */
export function assertCanReviewVendorApplications(actor: MaybeActor): asserts actor is Actor {
  assertAdmin(actor);
}

/** The audit log is read by super admins only. */
export function canViewAuditLog(actor: MaybeActor): boolean {
  return hasRole(actor, ['super_admin']);
}

export function assertCanViewAuditLog(actor: MaybeActor): asserts actor is Actor {
  assertRole(actor, ['super_admin'], 'Only super admins can view the audit log');
}

// ---------------------------------------------------------------- trading

export interface TradeParties {
  proposerId: string;
  recipientId: string;
}

/** A proposal is seen by its two parties and by admins; anyone else gets 404 (it is not theirs to know of). */
export function canViewTrade(actor: MaybeActor, trade: TradeParties): boolean {
  return !!actor && (actor.id === trade.proposerId || actor.id === trade.recipientId || isAdmin(actor));
}

export function assertCanViewTrade(actor: MaybeActor, trade: TradeParties): asserts actor is Actor {
  assertSignedIn(actor, 'Please sign in to trade');
  if (!canViewTrade(actor, trade)) throw new NotFound('Trade proposal not found');
}

/** Accept, decline and counter are the recipient's answers (an admin who is not a party may only look). */
export function canRespondToTrade(actor: MaybeActor, trade: TradeParties): boolean {
  return !!actor && actor.id === trade.recipientId;
}

export function assertCanRespondToTrade(actor: MaybeActor, trade: TradeParties): asserts actor is Actor {
  assertCanViewTrade(actor, trade);
  if (!canRespondToTrade(actor, trade)) throw new Forbidden('Only the collector this trade was proposed to can answer it');
}

/** Either party may cancel an open proposal. */
export function canCancelTrade(actor: MaybeActor, trade: TradeParties): boolean {
  return !!actor && (actor.id === trade.proposerId || actor.id === trade.recipientId);
}

export function assertCanCancelTrade(actor: MaybeActor, trade: TradeParties): asserts actor is Actor {
  assertCanViewTrade(actor, trade);
  if (!canCancelTrade(actor, trade)) throw new Forbidden('Only the two collectors in a trade can cancel it');
}

/** Trading is for any signed-in collector, never with oneself. */
export function assertCanProposeTrade(actor: MaybeActor, recipientId: string): asserts actor is Actor {
  assertSignedIn(actor, 'Please sign in to trade');
  if (actor.id === recipientId) throw new Invalid('You cannot trade with yourself', { recipientId: ['You cannot trade with yourself'] });
}

// ---------------------------------------------------------------- comments and reactions

/** A comment is edited only by its author. */
export function canEditComment(actor: MaybeActor, comment: { userId: string }): boolean {
  return !!actor && actor.id === comment.userId;
}

export function assertCanEditComment(actor: MaybeActor, comment: { userId: string }): asserts actor is Actor {
  assertSignedIn(actor, 'Please sign in to comment');
  if (!canEditComment(actor, comment)) throw new Forbidden('You can only edit your own comments');
}

/** Its author deletes a comment, and admins delete any. */
export function canDeleteComment(actor: MaybeActor, comment: { userId: string }): boolean {
  return !!actor && (actor.id === comment.userId || isAdmin(actor));
}

export function assertCanDeleteComment(actor: MaybeActor, comment: { userId: string }): asserts actor is Actor {
  assertSignedIn(actor, 'Please sign in to comment');
  if (!canDeleteComment(actor, comment)) throw new Forbidden('You can only delete your own comments');
}
