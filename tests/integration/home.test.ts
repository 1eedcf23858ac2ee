/**
 * Home's lists (the tab's pins, the latest identifications, the counts, the likes and comments)
 * are kept until the database is written to: whatever changes them shows on the next visit.
 */
import { describe, expect, it } from 'vitest';
import { db } from '~/db/index.server';
import { identifications } from '~/db/schema';
import { loader as homeLoader } from '~/routes/_index';
import { addPinComment, togglePinReaction } from '~/services/community.server';
import { request } from '../support/api';
import { createPin, createUser } from '../support/factories';

interface Card {
  id: string;
  name: string;
  likes?: number;
  comments?: number;
}
interface Home {
  counts: { newest: number; rarest: number; value: number };
  pins: Card[];
  recent: { pin: Card }[];
}
const home = async (path = '/'): Promise<Home> => (await homeLoader({ request: request(path), params: {}, context: {} })).json();

describe('home', () => {
  it('shows a new pin, a new identification and new likes and comments on the next visit', async () => {
    const before = await home();
    expect(await home()).toEqual(before);

    const pin = await createPin({ name: 'Fresh Off The Press', estimatedValueCents: 999_999_00, createdAt: new Date(Date.now() + 60_000) });
    const afterPin = await home();
    expect(afterPin.pins[0]).toMatchObject({ id: pin.id, name: 'Fresh Off The Press' });
    expect(afterPin.counts.newest).toBe(before.counts.newest + 1);
    expect(afterPin.counts.value).toBe(before.counts.value + 1);
    expect((await home('/?tab=value')).pins[0].id).toBe(pin.id);

    await db().insert(identifications).values({ pinId: pin.id, confidence: 91, createdAt: new Date(Date.now() + 60_000) });
    expect((await home()).recent[0].pin.id).toBe(pin.id);

    const fan = await createUser({ role: 'player' });
    await togglePinReaction(fan, pin.id, { type: 'like' });
    await addPinComment(fan, pin.id, { content: 'What a pin' });
    const later = await home();
    expect(later.pins[0]).toMatchObject({ id: pin.id, likes: 1, comments: 1 });
    expect(later.recent[0].pin).toMatchObject({ id: pin.id, likes: 1, comments: 1 });
  });
});
