/**
 * Start without blocking: while the server's identification index loads and builds, /healthz
 * answers 200 (web ready) with the index's state beside it, and identification answers the
 * spec's result with `serviceUnavailable: true` and a "warming up" message: 503 with Retry-After
 * on /api/identify, a clear message on /identify. Once the index is ready, both work as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '~/services/users.server';
import { db } from '~/db/index.server';
import { identifications } from '~/db/schema';
import { ensureAchievements } from '~/services/achievement-definitions.server';
import { resetVisualIndex, startVisualIndex, visualIndexSettled, WARMING_UP_MESSAGE } from '~/services/identification/index.server';
import { createPin } from '~/services/pins.server';
import { action as apiIdentify } from '~/routes/api.identify';
import { action as identifyPage } from '~/routes/identify';
import { loader as healthz } from '~/routes/healthz';
import { createUser } from '../support/factories';
import { dataUrl, pinArtwork } from '../support/identify';

let art: Buffer;

beforeAll(async () => {
  await ensureAchievements();
  const vendor: SessionUser = { ...(await createUser({ role: 'vendor' })), vendor: null };
  art = await pinArtwork(7, 'WARMUP');
  await createPin(vendor, { name: 'Warm-up Comets 10U', organizationName: 'Warm-up League', year: 2024, images: [art] });
  resetVisualIndex(); // as a server that has just started: nothing in memory yet
}, 60_000);

afterAll(async () => {
  await visualIndexSettled().catch(() => undefined);
  resetVisualIndex();
});

const identifyRequest = () =>
  new Request('http://localhost/api/identify', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ imageData: dataUrl(art) }),
  });

const health = async () => {
  const res = await healthz();
  return { status: res.status, body: (await res.json()) as { status: string; web: string; identification: { state: string; images: number } } };
};

describe('while the identification index warms up', () => {
  it('answers /healthz 200 at once, identify 503 "warming up", then both normally once ready', async () => {
    const ready = startVisualIndex(); // the server's start: loads in slices, not awaited by requests

    const early = await health();
    expect(early.status).toBe(200);
    expect(early.body.web).toBe('ready');
    expect(['loading', 'building']).toContain(early.body.identification.state);

    const before = (await db().select().from(identifications)).length;
    const res = await apiIdentify({ request: identifyRequest(), params: {}, context: { clientIp: '203.0.113.9' } });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
    const body = (await res.json()) as { identified: boolean; serviceUnavailable: boolean; message: string; error: string; similarPins: unknown[] };
    expect(body).toMatchObject({ identified: false, serviceUnavailable: true, message: WARMING_UP_MESSAGE, error: WARMING_UP_MESSAGE, similarPins: [] });
    expect(body.message).toMatch(/warming up.*try again in a few seconds/i);

    // the page without JavaScript: the same answer on the identify screen, nothing stored
    const form = new FormData();
    form.set('intent', 'identify');
    form.set('image', new File([new Uint8Array(art)], 'pin.png', { type: 'image/png' }));
    const page = (await identifyPage({ request: new Request('http://localhost/identify', { method: 'POST', body: form }), params: {}, context: {} })) as Response;
    expect(page.status).toBe(503);
    expect(page.headers.get('Retry-After')).toBeTruthy();
    const pageData = (await page.json()) as { error: { title: string; description: string } };
    expect(pageData.error.description).toBe(WARMING_UP_MESSAGE);
    expect((await db().select().from(identifications)).length).toBe(before);

    await ready;
    const later = await health();
    expect(later.status).toBe(200);
    expect(later.body.identification).toEqual({ state: 'ready', images: 1 });
    const done = await apiIdentify({ request: identifyRequest(), params: {}, context: { clientIp: '203.0.113.9' } });
    expect(done.status).toBe(200);
    expect(((await done.json()) as { identified: boolean }).identified).toBe(true);
  }, 120_000);
});
