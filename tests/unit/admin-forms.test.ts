import { describe, expect, it } from 'vitest';
import { rolesAssignableBy } from '~/auth/permissions';
import { arrangePhotos, roleChangeSchema } from '~/forms/admin';

describe('arrangePhotos (the admin pin form)', () => {
  const previous = ['/images/a', '/images/b', '/images/c'];

  it('keeps the photos kept, adds uploads up to 5 in all and says how many were left out', () => {
    const r = arrangePhotos(previous, previous, ['n1', 'n2', 'n3'], '/images/b', 0);
    expect(r).toEqual({ photos: [...previous, 'n1', 'n2'], primaryPhotoIndex: 1, ignored: 1 });
  });

  it('removing the primary photo moves the primary back to the previous photo', () => {
    expect(arrangePhotos(previous, ['/images/a', '/images/b'], [], '/images/c', 2).primaryPhotoIndex).toBe(1);
    expect(arrangePhotos(previous, ['/images/a', '/images/c'], [], '/images/b', 1).primaryPhotoIndex).toBe(0);
    // the first photo removed: the next one is first
    expect(arrangePhotos(previous, ['/images/b', '/images/c'], [], '/images/a', 0).primaryPhotoIndex).toBe(0);
  });

  it('a new upload can be the primary photo', () => {
    expect(arrangePhotos([], [], ['n1', 'n2'], 'new-1').primaryPhotoIndex).toBe(1);
    expect(arrangePhotos(previous, ['/images/a'], ['n1'], 'new-0', 0).primaryPhotoIndex).toBe(1);
    expect(arrangePhotos([], [], [], 'new-0')).toEqual({ photos: [], primaryPhotoIndex: 0, ignored: 0 });
  });
});

describe('role changes', () => {
  const player = { id: 'p', role: 'player' as const };
  it('offers a super admin every other role, an admin only the roles below admin, nobody their own', () => {
    expect(rolesAssignableBy({ id: 's', role: 'super_admin' }, player)).toEqual(['manager', 'assistant_coach', 'vendor', 'admin', 'super_admin']);
    expect(rolesAssignableBy({ id: 'a', role: 'admin' }, player)).toEqual(['manager', 'assistant_coach', 'vendor']);
    expect(rolesAssignableBy({ id: 'a', role: 'admin' }, { id: 'b', role: 'admin' })).toEqual([]);
    expect(rolesAssignableBy({ id: 'p', role: 'super_admin' }, { id: 'p', role: 'super_admin' })).toEqual([]);
    expect(rolesAssignableBy({ id: 'm', role: 'manager' }, player)).toEqual([]);
  });

  it('the form refuses no role and the same role', () => {
    expect(roleChangeSchema.safeParse({ userId: 'u', currentRole: 'player', role: '' }).error?.issues[0].message).toBe('Choose a role');
    expect(roleChangeSchema.safeParse({ userId: 'u', currentRole: 'player', role: 'player' }).error?.issues[0].message).toBe('Choose a role other than the current one');
    expect(roleChangeSchema.safeParse({ userId: 'u', currentRole: 'player', role: 'vendor' }).success).toBe(true);
  });
});
