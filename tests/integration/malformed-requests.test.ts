/**
 * Malformed requests against every route module's action and loader: wrong types, missing
 * fields, huge and unicode strings, wrong content types, broken multipart, truncated images and
 * junk ids, from a visitor and a super_admin (who gets past every role check; the wrong-role
 * answers are in each area's own tests). Nothing a
 * client can send may answer 5xx or throw: each answer is a designed 2xx-4xx (a form error, an
 * `{ error }` JSON, a redirect). Body sizes over the limit are refused before the routes
 * (tests/unit/body-limits.test.ts).
 */
/// <reference types="vite/client" />
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUserSession } from '~/auth/session.server';
import { resetAllRateLimits } from '~/services/rate-limit.server';
import { createInvite } from '~/services/team-invites.server';
import { addPlayer, createTeam } from '~/services/teams.server';
import { loadUser, type SessionUser } from '~/services/users.server';
import { createOrganization, createPin, createUser } from '../support/factories';
import { createListing, createVendor } from '../support/marketplace';

type Args = { request: Request; params: Record<string, string>; context: Record<string, unknown> };
type RouteModule = { action?: (args: Args) => Promise<Response>; loader?: (args: Args) => Promise<Response> };

const ROUTES_DIR = path.resolve(__dirname, '../../app/routes');
const modules = import.meta.glob<RouteModule>('../../app/routes/*.{ts,tsx}');

// A PNG and a JPEG cut off after their first bytes: decoders must refuse them cleanly.
const TRUNCATED_PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000100000001008060000', 'hex');
const TRUNCATED_JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffdb004300080606070605', 'hex');

const FIELDS = [
  'name', 'email', 'password', 'currentPassword', 'newPassword', 'nickname', 'firstName', 'lastName', 'role', 'status',
  'quantity', 'condition', 'notes', 'note', 'pinId', 'pinIds', 'ids', 'teamId', 'rosterId', 'organizationId', 'jerseyNumber',
  'position', 'playerName', 'title', 'description', 'price', 'priceCents', 'stockQuantity', 'reason', 'q', 'page', 'year',
  'rarity', 'series', 'tags', 'featured', 'isFeatured', 'newManagerId', 'managerId', 'userId', 'listingId', 'shares',
  'total', 'businessName', 'contactEmail', 'value', 'token', 'redirectTo', 'imageData', 'imageIds', 'key', 'trackingNumber',
  'items', 'city', 'state', 'sort', 'search', 'limit', 'offset', 'action', 'confirm', 'code', 'state',
];
const FILE_FIELDS = ['image', 'images', 'photo', 'file', 'logo', 'profilePicture', 'csv'];
const HUGE = 'x'.repeat(20_000);
const UNICODE = '日本語🎌\u0000\u202e<script>alert(1)</script>\ud800';
const WRONG_VALUES: unknown[] = [{ nested: { deep: [1] } }, [1, 'two', null], '1e309', 2 ** 60, 0.5, -1, true, null, '', 'NaN', '12345678901234567890'];

// a same-site path a Location header cannot carry as it is
const ODD_PATH = '/日本/🎌';

function jsonOf(value: (field: string, i: number) => unknown) {
  return { ...Object.fromEntries(FIELDS.map((f, i) => [f, value(f, i)])), redirectTo: ODD_PATH };
}

function formOf(value: (field: string, i: number) => string, intent?: string) {
  const form = new URLSearchParams();
  if (intent !== undefined) form.set('intent', intent);
  FIELDS.forEach((f, i) => form.append(f, value(f, i)));
  form.set('redirectTo', ODD_PATH);
  return form;
}

function multipartWithFiles(intent?: string) {
  const form = new FormData();
  if (intent !== undefined) form.set('intent', intent);
  FIELDS.forEach((f, i) => form.append(f, ['-5', UNICODE, '', '0'][i % 4]));
  FILE_FIELDS.forEach((f, i) => {
    form.append(f, new Blob([i % 2 ? TRUNCATED_JPEG : TRUNCATED_PNG], { type: i % 2 ? 'image/jpeg' : 'image/png' }), `cut.${i % 2 ? 'jpg' : 'png'}`);
  });
  return form;
}

interface Payload {
  label: string;
  headers?: Record<string, string>;
  body?: BodyInit;
}

function payloads(intent?: string): Payload[] {
  const withIntent = (o: Record<string, unknown>) => (intent === undefined ? o : { intent, ...o });
  const json = (label: string, o: unknown): Payload => ({ label, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(o) });
  return [
    { label: 'no body' },
    json('empty JSON', withIntent({})),
    json('wrong types', withIntent(jsonOf((_, i) => WRONG_VALUES[i % WRONG_VALUES.length]))),
    json('huge strings', withIntent(jsonOf(() => HUGE))),
    json('unicode', withIntent(jsonOf(() => UNICODE))),
    json('JSON array', [1, 2, 3]),
    json('JSON string', 'just a string'),
    { label: 'invalid JSON', headers: { 'Content-Type': 'application/json' }, body: '{"name": "unterminated' },
    { label: 'form, odd values', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: formOf((_, i) => ['-1', '1e309', UNICODE, 'NaN', '', HUGE][i % 6], intent).toString() },
    { label: 'multipart without boundary', headers: { 'Content-Type': 'multipart/form-data' }, body: JSON.stringify({ name: 'x' }) },
    { label: 'unterminated multipart', headers: { 'Content-Type': 'multipart/form-data; boundary=XyZ' }, body: '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nhalf a part' },
    { label: 'multipart, truncated images', body: multipartWithFiles(intent) },
    { label: 'text/plain', headers: { 'Content-Type': 'text/plain' }, body: 'hello' },
  ];
}

/** The intents a page action dispatches on, read from its source (`intent === 'x'`, `case 'x'`). */
function intentsOf(file: string): string[] {
  const src = fs.readFileSync(path.join(ROUTES_DIR, file), 'utf8');
  const found = new Set<string>();
  for (const m of src.matchAll(/intent\s*===\s*'([\w-]+)'|case\s+'([\w-]+)'\s*:/g)) found.add(m[1] ?? m[2]);
  return [...found];
}

let ids: Record<string, string> = {};
const cookies: Record<string, string | null> = { visitor: null };

async function cookieFor(user: { id: string }) {
  return (await createUserSession(new Request('http://localhost/'), user.id)).split(';')[0];
}

beforeAll(async () => {
  const admin = await createUser({ role: 'super_admin' });
  const player = await createUser({ role: 'player' });
  cookies.admin = await cookieFor(admin);
  const adminSession = (await loadUser(admin.id)) as SessionUser;
  const pin = await createPin();
  const org = await createOrganization();
  const team = await createTeam(adminSession, { name: `Fuzz Team ${Date.now()}` });
  const roster = await addPlayer(adminSession, team.id, { playerName: 'Fuzz Player', jerseyNumber: '7' });
  const invite = await createInvite(adminSession, team.id, roster.id);
  const { vendor } = await createVendor();
  const listing = await createListing(vendor.id);
  ids = { pin: pin.id, org: org.id, team: team.id, roster: roster.id, invite: invite.id, token: invite.path.split('/').pop()!, listing: listing.id, user: player.id, vendor: vendor.id };
}, 60_000);

/** Real ids for a route's params (so the bad body reaches the deep code), by the route's file name. */
function realParams(file: string, names: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of names) {
    if (name === 'token') params[name] = ids.token;
    else if (name === 'pinId') params[name] = ids.pin;
    else if (name === 'rosterId') params[name] = ids.roster;
    else if (name === 'inviteId') params[name] = ids.invite;
    else if (name === 'listingId') params[name] = ids.listing;
    else if (name === 'key') params[name] = ids.pin;
    else if (file.includes('teams')) params[name] = ids.team;
    else if (file.includes('organizations')) params[name] = ids.org;
    else if (file.includes('users') || file.includes('vendors')) params[name] = file.includes('vendors') ? ids.vendor : ids.user;
    else if (file.includes('marketplace') || file.includes('cart')) params[name] = ids.listing;
    else params[name] = ids.pin;
  }
  return params;
}

const JUNK_PARAMS = ['-1', '日本', '../../etc/passwd', 'x'.repeat(2_000), '%00'];

function paramNames(file: string) {
  return [...file.matchAll(/\$(\w+)/g)].map((m) => m[1]);
}

function urlFor(file: string, params: Record<string, string>, query = '') {
  const route = file
    .replace(/\.(tsx|ts)$/, '')
    .replace(/^_index$/, '')
    .split('.')
    .map((seg) => seg.replace(/_$/, '').replace(/^_/, ''))
    .map((seg) => (seg.startsWith('$') ? encodeURIComponent(params[seg.slice(1)] ?? 'x') : seg))
    .filter((seg) => seg !== 'index' && seg !== 'route')
    .join('/');
  return `http://localhost/${route}${query}`;
}

/** Calls a handler; a 5xx answer or a thrown non-Response error is a failure, described. */
async function probe(handler: (args: Args) => Promise<Response>, request: Request, params: Record<string, string>): Promise<string | null> {
  try {
    const response = await handler({ request, params, context: { clientIp: '10.200.0.1' } });
    if (response.status >= 500) return `answered ${response.status}: ${(await response.text()).slice(0, 200)}`;
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status >= 500 ? `threw ${thrown.status}` : null;
    return `threw ${(thrown as Error)?.stack?.split('\n').slice(0, 3).join(' | ') ?? String(thrown)}`;
  }
}

const files = Object.keys(modules)
  .map((k) => path.basename(k))
  .sort();

// Request parsing does not depend on the database driver: this suite runs on the default one only.
describe.skipIf(process.env.DB_DRIVER === 'libsql')('malformed requests never answer 5xx', () => {
  it('covers every route module', () => {
    expect(files.length).toBeGreaterThan(80);
  });

  for (const file of files) {
    it(file, async () => {
      const mod = await modules[`../../app/routes/${file}`]();
      const names = paramNames(file);
      const paramSets = [realParams(file, names), ...(names.length ? [Object.fromEntries(names.map((n, i) => [n, JUNK_PARAMS[i % JUNK_PARAMS.length]]))] : [])];
      const failures: string[] = [];
      for (const actor of ['visitor', 'admin']) {
        resetAllRateLimits();
        for (const params of paramSets) {
          if (mod.loader) {
            for (const query of ['', `?page=-1&size=1e9&sort=${encodeURIComponent(UNICODE.replace(/[\ud800-\udfff]/g, "?"))}&q=${'%25'.repeat(500)}&offset=NaN&status=%00&tab=x&redirectTo=${encodeURIComponent(ODD_PATH)}`]) {
              const headers = new Headers();
              if (cookies[actor]) headers.set('Cookie', cookies[actor]!);
              const failure = await probe(mod.loader, new Request(urlFor(file, params, query), { headers }), params);
              if (failure) failures.push(`${actor} GET${query ? ' odd query' : ''} ${JSON.stringify(params).slice(0, 80)}: ${failure}`);
            }
          }
          if (!mod.action) continue;
          const intents = [undefined, ...intentsOf(file)];
          for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
            // every payload for POST and every intent; the other verbs get the body shapes once
            const shapes = method === 'POST' ? intents.flatMap((intent) => payloads(intent)) : payloads().filter((_, i) => i % 3 === 0);
            for (const payload of shapes) {
              const headers = new Headers(payload.headers);
              if (cookies[actor]) headers.set('Cookie', cookies[actor]!);
              const request = new Request(urlFor(file, params), { method, headers, body: payload.body });
              const failure = await probe(mod.action, request, params);
              if (failure) failures.push(`${actor} ${method} ${payload.label} ${JSON.stringify(params).slice(0, 80)}: ${failure}`);
            }
          }
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);
  }
});
