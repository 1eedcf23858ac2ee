/**
 * Comments and reactions on pins (issue 61) through the real /api route modules: who may write,
 * edit and delete; bad input; the 'want' reaction and the wanted list; the rate limit.
 */
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { createUserSession } from '~/auth/session.server';
import { db } from '~/db/index.server';
import { pinComments, userCollections, type Role } from '~/db/schema';
import { loader as commentsLoader, action as commentsAction } from '~/routes/api.pins.$id.comments';
import { action as commentAction } from '~/routes/api.comments.$id';
import { loader as reactionsLoader, action as reactionsAction } from '~/routes/api.pins.$id.reactions';
import { loader as pinPageLoader } from '~/routes/pins.$id';
import { resetAllRateLimits } from '~/services/rate-limit.server';
import { withCommunityCounts } from '~/services/community.server';
import { call, request, type Handler } from '../support/api';
import { createPin, createUser } from '../support/factories';


async function person(role: Role = 'player') {
  const user = await createUser({ role, nickname: `n${Math.random().toString(36).slice(2, 10)}` });
  const cookie = (await createUserSession(new Request('http://localhost/'), user.id)).split(';')[0];
  return { user, cookie };
}

beforeEach(() => resetAllRateLimits());

describe('comments', () => {
  it('signed-in users comment; authors edit and delete their own; admins delete any', async () => {
    const [pin, ann, bob, admin] = await Promise.all([createPin(), person(), person(), person('admin')]);
    const params = { id: pin.id };
    const post = (cookie: string, json: unknown) => call(commentsAction as Handler, request(`/api/pins/${pin.id}/comments`, { method: 'POST', cookie, json }), params);

    expect((await post('', { content: 'hi' })).status).toBe(401);
    expect(await post(ann.cookie, { content: '   ' })).toMatchObject({ status: 400, body: { error: 'Write a comment first' } });
    expect((await post(ann.cookie, { content: 'x'.repeat(1001) })).status).toBe(400);
    expect((await call(commentsAction as Handler, request('/api/pins/nope/comments', { method: 'POST', cookie: ann.cookie, json: { content: 'hi' } }), { id: 'nope' })).status).toBe(404);
    expect(await db().select().from(pinComments).where(eq(pinComments.pinId, pin.id))).toHaveLength(0);

    const created = await post(ann.cookie, { content: '<b>Great pin</b>' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ content: '<b>Great pin</b>', author: { id: ann.user.id }, canEdit: true, canDelete: true });
    const id = created.body.id;

    const listed = await call(commentsLoader as Handler, request(`/api/pins/${pin.id}/comments`, { cookie: bob.cookie }), params);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ canEdit: false, canDelete: false });

    const patch = (cookie: string, json: unknown) => call(commentAction as Handler, request(`/api/comments/${id}`, { method: 'PATCH', cookie, json }), { id });
    expect((await patch(bob.cookie, { content: 'mine now' })).status).toBe(403);
    expect((await patch(admin.cookie, { content: 'admin edit' })).status).toBe(403);
    expect((await patch(ann.cookie, { content: '' })).status).toBe(400);
    expect((await patch(ann.cookie, { content: 'Great pin!' })).body).toMatchObject({ content: 'Great pin!' });

    const del = (cookie: string, target = id) => call(commentAction as Handler, request(`/api/comments/${target}`, { method: 'DELETE', cookie }), { id: target });
    expect((await del('')).status).toBe(401);
    expect((await del(bob.cookie)).status).toBe(403);
    expect((await del(admin.cookie)).status).toBe(200);
    expect((await del(ann.cookie)).status).toBe(404);
    const second = await post(bob.cookie, { content: 'Mine' });
    expect((await del(bob.cookie, second.body.id)).status).toBe(200);
  });

  it('limits how fast one user comments (429)', async () => {
    const [pin, ann] = await Promise.all([createPin(), person()]);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call(commentsAction as Handler, request(`/api/pins/${pin.id}/comments`, { method: 'POST', cookie: ann.cookie, json: { content: `c${i}` } }), { id: pin.id })).status);
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('reactions', () => {
  it('toggles one of each type per user; want adds the pin to the wanted list', async () => {
    const [pin, ann, bob] = await Promise.all([createPin(), person(), person()]);
    const params = { id: pin.id };
    const react = (cookie: string, type: unknown) => call(reactionsAction as Handler, request(`/api/pins/${pin.id}/reactions`, { method: 'POST', cookie, json: { type } }), params);
    expect((await react('', 'like')).status).toBe(401);
    expect(await react(ann.cookie, 'love')).toMatchObject({ status: 400, body: { error: 'Reaction must be like, favorite or want' } });

    expect((await react(ann.cookie, 'like')).body).toMatchObject({ on: true, counts: { like: 1, favorite: 0, want: 0 }, mine: ['like'] });
    expect((await react(bob.cookie, 'like')).body).toMatchObject({ counts: { like: 2 } });
    expect((await react(ann.cookie, 'like')).body).toMatchObject({ on: false, counts: { like: 1 }, mine: [] });

    const wanted = await react(ann.cookie, 'want');
    expect(wanted.body).toMatchObject({ on: true, addedToWanted: true, counts: { want: 1 } });
    const entry = await db().query.userCollections.findFirst({ where: and(eq(userCollections.userId, ann.user.id), eq(userCollections.pinId, pin.id)) });
    expect(entry).toMatchObject({ status: 'wanted' });

    const visitor = await call(reactionsLoader as Handler, request(`/api/pins/${pin.id}/reactions`), params);
    expect({ status: visitor.status, body: visitor.body }).toEqual({ status: 200, body: { counts: { like: 1, favorite: 0, want: 1 }, mine: [] } });
    expect((await call(reactionsLoader as Handler, request('/api/pins/nope/reactions'), { id: 'nope' })).status).toBe(404);
  });
});

describe('the pin page', () => {
  it('shows the comments and reactions the /api routes give, with what each viewer may do', async () => {
    const [pin, ann, bob] = await Promise.all([createPin(), person(), person()]);
    const params = { id: pin.id };
    await call(commentsAction as Handler, request(`/api/pins/${pin.id}/comments`, { method: 'POST', cookie: ann.cookie, json: { content: 'Lovely enamel' } }), params);
    await call(reactionsAction as Handler, request(`/api/pins/${pin.id}/reactions`, { method: 'POST', cookie: ann.cookie, json: { type: 'like' } }), params);
    const pages: { comments: { content: string; canEdit: boolean }[]; reactions: { mine: string[] } }[] = [];
    for (const cookie of [ann.cookie, bob.cookie, '']) {
      const page = await call(pinPageLoader as Handler, request(`/pins/${pin.id}`, { cookie }), params);
      const comments = await call(commentsLoader as Handler, request(`/api/pins/${pin.id}/comments`, { cookie }), params);
      const reactions = await call(reactionsLoader as Handler, request(`/api/pins/${pin.id}/reactions`, { cookie }), params);
      expect(page.body).toMatchObject({ comments: comments.body, reactions: reactions.body });
      pages.push(page.body as (typeof pages)[number]);
    }
    const [asAnn, asBob, asVisitor] = pages;
    expect(asAnn.comments).toEqual([expect.objectContaining({ content: 'Lovely enamel', canEdit: true })]);
    expect(asAnn.reactions).toEqual({ counts: { like: 1, favorite: 0, want: 0 }, mine: ['like'] });
    expect(asBob.comments[0].canEdit).toBe(false);
    expect(asBob.reactions.mine).toEqual([]);
    expect(asVisitor.comments[0].canEdit).toBe(false);
  });
});

describe('counts on pin cards', () => {
  it('gives a page of cards their likes and comments in one query, leaving out pins with none', async () => {
    const [liked, quiet, ann, bob] = await Promise.all([createPin(), createPin(), person(), person()]);
    const react = (cookie: string, type: string) => call(reactionsAction as Handler, request(`/api/pins/${liked.id}/reactions`, { method: 'POST', cookie, json: { type } }), { id: liked.id });
    await react(ann.cookie, 'like');
    await react(bob.cookie, 'like');
    await react(bob.cookie, 'favorite');
    await call(commentsAction as Handler, request(`/api/pins/${liked.id}/comments`, { method: 'POST', cookie: ann.cookie, json: { content: 'Nice' } }), { id: liked.id });
    const cards = await withCommunityCounts([{ id: liked.id, name: 'a' }, { id: quiet.id, name: 'b' }]);
    expect(cards).toEqual([{ id: liked.id, name: 'a', likes: 2, comments: 1 }, { id: quiet.id, name: 'b' }]);
    expect(await withCommunityCounts([])).toEqual([]);
  });
});
