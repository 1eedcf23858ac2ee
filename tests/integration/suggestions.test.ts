import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '~/db/index.server';
import { auditLogs, pinSuggestions, pins, userCollections } from '~/db/schema';
import { ensureAchievements } from '~/services/achievement-definitions.server';
import { listUserAchievements } from '~/services/achievements.server';
import { AppError } from '~/services/errors';
import { approveSuggestion, createSuggestion, listMySuggestions, listSuggestions, rejectSuggestion } from '~/services/suggestions.server';
import { createUser } from '../support/factories';

beforeAll(async () => {
  await ensureAchievements();
});

async function expectError(promise: Promise<unknown>, status: number) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(status);
    return error as AppError;
  }
  throw new Error(`expected an error with status ${status}`);
}

let n = 0;
const photo = async () =>
  new Blob([new Uint8Array(await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 20 + n++, g: 60, b: 160 } } }).jpeg().toBuffer())], { type: 'image/jpeg' });
const fields = (name = `Suggested Pin ${n++}`) => ({ name, description: 'A pennant with two bats', organizationName: `Suggestion League ${n}`, totalQuantity: '40', year: '2024' });
const count = async () => (await db().select().from(pinSuggestions)).length;

describe('suggesting a pin', () => {
  it('any signed-in user may suggest (with photos); visitors and bad input are refused, nothing written', async () => {
    const player = await createUser({ role: 'player' });
    const before = await count();
    await expectError(createSuggestion(null, fields(), { uploads: [await photo()] }), 401);
    await expectError(createSuggestion(player, { ...fields(), name: '' }, { uploads: [await photo()] }), 400);
    await expectError(createSuggestion(player, fields(), { uploads: [] }), 400);
    const six = await Promise.all([1, 2, 3, 4, 5, 6].map(() => photo()));
    await expectError(createSuggestion(player, fields(), { uploads: six }), 400);
    await expectError(createSuggestion(player, fields(), { photoImageId: 'no-such-image', uploads: [] }), 400);
    expect(await count()).toBe(before);

    const s = await createSuggestion(player, fields('Pennant Bats 2024'), { uploads: [await photo(), await photo()] });
    expect(s).toMatchObject({ status: 'pending', name: 'Pennant Bats 2024', totalQuantity: 40, year: 2024 });
    expect(s.images).toHaveLength(2);
    expect((await listMySuggestions(player)).map((x) => x.id)).toContain(s.id);
  });
});

describe('the review queue', () => {
  it('is for admins: visitors 401, other roles 403', async () => {
    const manager = await createUser({ role: 'manager' });
    const player = await createUser({ role: 'player' });
    const s = await createSuggestion(player, fields(), { uploads: [await photo()] });
    await expectError(listSuggestions(null), 401);
    await expectError(listSuggestions(manager), 403);
    await expectError(approveSuggestion(player, s.id), 403);
    await expectError(rejectSuggestion(manager, s.id, 'no'), 403);
    expect((await listMySuggestions(player)).find((x) => x.id === s.id)?.status).toBe('pending');
  });

  it('approving makes the pin from the suggester, in their collection, counting for Contributor', async () => {
    const admin = await createUser({ role: 'admin' });
    const player = await createUser({ role: 'player' });
    const s = await createSuggestion(player, fields('Approved Pennant'), { uploads: [await photo()] });
    expect((await listSuggestions(admin)).suggestions.map((x) => x.id)).toContain(s.id);
    const { pinId } = await approveSuggestion(admin, s.id);
    const pin = (await db().select().from(pins).where(eq(pins.id, pinId)).get())!;
    expect(pin).toMatchObject({ name: 'Approved Pennant', createdBy: player.id, totalQuantity: 40 });
    expect(pin.images).toHaveLength(1);
    const entry = await db().select().from(userCollections).where(eq(userCollections.pinId, pinId)).get();
    expect(entry).toMatchObject({ userId: player.id, status: 'owned', quantity: 1, condition: 'mint', notes: 'Original contributor' });
    const badges = await listUserAchievements(player, player.id);
    expect(badges.map((b) => b.achievement.name)).toContain('Contributor');
    expect((await listMySuggestions(player)).find((x) => x.id === s.id)).toMatchObject({ status: 'approved', pinId });
    // once only
    await expectError(approveSuggestion(admin, s.id), 409);
    await expectError(rejectSuggestion(admin, s.id, 'late'), 409);
    await expectError(approveSuggestion(admin, 'no-such-suggestion'), 404);
    const audit = await db().select().from(auditLogs).where(eq(auditLogs.targetId, s.id));
    expect(audit.map((a) => a.action)).toEqual(['suggestion.approve']);
  });

  it('rejecting needs a reason, which the suggester sees', async () => {
    const admin = await createUser({ role: 'admin' });
    const player = await createUser({ role: 'player' });
    const s = await createSuggestion(player, fields('Blurry Pin'), { uploads: [await photo()] });
    await expectError(rejectSuggestion(admin, s.id, '  '), 400);
    await rejectSuggestion(admin, s.id, 'The photo is too blurry to read the year.');
    const mine = (await listMySuggestions(player)).find((x) => x.id === s.id);
    expect(mine).toMatchObject({ status: 'rejected', rejectReason: 'The photo is too blurry to read the year.', pinId: null });
    expect((await listSuggestions(admin, 'rejected')).suggestions.map((x) => x.id)).toContain(s.id);
  });
});
