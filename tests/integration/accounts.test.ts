import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createUserSession, deleteExpiredSessions, destroyUserSession, getSession, rollSession, sessionStorage } from '~/auth/session.server';
import { optionalUser } from '~/http/guards.server';
import { loadUser, type SessionUser } from '~/services/users.server';
import { safeRedirect } from '~/auth/redirect';
import { db } from '~/db/index.server';
import { auditLogs, sessions, users } from '~/db/schema';
import { checkRateLimit, consumeRateLimit, recordLoginFailure, resetAllRateLimits } from '~/services/rate-limit.server';
import {
  INVALID_LOGIN_MESSAGE,
  SIGNUP_REFUSED_MESSAGE,
  changeUserRole,
  completeOnboarding,
  createAccount,
  findOrCreateOAuthUser,
  setRoleByEmail,
  updateNickname,
  updateProfilePicture,
  verifyLogin,
} from '~/services/users.server';
import { getImageVariant, imageIdOf } from '~/services/images.server';
import { createUser } from '../support/factories';
import { action as loginAction } from '~/routes/api.login';

let n = 0;
const unique = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${n++}@example.test`;
const PASSWORD = 'correct-horse-battery';

async function account(overrides: Partial<{ email: string; firstName: string; lastName: string }> = {}) {
  return createAccount({ email: overrides.email ?? unique(), password: PASSWORD, firstName: overrides.firstName ?? 'Pat', lastName: overrides.lastName ?? 'Collector' });
}
const asSession = async (id: string) => (await loadUser(id)) as SessionUser;

beforeEach(() => resetAllRateLimits());

describe('accounts', () => {
  it('makes the first account on an empty instance super_admin, and later ones players', async () => {
    const [{ n: before }] = await db().select({ n: count() }).from(users);
    expect(before).toBe(0);
    // two sign-ups racing on the empty table: exactly one becomes super_admin
    const [a, b] = await Promise.all([account(), account()]);
    expect([a.role, b.role].sort()).toEqual(['player', 'super_admin']);
    const c = await account();
    expect(c.role).toBe('player');
    const supers = await db().select().from(users).where(eq(users.role, 'super_admin'));
    expect(supers).toHaveLength(1);
  });

  it('answers sign-ups for taken addresses only a few times per client', async () => {
    const ip = '10.4.0.1';
    const taken = await account();
    for (let i = 0; i < 5; i++) {
      await expect(createAccount({ email: taken.email, password: PASSWORD, firstName: 'Pat', lastName: 'Probe' }, { ip })).rejects.toMatchObject({ status: 400 });
    }
    // probing further from that client waits, whatever the address
    await expect(createAccount({ email: unique('fresh'), password: PASSWORD, firstName: 'Pat', lastName: 'Probe' }, { ip })).rejects.toMatchObject({ status: 429 });
    await expect(createAccount({ email: unique('fresh'), password: PASSWORD, firstName: 'Pat', lastName: 'New' }, { ip: '10.4.0.2' })).resolves.toMatchObject({ role: 'player' });
  });

  it('refuses a second account with the same e-mail (any case) and a short password', async () => {
    const email = unique('dupe');
    await account({ email });
    // the answer does not say that the address has an account
    const refused = await account({ email: email.toUpperCase() }).catch((e) => e);
    expect(refused).toMatchObject({ status: 400, issues: { form: [SIGNUP_REFUSED_MESSAGE] } });
    expect(JSON.stringify(refused.issues)).not.toMatch(/already exists|taken|in use/i);
    await expect(createAccount({ email: unique(), password: 'short', firstName: 'A', lastName: 'B' })).rejects.toMatchObject({
      status: 400,
      issues: { password: ['Password must be at least 10 characters'] },
    });
  });

  it('signs in with the right password and gives one message for a wrong password or an unknown e-mail', async () => {
    const user = await account();
    await expect(verifyLogin({ email: user.email.toUpperCase(), password: PASSWORD }, { ip: '10.0.0.1' })).resolves.toMatchObject({ id: user.id });
    const wrongPassword = await verifyLogin({ email: user.email, password: 'not-the-password' }, { ip: '10.0.0.1' }).catch((e) => e);
    const unknownEmail = await verifyLogin({ email: unique('nobody'), password: PASSWORD }, { ip: '10.0.0.1' }).catch((e) => e);
    expect(wrongPassword).toMatchObject({ status: 400, message: INVALID_LOGIN_MESSAGE });
    expect(unknownEmail).toMatchObject({ status: 400, message: INVALID_LOGIN_MESSAGE });
  });

  it("does not let one client's wrong passwords lock the owner out from another client", async () => {
    const user = await account();
    const attacker = '10.1.0.66';
    for (let i = 0; i < 5; i++) {
      await expect(verifyLogin({ email: user.email, password: `wrong-${i}-password` }, { ip: attacker })).rejects.toMatchObject({ status: 400 });
    }
    // the sixth try from that client waits, and the wait is said
    const sixth = await verifyLogin({ email: user.email, password: 'wrong-again' }, { ip: attacker }).catch((e) => e);
    expect(sixth).toMatchObject({ status: 429 });
    expect(sixth.message).toMatch(/Too many sign-in attempts/);
    expect(Number(sixth.headers['Retry-After'])).toBeGreaterThan(0);
    // even its right password waits...
    await expect(verifyLogin({ email: user.email, password: PASSWORD }, { ip: attacker })).rejects.toMatchObject({ status: 429 });
    // ...but the owner on their own device signs in as always
    await expect(verifyLogin({ email: user.email, password: PASSWORD }, { ip: '10.1.0.7' })).resolves.toMatchObject({ id: user.id });
  });

  it('keeps a device the account signed in from open while many clients guess its password', async () => {
    const user = await account();
    const device = { id: 'device-owner', userIds: [user.id] };
    // failures spread over many addresses (counted directly: dozens of scrypt checks would be slow)
    await consumeRateLimit('login-account', user.email.toLowerCase(), 50);
    // a client this account never signed in from now waits, even with the right password
    await expect(verifyLogin({ email: user.email, password: PASSWORD }, { ip: '10.2.0.1' })).rejects.toMatchObject({ status: 429 });
    await expect(verifyLogin({ email: user.email, password: PASSWORD }, { ip: '10.2.0.1', device: { id: 'new-device', userIds: [] } })).rejects.toMatchObject({ status: 429 });
    // the owner's device (its signed cookie names the account) is not held up by the others
    await expect(verifyLogin({ email: user.email, password: PASSWORD }, { ip: '10.2.0.1', device })).resolves.toMatchObject({ id: user.id });
    // a device cookie naming another account does not help
    const other = await account();
    await consumeRateLimit('login-account', other.email.toLowerCase(), 50);
    await expect(verifyLogin({ email: other.email, password: PASSWORD }, { ip: '10.2.0.1', device })).rejects.toMatchObject({ status: 429 });
  });

  it('remembers the browser an account signed in from, in a signed cookie', async () => {
    const user = await account();
    const signIn = (cookie?: string) =>
      loginAction({
        request: new Request('http://localhost/api/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie ? { Cookie: cookie } : {}) },
          body: new URLSearchParams({ email: user.email, password: PASSWORD }),
        }),
        params: {},
        context: { clientIp: '10.5.0.1' },
      });
    const first = await signIn();
    expect(first.status).toBe(302);
    const device = (first.headers.get('Set-Cookie') ?? '').match(/__pindex_device=[^;]+/)?.[0];
    expect(device).toBeTruthy();
    // many clients have guessed since: a client without the cookie waits, the owner's browser does not
    await consumeRateLimit('login-account', user.email.toLowerCase(), 50);
    expect((await signIn()).status).toBe(429);
    expect((await signIn(device)).status).toBe(302);
    // a cookie written by hand (not signed by the server) is no device
    const forged = `__pindex_device=${encodeURIComponent(btoa(JSON.stringify({ id: 'forged', userIds: [user.id] })))}`;
    expect((await signIn(forged)).status).toBe(429);
  });

  it('backs off longer after each failure once a client is held', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      const key = '10.3.0.1|someone@example.test';
      const waits: number[] = [];
      for (let i = 0; i < 8; i++) {
        const held = await checkRateLimit('login-client', key).then(() => null, (e) => e);
        if (held) {
          waits.push(Number(held.headers['Retry-After']));
          vi.advanceTimersByTime(Number(held.headers['Retry-After']) * 1000 + 1000);
        }
        await recordLoginFailure('login-client', key);
      }
      // five free tries, then each further failure doubles the wait
      expect(waits).toEqual([30, 60, 120]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('limits per IP across e-mails and exposes a reusable limiter', async () => {
    const ip = '10.9.9.9';
    const someone = await account();
    // 99 earlier failures from this address (counted directly: 99 scrypt checks would be slow)
    await consumeRateLimit('login-ip', ip, 99);
    await expect(verifyLogin({ email: unique('spray'), password: 'whatever-password' }, { ip })).rejects.toMatchObject({ status: 400 });
    // the 100th failure used the address up: even a right password from it now waits
    await expect(verifyLogin({ email: someone.email, password: PASSWORD }, { ip })).rejects.toMatchObject({ status: 429 });
    await expect(verifyLogin({ email: someone.email, password: PASSWORD }, { ip: '10.9.9.10' })).resolves.toMatchObject({ id: someone.id });
    for (let i = 0; i < 30; i++) await consumeRateLimit('identify-ip', '1.2.3.4');
    await expect(consumeRateLimit('identify-ip', '1.2.3.4')).rejects.toMatchObject({ status: 429 });
    await expect(consumeRateLimit('identify-ip', '1.2.3.5')).resolves.toBeUndefined();
  });
});

describe('onboarding and profile', () => {
  it('validates the nickname with the specification messages and the role', async () => {
    const user = await asSession((await account()).id);
    await expect(completeOnboarding(user, { nickname: 'x', role: 'player' })).rejects.toMatchObject({
      status: 400,
      issues: { nickname: ['Nickname must be at least 2 characters'] },
    });
    await expect(completeOnboarding(user, { nickname: 'x'.repeat(51), role: 'player' })).rejects.toMatchObject({
      issues: { nickname: ['Nickname too long'] },
    });
    await expect(completeOnboarding(user, { nickname: 'Valid Name', role: 'admin' })).rejects.toMatchObject({ status: 400, issues: { role: expect.any(Array) } });
    await expect(completeOnboarding(null, { nickname: 'Valid Name', role: 'player' })).rejects.toMatchObject({ status: 401 });
    const done = await completeOnboarding(user, { nickname: 'Slugger Sam', role: 'manager' });
    expect(done).toMatchObject({ nickname: 'Slugger Sam', role: 'manager', isOnboardingComplete: true });
    // the profile call reports its field the same way
    await expect(updateNickname(done, { nickname: ' ' })).rejects.toMatchObject({
      status: 400,
      issues: { nickname: ['Nickname must be at least 2 characters'] },
    });
    await expect(updateNickname(done, {})).rejects.toMatchObject({ status: 400, issues: { nickname: expect.any(Array) } });
  });

  it('keeps nicknames unique without regard to case', async () => {
    const first = await asSession((await account()).id);
    const second = await asSession((await account()).id);
    await completeOnboarding(first, { nickname: 'PinQueen', role: 'player' });
    await expect(completeOnboarding(second, { nickname: 'pinqueen', role: 'player' })).rejects.toMatchObject({
      status: 409,
      issues: { nickname: ['This nickname is already taken'] },
    });
    await expect(updateNickname(second, { nickname: 'PINQUEEN' })).rejects.toMatchObject({ status: 409 });
    // changing one's own nickname's case is fine
    await expect(updateNickname(first, { nickname: 'pinqueen' })).resolves.toMatchObject({ nickname: 'pinqueen' });
  });

  it('never lowers a role given by someone else during onboarding', async () => {
    const admin = await createUser({ role: 'admin', isOnboardingComplete: false });
    const done = await completeOnboarding(await asSession(admin.id), { nickname: `Admin ${n++}`, role: 'player' });
    expect(done.role).toBe('admin');
  });

  it('does not let an onboarded user change their own role by completing onboarding again', async () => {
    const player = await createUser({ role: 'player', isOnboardingComplete: true });
    const again = await completeOnboarding(await asSession(player.id), { nickname: `Again ${n++}`, role: 'manager' });
    expect(again.role).toBe('player');
    expect((await asSession(player.id)).role).toBe('player');
  });

  it('stores a profile picture centre-cropped to 200x200 and refuses non-images', async () => {
    const user = await asSession((await account()).id);
    const photo = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const updated = await updateProfilePicture(user, new File([new Uint8Array(photo)], 'me.png', { type: 'image/png' }));
    const id = imageIdOf(updated.profileImageUrl ?? '');
    expect(id).toBeTruthy();
    const served = await getImageVariant(id!, 'full', 'jpeg');
    const meta = await sharp(served.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([200, 200]);
    await expect(updateProfilePicture(user, new File(['not an image at all, just text'], 'x.jpg', { type: 'image/jpeg' }))).rejects.toMatchObject({
      status: 415,
      message: 'Invalid file type',
    });
  });
});

describe('roles', () => {
  it('lets a super_admin change anyone, an admin only non-admin roles, others nobody', async () => {
    const superAdmin = await asSession((await createUser({ role: 'super_admin' })).id);
    const admin = await asSession((await createUser({ role: 'admin' })).id);
    const otherAdmin = await createUser({ role: 'admin' });
    const player = await createUser({ role: 'player' });
    const vendorish = await asSession((await createUser({ role: 'vendor' })).id);

    await expect(changeUserRole(admin, player.id, 'manager')).resolves.toMatchObject({ role: 'manager' });
    await expect(changeUserRole(admin, player.id, 'admin')).rejects.toMatchObject({ status: 403 });
    await expect(changeUserRole(admin, otherAdmin.id, 'player')).rejects.toMatchObject({ status: 403 });
    await expect(changeUserRole(vendorish, player.id, 'vendor')).rejects.toMatchObject({ status: 403 });
    await expect(changeUserRole(null, player.id, 'vendor')).rejects.toMatchObject({ status: 401 });
    await expect(changeUserRole(superAdmin, otherAdmin.id, 'player')).resolves.toMatchObject({ role: 'player' });
    await expect(changeUserRole(superAdmin, player.id, 'admin')).resolves.toMatchObject({ role: 'admin' });
    await expect(changeUserRole(superAdmin, player.id, 'wizard')).rejects.toMatchObject({ status: 400 });

    const log = await db().select().from(auditLogs).where(eq(auditLogs.targetId, player.id));
    expect(log.map((l) => [l.action, l.userId, l.details])).toEqual(
      expect.arrayContaining([
        ['user.role_change', admin.id, { email: player.email, before: { role: 'player' }, after: { role: 'manager' } }],
        ['user.role_change', superAdmin.id, { email: player.email, before: { role: 'manager' }, after: { role: 'admin' } }],
      ]),
    );
    // refusals leave no trace: two changes went through for this user
    expect(log).toHaveLength(2);
    // nobody changes their own role, not even a super_admin
    await expect(changeUserRole(superAdmin, superAdmin.id, 'player')).rejects.toMatchObject({ status: 403, message: 'You cannot change your own role' });
  });

  it('changes a role by e-mail from the command line and keeps at least one super_admin', async () => {
    const u = await account();
    await expect(setRoleByEmail(u.email.toUpperCase(), 'vendor')).resolves.toMatchObject({ previous: u.role, user: { role: 'vendor' } });
    await expect(setRoleByEmail(u.email, 'emperor')).rejects.toMatchObject({ status: 400 });
    await expect(setRoleByEmail('nobody@example.test', 'player')).rejects.toMatchObject({ status: 404 });
    const supers = await db().select().from(users).where(eq(users.role, 'super_admin'));
    if (supers.length === 1) {
      await expect(setRoleByEmail(supers[0].email, 'player')).rejects.toMatchObject({ status: 409 });
    }
  });
});

describe('oauth users', () => {
  it('creates a user for a verified e-mail, links an existing account, and refuses unverified e-mails', async () => {
    const email = unique('oauth');
    const created = await findOrCreateOAuthUser({ provider: 'test', providerUserId: `sub-${n++}`, email, emailVerified: true, firstName: 'O', lastName: 'Auth' });
    expect(created).toMatchObject({ email, role: 'player', isOnboardingComplete: false });

    const local = await account();
    const linked = await findOrCreateOAuthUser({ provider: 'test', providerUserId: `sub-${n++}`, email: local.email.toUpperCase(), emailVerified: true });
    expect(linked.id).toBe(local.id);

    const hijack = await account();
    await expect(findOrCreateOAuthUser({ provider: 'test', providerUserId: `sub-${n++}`, email: hijack.email, emailVerified: false })).rejects.toMatchObject({ status: 403 });
  });
});

describe('sessions', () => {
  const cookieOf = (setCookie: string) => setCookie.split(';')[0];

  it('issues a new session id at every sign-in and destroys the old one', async () => {
    const user = await account();
    const first = cookieOf(await createUserSession(new Request('http://x/'), user.id));
    const firstSession = await getSession(new Request('http://x/', { headers: { Cookie: first } }));
    expect(firstSession.get('userId')).toBe(user.id);
    const second = cookieOf(await createUserSession(new Request('http://x/', { headers: { Cookie: first } }), user.id));
    const secondSession = await getSession(new Request('http://x/', { headers: { Cookie: second } }));
    expect(secondSession.id).not.toBe(firstSession.id);
    expect((await getSession(new Request('http://x/', { headers: { Cookie: first } }))).get('userId')).toBeUndefined();
  });

  it('rolls the 30-day expiry forward when older than a day, and cleans up expired rows', async () => {
    const user = await account();
    const cookie = cookieOf(await createUserSession(new Request('http://x/'), user.id));
    const request = new Request('http://x/', { headers: { Cookie: cookie } });
    expect(await rollSession(request)).toBeNull();
    const session = await getSession(request);
    session.set('refreshedAt', Date.now() - 2 * 24 * 3600 * 1000);
    await sessionStorage.commitSession(session, { expires: new Date(Date.now() + 3 * 24 * 3600 * 1000) });
    const rolled = await rollSession(request);
    expect(rolled).toMatch(/Max-Age=2592000/);
    const row = await db().select().from(sessions).where(eq(sessions.sid, session.id)).get();
    expect(row!.expire.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);

    await db().update(sessions).set({ expire: new Date(Date.now() - 1000) }).where(eq(sessions.sid, session.id));
    expect((await getSession(request)).get('userId')).toBeUndefined();
    await deleteExpiredSessions();
    expect(await db().select().from(sessions).where(eq(sessions.sid, session.id)).get()).toBeUndefined();
  });
});

describe("a request's session and user", () => {
  const cookieOf = (setCookie: string) => setCookie.split(';')[0];

  it('are the same for each ask of a request, until a sign-out by that request', async () => {
    const user = await account();
    const request = new Request('http://x/', { headers: { Cookie: cookieOf(await createUserSession(new Request('http://x/'), user.id)) } });
    const first = await optionalUser(request);
    const second = await optionalUser(request);
    expect(second).toEqual(first);
    // each caller its own copy
    expect(second).not.toBe(first);
    expect(first!.id).toBe(user.id);
    expect((await getSession(request)).get('userId')).toBe(user.id);
    // signed out with the same request (its cookie unchanged): the next ask reads the row again
    await destroyUserSession(request);
    expect(await optionalUser(request)).toBeNull();
    expect((await getSession(request)).get('userId')).toBeUndefined();
  });

  it('see a change of the user made during the request', async () => {
    const user = await account();
    const request = new Request('http://x/', { headers: { Cookie: cookieOf(await createUserSession(new Request('http://x/'), user.id)) } });
    expect((await optionalUser(request))!.nickname).toBe(user.nickname);
    await db().update(users).set({ nickname: 'changed-in-flight' }).where(eq(users.id, user.id));
    expect((await optionalUser(request))!.nickname).toBe('changed-in-flight');
  });
});

describe('safeRedirect', () => {
  it('keeps same-site paths and refuses other sites', () => {
    expect(safeRedirect('/collection?tab=owned')).toBe('/collection?tab=owned');
    expect(safeRedirect('//evil.example/x')).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(safeRedirect('/api/logout')).toBe('/');
  });

  it('gives a path a Location header can carry (ASCII), or the fallback', () => {
    expect(safeRedirect('/日本?q=ピン')).toBe('/%E6%97%A5%E6%9C%AC?q=%E3%83%94%E3%83%B3');
    expect(() => new Response(null, { status: 302, headers: { Location: safeRedirect('/日本') } })).not.toThrow();
    expect(safeRedirect('/pins/\ud800')).toBe('/');
    expect(safeRedirect('/collection?tab=owned&x=a b')).toBe('/collection?tab=owned&x=a%20b');
  });
});
