import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '~/auth/password.server';
import { db } from '~/db/index.server';
import { passwordResetTokens, passwords, pins, sessions, userCollections, users } from '~/db/schema';
import {
  changeEmail,
  changePassword,
  checkResetToken,
  createResetLink,
  deleteAccount,
  requestPasswordReset,
  resetPassword,
} from '~/services/account.server';
import { createCollectionEntry } from '~/services/collection.server';
import { AppError } from '~/services/errors';
import { resetAllRateLimits } from '~/services/rate-limit.server';
import { createAccount, loadUser, verifyLogin } from '~/services/users.server';
import { createUserSession } from '~/auth/session.server';
import { createPin } from '../support/factories';

let n = 0;
const unique = (prefix = 'acct') => `${prefix}-${Date.now().toString(36)}-${n++}@example.test`;
const PASSWORD = 'correct-horse-battery';
const NEW_PASSWORD = 'a-brand-new-password';

async function account() {
  const user = await createAccount({ email: unique(), password: PASSWORD, firstName: 'Pat', lastName: 'Collector' });
  return (await loadUser(user.id))!;
}

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

const passwordOk = async (userId: string, password: string) => {
  const row = await db().select().from(passwords).where(eq(passwords.userId, userId)).get();
  return !!row && (await verifyPassword(password, row.hash));
};

// A local SMTP server of the test's own: every message it receives, as raw text.
const inbox: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer;
beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const { port } = smtp.server.address() as { port: number };
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  process.env.APP_URL = 'https://pins.example.org';
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.APP_URL;
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});
beforeEach(() => resetAllRateLimits());

const linkIn = (raw: string) => {
  const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  return /https:\/\/pins\.example\.org\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(unfolded)?.[1] ?? null;
};

describe('forgotten password by e-mail', () => {
  it('mails a link that sets the password once, ends the sessions, and is refused again', async () => {
    const user = await account();
    await createUserSession(new Request('http://x/'), user.id);
    const before = inbox.length;
    expect(await requestPasswordReset({ email: user.email.toUpperCase() }, { ip: '10.0.0.1' })).toEqual({ mailed: true });
    expect(inbox.length).toBe(before + 1);
    const mail = inbox.at(-1)!;
    expect(mail.to).toEqual([user.email]);
    expect(mail.raw).toContain('Subject: Reset your PinDex password');
    const token = linkIn(mail.raw);
    expect(token).toBeTruthy();
    expect(await checkResetToken(token)).toBe(true);
    // only the token's hash is stored
    const stored = await db().select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(stored.map((r) => r.tokenHash)).not.toContain(token);

    await expectError(resetPassword({ token, newPassword: 'short', confirmPassword: 'short' }, { ip: '10.0.0.1' }), 400);
    await resetPassword({ token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, { ip: '10.0.0.1' });
    expect(await passwordOk(user.id, NEW_PASSWORD)).toBe(true);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    // once only
    const again = await expectError(resetPassword({ token, newPassword: 'another-password-1', confirmPassword: 'another-password-1' }, { ip: '10.0.0.1' }), 400);
    expect(again.message).toBe('This reset link is invalid or has expired.');
    expect(await passwordOk(user.id, NEW_PASSWORD)).toBe(true);
  });

  it('a link expires after an hour; an unknown e-mail gets the same answer and no mail', async () => {
    const user = await account();
    const link = await createResetLink(user.email, new Date(Date.now() - 61 * 60 * 1000));
    const token = new URL(link!.url).searchParams.get('token');
    expect(await checkResetToken(token)).toBe(false);
    await expectError(resetPassword({ token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, { ip: '10.0.0.2' }), 400);
    expect(await passwordOk(user.id, PASSWORD)).toBe(true);

    const before = inbox.length;
    expect(await requestPasswordReset({ email: unique('nobody') }, { ip: '10.0.0.2' })).toEqual({ mailed: true });
    expect(inbox.length).toBe(before);
    await expectError(requestPasswordReset({ email: 'not an address' }, { ip: '10.0.0.2' }), 400);
  });

  it('is rate limited per address (429 on the 6th within an hour)', async () => {
    const user = await account();
    for (let i = 0; i < 5; i++) await requestPasswordReset({ email: user.email }, { ip: `10.0.1.${i}` });
    await expectError(requestPasswordReset({ email: user.email }, { ip: '10.0.1.9' }), 429);
  });

  it('without SMTP_URL nothing is sent, and the page is told so', async () => {
    const url = process.env.SMTP_URL;
    delete process.env.SMTP_URL;
    try {
      const before = inbox.length;
      expect(await requestPasswordReset({ email: (await account()).email }, { ip: '10.0.2.1' })).toEqual({ mailed: false });
      expect(inbox.length).toBe(before);
    } finally {
      process.env.SMTP_URL = url;
    }
  });
});

describe('changing password and e-mail', () => {
  it('changes the password with the current one, keeping only this session', async () => {
    const user = await account();
    const keep = await db().insert(sessions).values({ sid: `keep-${n++}`, sess: {}, expire: new Date(Date.now() + 1e6), userId: user.id }).returning();
    await db().insert(sessions).values({ sid: `other-${n++}`, sess: {}, expire: new Date(Date.now() + 1e6), userId: user.id });
    await expectError(changePassword(null, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }), 401);
    const wrong = await expectError(changePassword(user, { currentPassword: 'not-it-at-all', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }), 400);
    expect(wrong.issues?.currentPassword).toEqual(['Your current password is not right']);
    await expectError(changePassword(user, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: 'different-password' }), 400);
    expect(await passwordOk(user.id, PASSWORD)).toBe(true);
    await changePassword(user, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, { keepSessionId: keep[0].sid });
    expect((await db().select().from(sessions).where(eq(sessions.userId, user.id))).map((s) => s.sid)).toEqual([keep[0].sid]);
    await expect(verifyLogin({ email: user.email, password: NEW_PASSWORD }, { ip: '10.0.3.1' })).resolves.toMatchObject({ id: user.id });
  });

  it('changes the e-mail with the password; a taken address is 409', async () => {
    const user = await account();
    const other = await account();
    await expectError(changeEmail(null, { email: unique(), currentPassword: PASSWORD }), 401);
    await expectError(changeEmail(user, { email: unique(), currentPassword: 'wrong-password' }), 400);
    await expectError(changeEmail(user, { email: 'nope', currentPassword: PASSWORD }), 400);
    await expectError(changeEmail(user, { email: other.email.toUpperCase(), currentPassword: PASSWORD }), 409);
    const next = unique('moved');
    await changeEmail(user, { email: next, currentPassword: PASSWORD });
    expect((await loadUser(user.id))!.email).toBe(next);
  });
});

describe('deleting the account', () => {
  it('removes the collection, sessions and personal data; contributed pins stay, from a deleted user', async () => {
    const user = await account();
    const pin = await createPin({ createdBy: user.id });
    await createCollectionEntry(user, { pinId: pin.id, status: 'owned' });
    await createUserSession(new Request('http://x/'), user.id);
    await expectError(deleteAccount(null, { currentPassword: PASSWORD }), 401);
    await expectError(deleteAccount(user, { currentPassword: 'wrong-password' }), 400);
    expect(await loadUser(user.id)).not.toBeNull();

    await deleteAccount(user, { currentPassword: PASSWORD });
    expect(await loadUser(user.id)).toBeNull();
    const row = (await db().select().from(users).where(eq(users.id, user.id)).get())!;
    expect(row).toMatchObject({ firstName: 'Deleted', lastName: 'user', nickname: null, profileImageUrl: null });
    expect(row.email).not.toContain('acct-');
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect(await db().select().from(userCollections).where(eq(userCollections.userId, user.id))).toHaveLength(0);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect(await db().select().from(passwords).where(eq(passwords.userId, user.id))).toHaveLength(0);
    expect((await db().select().from(pins).where(eq(pins.id, pin.id)).get())?.createdBy).toBe(user.id);
    // the old address is free again, and nobody can sign in as the deleted account
    await expectError(verifyLogin({ email: user.email, password: PASSWORD }, { ip: '10.0.4.1' }), 400);
    await expect(createAccount({ email: user.email, password: PASSWORD, firstName: 'New', lastName: 'Person' })).resolves.toBeTruthy();
    expect(await createResetLink(row.email)).toBeNull();
  });
});
