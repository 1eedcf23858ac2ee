/**
 * The permissions module answers "may this actor do this to that" for every role: each rule is
 * tried by a visitor (401), by the wrong role and by the wrong owner (403), and by those allowed.
 */
import { describe, expect, it } from 'vitest';
import * as P from '~/auth/permissions';
import { ROLES, type Role } from '~/utils/constants';

const as = (role: Role, id = `${role}-1`) => ({ id, role });
const statusOf = (fn: () => unknown): number => {
  try {
    fn();
    return 200;
  } catch (error) {
    return (error as { status?: number }).status ?? 500;
  }
};

describe('role sets', () => {
  it('admin roles are admin and super_admin; pins are added by vendors, managers and admins', () => {
    expect(ROLES.filter((r) => P.isAdminRole(r))).toEqual(['admin', 'super_admin']);
    expect(ROLES.filter((r) => P.canCreatePin(as(r)))).toEqual(['manager', 'vendor', 'admin', 'super_admin']);
    expect(ROLES.filter((r) => P.isVendorRole(r))).toEqual(['vendor']);
    expect(P.canCreatePin(null)).toBe(false);
  });

  it('answers 401 for a visitor and 403 for a role outside the set', () => {
    expect(statusOf(() => P.assertCanCreatePin(null))).toBe(401);
    expect(statusOf(() => P.assertCanCreatePin(as('player')))).toBe(403);
    expect(statusOf(() => P.assertCanCreatePin(as('assistant_coach')))).toBe(403);
    expect(statusOf(() => P.assertCanCreatePin(as('vendor')))).toBe(200);
    expect(statusOf(() => P.assertAdmin(as('manager')))).toBe(403);
    expect(statusOf(() => P.assertAdmin(as('super_admin')))).toBe(200);
  });
});

describe('pins and organizations', () => {
  const pin = { createdBy: 'vendor-1' };
  it('a pin is edited by its creator and admins only', () => {
    expect(statusOf(() => P.assertCanEditPin(null, pin))).toBe(401);
    expect(statusOf(() => P.assertCanEditPin(as('vendor', 'vendor-2'), pin))).toBe(403);
    expect(statusOf(() => P.assertCanEditPin(as('vendor'), pin))).toBe(200);
    expect(statusOf(() => P.assertCanEditPin(as('admin'), pin))).toBe(200);
    expect(P.canEditPin(as('player'), { createdBy: null })).toBe(false);
    expect(() => P.assertCanEditPin(as('manager'), pin, 'delete')).toThrow('Only the pin’s creator or an admin can delete this pin');
  });

  it('rarity by hand and featuring are for admins; organizations are renamed by admins', () => {
    expect(statusOf(() => P.assertCanCurate(as('vendor'), 'featured'))).toBe(403);
    expect(statusOf(() => P.assertCanCurate(as('admin'), 'rarity'))).toBe(200);
    expect(statusOf(() => P.assertCanCreateOrganization(as('manager')))).toBe(200);
    expect(statusOf(() => P.assertCanCreateOrganization(as('player')))).toBe(403);
    expect(statusOf(() => P.assertCanManageOrganizations(as('manager')))).toBe(403);
    expect(statusOf(() => P.assertCanManageOrganizations(null))).toBe(401);
  });
});

describe('collections and profiles', () => {
  it('a collection is read by its owner and admins, changed by its owner only', () => {
    expect(statusOf(() => P.assertCanReadCollection(null, 'player-1'))).toBe(401);
    expect(statusOf(() => P.assertCanReadCollection(as('player', 'player-2'), 'player-1'))).toBe(403);
    expect(statusOf(() => P.assertCanReadCollection(as('admin'), 'player-1'))).toBe(200);
    expect(statusOf(() => P.assertCanWriteCollection(as('admin'), 'player-1'))).toBe(403);
    expect(statusOf(() => P.assertCanWriteCollection(as('player'), 'player-1'))).toBe(200);
    expect(statusOf(() => P.assertCanEditProfile(as('super_admin'), 'player-1'))).toBe(403);
  });

  it('only the person who took a photo chooses its pin; a visitor’s photo is anyone’s', () => {
    expect(statusOf(() => P.assertCanChooseIdentifiedPin(as('player', 'p2'), { userId: 'p1' }))).toBe(403);
    expect(statusOf(() => P.assertCanChooseIdentifiedPin(null, { userId: 'p1' }))).toBe(403);
    expect(statusOf(() => P.assertCanChooseIdentifiedPin(null, { userId: null }))).toBe(200);
  });
});

describe('role changes', () => {
  const player = { id: 'target', role: 'player' as Role };
  const admin = { id: 'target', role: 'admin' as Role };
  it('super_admin changes anyone, admin only non-admin roles to non-admin roles, nobody their own', () => {
    expect(P.canChangeRole(as('super_admin'), admin, 'player')).toBe(true);
    expect(P.canChangeRole(as('super_admin'), player, 'super_admin')).toBe(true);
    expect(P.canChangeRole(as('admin'), player, 'vendor')).toBe(true);
    expect(P.canChangeRole(as('admin'), player, 'admin')).toBe(false);
    expect(P.canChangeRole(as('admin'), admin, 'player')).toBe(false);
    expect(P.canChangeRole(as('manager'), player, 'vendor')).toBe(false);
    expect(P.canChangeRole(as('super_admin', 'me'), { id: 'me', role: 'super_admin' }, 'player')).toBe(false);
    expect(statusOf(() => P.assertCanChangeRole(null, player, 'vendor'))).toBe(401);
    expect(() => P.assertCanChangeRole(as('admin', 'me'), { id: 'me', role: 'admin' }, 'player')).toThrow('You cannot change your own role');
  });
});

describe('the second half', () => {
  it('a team is changed by its manager and admins', () => {
    const team = { managerId: 'manager-1' };
    expect(statusOf(() => P.assertCanManageTeam(null, team))).toBe(401);
    expect(statusOf(() => P.assertCanManageTeam(as('manager', 'manager-2'), team))).toBe(403);
    expect(statusOf(() => P.assertCanManageTeam(as('assistant_coach'), team))).toBe(403);
    expect(statusOf(() => P.assertCanManageTeam(as('manager'), team))).toBe(200);
    expect(statusOf(() => P.assertCanManageTeam(as('admin'), team))).toBe(200);
  });

  it('a listing by its vendor; an order seen by buyer, vendor and admins, fulfilled by its vendor only', () => {
    expect(statusOf(() => P.assertCanEditListing(as('vendor', 'v2'), { vendorUserId: 'v1' }))).toBe(403);
    expect(statusOf(() => P.assertCanEditListing(as('vendor', 'v1'), { vendorUserId: 'v1' }))).toBe(200);
    const order = { buyerId: 'b1', vendorUserId: 'v1' };
    expect(P.canViewOrder(as('player', 'b1'), order)).toBe(true);
    expect(P.canViewOrder(as('player', 'b2'), order)).toBe(false);
    expect(P.canViewOrder(as('vendor', 'v1'), order)).toBe(true);
    expect(P.canViewOrder(as('admin'), order)).toBe(true);
    expect(statusOf(() => P.assertCanViewOrder(null, order))).toBe(401);
    expect(statusOf(() => P.assertCanFulfilOrder(as('admin'), order))).toBe(403);
    expect(statusOf(() => P.assertCanFulfilOrder(as('vendor', 'v1'), order))).toBe(200);
    expect(statusOf(() => P.assertCanFulfilOrder(as('player', 'b1'), order))).toBe(403);
  });

  it('vendor applications are decided by admins; the audit log is read by super admins', () => {
    expect(statusOf(() => P.assertCanReviewVendorApplications(as('vendor')))).toBe(403);
    expect(statusOf(() => P.assertCanReviewVendorApplications(as('admin')))).toBe(200);
    expect(P.canViewAuditLog(as('admin'))).toBe(false);
    expect(statusOf(() => P.assertCanViewAuditLog(as('admin')))).toBe(403);
    expect(statusOf(() => P.assertCanViewAuditLog(as('super_admin')))).toBe(200);
  });
});
