/**
 * Account management: change password, change e-mail, delete the account, and forgotten-password
 * links (one hour, used once; only the token's SHA-256 is stored). Each takes the acting user.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { assertSignedIn, type Actor } from '~/auth/permissions';
import { hashPassword, verifyPassword } from '~/auth/password.server';
import { db, transaction } from '~/db/index.server';
import {
  identifications,
  oauthConnections,
  passwordResetTokens,
  passwords,
  pinSuggestions,
  sessions,
  userAchievements,
  userCollections,
  users,
  userStats,
} from '~/db/schema';
import { ChangeEmailSchema, ChangePasswordSchema, DeleteAccountSchema, ForgotPasswordSchema, ResetPasswordSchema } from '~/forms/account';
import { parseWith } from '~/utils/validation';
import { Conflict, Invalid, NotFound } from './errors';
import { mailConfigured, sendMail } from './mail.server';
import { checkRateLimit, consumeRateLimit, resetRateLimit } from './rate-limit.server';

export const RESET_LINK_TTL_MS = 60 * 60 * 1000;
export const RESET_INVALID_MESSAGE = 'This reset link is invalid or has expired.';
export const WRONG_PASSWORD_MESSAGE = 'Your current password is not right';
const EMAIL_IN_USE_MESSAGE = 'An account with this email already exists';

const byEmail = (email: string) => sql`lower(${users.email}) = ${email.trim().toLowerCase()}`;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The site's public address for links in e-mails (APP_URL, else this machine). */
export function appUrl(): string {
  return (process.env.APP_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/+$/, '');
}

async function storedHash(userId: string): Promise<string | null> {
  const row = await db().select({ hash: passwords.hash }).from(passwords).where(eq(passwords.userId, userId)).get();
  return row?.hash ?? null;
}

/** Whether the account has a password (one made with an external provider may not). */
export async function hasPassword(userId: string): Promise<boolean> {
  return (await storedHash(userId)) !== null;
}

/** Checks the current password (rate limited per user); an account without one passes. */
async function assertCurrentPassword(userId: string, password: string | undefined, field = 'currentPassword'): Promise<void> {
  const hash = await storedHash(userId);
  if (hash === null) return;
  await checkRateLimit('password-user', userId);
  if (!password || !(await verifyPassword(password, hash))) {
    await consumeRateLimit('password-user', userId);
    throw new Invalid(WRONG_PASSWORD_MESSAGE, { [field]: [WRONG_PASSWORD_MESSAGE] });
  }
  await resetRateLimit('password-user', userId);
}

/** Sets a new password (the current one required); the user's other sessions end. */
export async function changePassword(actor: Actor | null, input: unknown, opts: { keepSessionId?: string | null } = {}): Promise<void> {
  assertSignedIn(actor);
  const data = parseWith(ChangePasswordSchema, input);
  const hash = await storedHash(actor.id);
  if (hash === null) throw new Invalid('Your account signs in with an external provider and has no password here.', { currentPassword: ['This account has no password: use Forgot your password? to set one.'] });
  await assertCurrentPassword(actor.id, data.currentPassword);
  const next = await hashPassword(data.newPassword);
  await transaction(async (tx) => {
    await tx.update(passwords).set({ hash: next, updatedAt: new Date() }).where(eq(passwords.userId, actor.id));
    await tx
      .delete(sessions)
      .where(opts.keepSessionId ? and(eq(sessions.userId, actor.id), ne(sessions.sid, opts.keepSessionId)) : eq(sessions.userId, actor.id));
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, actor.id));
  });
}

/** Changes the e-mail address (the current password required when there is one). */
export async function changeEmail(actor: Actor | null, input: unknown): Promise<{ email: string }> {
  assertSignedIn(actor);
  const data = parseWith(ChangeEmailSchema, input);
  await assertCurrentPassword(actor.id, data.currentPassword);
  await transaction(async (tx) => {
    const taken = await tx.select({ id: users.id }).from(users).where(and(byEmail(data.email), ne(users.id, actor.id))).get();
    if (taken) throw new Conflict(EMAIL_IN_USE_MESSAGE, { email: [EMAIL_IN_USE_MESSAGE] });
    await tx.update(users).set({ email: data.email }).where(eq(users.id, actor.id));
  });
  return { email: data.email };
}

/**
 * Deletes the account: the collection, badges, stats, sessions, sign-in methods and personal data
 * go; the row stays, emptied and marked deleted, so the pins the user contributed keep a creator
 * (shown as a deleted user) and records that must stay (orders, audit) keep their reference.
 * Confirmed by the current password, or by the e-mail typed again for an account without one.
 */
export async function deleteAccount(actor: Actor | null, input: unknown): Promise<void> {
  assertSignedIn(actor);
  const data = parseWith(DeleteAccountSchema, input);
  if (await hasPassword(actor.id)) {
    await assertCurrentPassword(actor.id, data.currentPassword);
  } else if ((data.confirmEmail ?? '').toLowerCase() !== ((await db().select({ email: users.email }).from(users).where(eq(users.id, actor.id)).get())?.email ?? '').toLowerCase()) {
    throw new Invalid('Type your e-mail address to confirm', { confirmEmail: ['Type your e-mail address to confirm'] });
  }
  await transaction(async (tx) => {
    const id = actor.id;
    await tx.delete(userCollections).where(eq(userCollections.userId, id));
    await tx.delete(userAchievements).where(eq(userAchievements.userId, id));
    await tx.delete(userStats).where(eq(userStats.userId, id));
    await tx.delete(sessions).where(eq(sessions.userId, id));
    await tx.delete(passwords).where(eq(passwords.userId, id));
    await tx.delete(oauthConnections).where(eq(oauthConnections.userId, id));
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, id));
    // photos are personal: their identifications stay in the counts, without the user
    await tx.update(identifications).set({ userId: null }).where(eq(identifications.userId, id));
    // a suggestion nobody reviewed yet goes with the account
    await tx.delete(pinSuggestions).where(and(eq(pinSuggestions.suggestedBy, id), eq(pinSuggestions.status, 'pending')));
    await tx
      .update(users)
      .set({
        email: `deleted+${id}@deleted.invalid`,
        firstName: 'Deleted',
        lastName: 'user',
        nickname: null,
        profileImageUrl: null,
        stripeCustomerId: null,
        deletedAt: new Date(),
      })
      .where(eq(users.id, id));
  });
}

// ---------------------------------------------------------------- forgotten password

/** A new one-hour link for the account with this e-mail (null when there is none). */
export async function createResetLink(email: string, now = new Date()): Promise<{ url: string; userId: string; email: string } | null> {
  const user = await db()
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(byEmail(email), isNull(users.deletedAt)))
    .get();
  if (!user) return null;
  const token = randomBytes(32).toString('base64url');
  await db()
    .insert(passwordResetTokens)
    .values({ userId: user.id, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + RESET_LINK_TTL_MS) });
  return { url: `${appUrl()}/reset-password?token=${token}`, userId: user.id, email: user.email };
}

/**
 * The forgotten-password form: with mail configured, a link is e-mailed to the account (if there
 * is one; the answer is the same either way, so it tells nobody who has an account). Rate limited
 * per network and per address. Returns whether mail is configured (the page says what to do if not).
 */
export async function requestPasswordReset(input: unknown, opts: { ip: string }): Promise<{ mailed: boolean }> {
  const data = parseWith(ForgotPasswordSchema, input);
  await consumeRateLimit('reset-ip', opts.ip);
  await consumeRateLimit('reset-email', data.email);
  if (!mailConfigured()) return { mailed: false };
  const link = await createResetLink(data.email);
  if (link) {
    await sendMail({
      to: link.email,
      subject: 'Reset your PinDex password',
      text: [
        'Someone (we hope you) asked to reset the password of your PinDex account.',
        '',
        `Choose a new password here (the link works once, for one hour): ${link.url}`,
        '',
        'If it was not you, ignore this e-mail: your password stays as it is.',
      ].join('\n'),
    });
  }
  return { mailed: true };
}

async function liveToken(token: string, now: Date) {
  const row = await db()
    .select()
    .from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.tokenHash, hashToken(token)), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)))
    .get();
  return row ?? null;
}

/** Whether a reset link can still be used (the page shows the form, or says it has expired). */
export async function checkResetToken(token: string | null | undefined, now = new Date()): Promise<boolean> {
  return !!token && token.length <= 200 && (await liveToken(token, now)) !== null;
}

/** Sets the password from a reset link, once; every session of the account ends. */
export async function resetPassword(input: unknown, opts: { ip: string; now?: Date }): Promise<{ userId: string }> {
  const data = parseWith(ResetPasswordSchema, input);
  await consumeRateLimit('reset-ip', opts.ip);
  const now = opts.now ?? new Date();
  const next = await hashPassword(data.newPassword);
  return transaction(async (tx) => {
    // used and checked in one statement: two posts of the same link cannot both succeed
    const used = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.tokenHash, hashToken(data.token)), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)))
      .returning({ userId: passwordResetTokens.userId });
    const userId = used[0]?.userId;
    if (!userId) throw new Invalid(RESET_INVALID_MESSAGE, { form: [RESET_INVALID_MESSAGE] });
    const user = await tx.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)).get();
    if (!user || user.deletedAt) throw new NotFound(RESET_INVALID_MESSAGE);
    await tx
      .insert(passwords)
      .values({ userId, hash: next })
      .onConflictDoUpdate({ target: passwords.userId, set: { hash: next, updatedAt: now } });
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    return { userId };
  });
}
