/**
 * Accounts: create an account, sign in, onboarding, profile, roles and OAuth2 sign-in.
 * Every function takes plain input plus the acting user (or null) and checks authorization itself.
 */
import { and, count, eq, ne, sql } from 'drizzle-orm';
import { hashPassword, verifyPassword } from '~/auth/password.server';
import { db, prepared, transaction, type Db } from '~/db/index.server';
import { oauthConnections, passwords, users, vendors, type Role, type User, type Vendor } from '~/db/schema';
import { LoginSchema, OnboardingSchema, ProfileSchema, SignupSchema } from '~/forms/auth';
import { ROLES, isOneOf } from '~/utils/constants';
import { parseWith } from '~/utils/validation';
import { assertCanChangeRole, assertCanManageRoles, assertKeepsSuperAdmin, assertSignedIn, SELF_CHOSEN_ROLES } from '~/auth/permissions';
import { recordAudit } from './audit.server';
import { Conflict, Forbidden, Invalid, NotFound } from './errors';
import { imageUrl, prepareImage, savePreparedImage } from './images.server';
import { checkRateLimit, consumeRateLimit, forgetLoginFailures, recordLoginFailure } from './rate-limit.server';

/** One message for a wrong e-mail and a wrong password, so neither reveals which accounts exist. */
export const INVALID_LOGIN_MESSAGE = 'Invalid email or password';
export const NICKNAME_TAKEN_MESSAGE = 'This nickname is already taken';
/** A refused sign-up: the same words whether or not the address has an account. */
export const SIGNUP_REFUSED_MESSAGE = 'We could not create an account with these details. If you already have an account, sign in or reset your password.';
export const PROFILE_PICTURE_SIZE = 200;
export const SAME_ROLE_MESSAGE = 'Choose a role other than the current one';

/** The user as the API shows it (no internal billing ids). */
/** A user with their vendor record (null when they never applied): who a signed-in request is. */
export type SessionUser = User & { vendor: Vendor | null };

// every signed-in request reads it (guards.server.ts): one statement, built and prepared once
const userWithVendor = prepared((conn) =>
  conn
    .select({ user: users, vendor: vendors })
    .from(users)
    .leftJoin(vendors, eq(vendors.userId, users.id))
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare(),
);

export async function loadUser(userId: string): Promise<SessionUser | null> {
  const row = await userWithVendor().get({ id: userId });
  // a deleted account is nobody (its sessions went with it; this covers a request in flight)
  if (!row || row.user.deletedAt) return null;
  return { ...row.user, vendor: row.vendor };
}

export type PublicUser = Omit<User, 'stripeCustomerId'> & { vendor: SessionUser['vendor'] };

export function toPublicUser(user: SessionUser): PublicUser {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { stripeCustomerId: _omit, ...rest } = user;
  return rest;
}

/** What a page shows a signed-in user of their own account (the nav, the profile page). */
export function accountFields(user: User) {
  const { id, email, nickname, firstName, lastName, role, profileImageUrl } = user;
  return { id, email, nickname, firstName, lastName, role, profileImageUrl };
}

const byEmail = (email: string) => sql`lower(${users.email}) = ${email.trim().toLowerCase()}`;

function isUniqueViolation(error: unknown, what: 'email' | 'nickname'): boolean {
  const text = String((error as { message?: string })?.message ?? '') + String((error as { cause?: { message?: string } })?.cause?.message ?? '');
  return /UNIQUE constraint failed/i.test(text) && text.includes(what === 'email' ? 'email' : 'nickname');
}

// ---------------------------------------------------------------- accounts

export interface SignupInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/**
 * Creates a local account (role player). The first account on an empty instance becomes
 * super_admin: counted and inserted inside one immediate transaction, so two racing sign-ups
 * cannot both see an empty table.
 *
 * A taken address gets the same form-level refusal as any other refused sign-up, never "this
 * e-mail has an account"; with `ip` (every sign-up from the web), sign-ups are limited per client
 * and a client gets only a few refusals for taken addresses an hour, so the sign-up form cannot
 * be used to list who has an account.
 */
export async function createAccount(input: SignupInput | Record<string, unknown>, opts: { ip?: string } = {}): Promise<User> {
  const data = parseWith(SignupSchema, input);
  if (opts.ip !== undefined) {
    await checkRateLimit('signup-taken-ip', opts.ip);
    await consumeRateLimit('signup-ip', opts.ip);
  }
  const hash = await hashPassword(data.password);
  const refuse = async () => {
    if (opts.ip !== undefined) await consumeRateLimit('signup-taken-ip', opts.ip).catch(() => undefined);
    return new Invalid(SIGNUP_REFUSED_MESSAGE, { form: [SIGNUP_REFUSED_MESSAGE] });
  };
  try {
    return await transaction(async (tx) => {
      const existing = await tx.select({ id: users.id }).from(users).where(byEmail(data.email)).get();
      if (existing) throw await refuse();
      const role = await roleForNewUser(tx);
      const [user] = await tx
        .insert(users)
        .values({ email: data.email, firstName: data.firstName, lastName: data.lastName, role })
        .returning();
      await tx.insert(passwords).values({ userId: user.id, hash });
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'email')) throw await refuse();
    throw error;
  }
}

async function roleForNewUser(tx: Db): Promise<Role> {
  const row = await tx.select({ n: count() }).from(users).get();
  return (row?.n ?? 0) === 0 ? 'super_admin' : 'player';
}

// A real scrypt hash of a random secret: verifying against it costs as much as a real check,
// so an unknown e-mail answers as slowly as a wrong password.
let dummyHash: Promise<string> | null = null;
function getDummyHash() {
  dummyHash ??= hashPassword(`no-such-account-${Math.random()}`);
  return dummyHash;
}

/** The browser a sign-in comes from: its signed device cookie's id and the accounts it signed in. */
export interface SignInDevice {
  id: string;
  userIds: string[];
}

/**
 * Checks an e-mail and password. Wrong passwords are held per client and account together, so
 * that nobody can lock an owner out (see rate-limit.server.ts):
 * - from a browser this account signed in from before (its device cookie), that device's tries;
 * - from any other client, that address and e-mail's tries with back-off, plus one shared
 *   allowance for all such clients of the account (a guess spread over many addresses);
 * - and per address over all e-mails (password spraying).
 */
export async function verifyLogin(
  input: { email: string; password: string } | Record<string, unknown>,
  opts: { ip: string; device?: SignInDevice | null },
): Promise<User> {
  const data = parseWith(LoginSchema, input);
  const email = data.email.trim().toLowerCase();
  await checkRateLimit('login-ip', opts.ip);
  const user = await db().select().from(users).where(byEmail(email)).get();
  const trusted = user && opts.device?.userIds.includes(user.id) ? opts.device : null;
  const clientKey = trusted ? `${trusted.id}|${user!.id}` : `${opts.ip}|${email}`;
  const clientBucket = trusted ? 'login-device' : 'login-client';
  await checkRateLimit(clientBucket, clientKey);
  if (!trusted) await checkRateLimit('login-account', email);
  const stored = user ? await db().select({ hash: passwords.hash }).from(passwords).where(eq(passwords.userId, user.id)).get() : undefined;
  const ok = await verifyPassword(data.password, stored?.hash ?? (await getDummyHash()));
  if (!user || !stored || !ok) {
    await consumeRateLimit('login-ip', opts.ip).catch(() => undefined);
    await recordLoginFailure(clientBucket, clientKey);
    if (!trusted) await consumeRateLimit('login-account', email).catch(() => undefined);
    throw new Invalid(INVALID_LOGIN_MESSAGE, { form: [INVALID_LOGIN_MESSAGE] });
  }
  await forgetLoginFailures(clientBucket, clientKey);
  return user;
}

export async function getUserById(id: string): Promise<SessionUser> {
  const user = await loadUser(id);
  if (!user) throw new NotFound('User not found');
  return user;
}

// ---------------------------------------------------------------- onboarding and profile

/** Default display name for onboarding: first and last name, else the e-mail's local part. */
export function defaultNickname(user: Pick<User, 'firstName' | 'lastName' | 'email'>): string {
  const full = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return (full || user.email.split('@')[0]).slice(0, 50);
}

async function assertNicknameFree(tx: Db, nickname: string, userId: string) {
  const taken = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.nickname}) = ${nickname.toLowerCase()}`, ne(users.id, userId)))
    .get();
  if (taken) throw new Conflict(NICKNAME_TAKEN_MESSAGE, { nickname: [NICKNAME_TAKEN_MESSAGE] });
}

async function setNickname(userId: string, nickname: string, extra: Partial<typeof users.$inferInsert> = {}): Promise<void> {
  try {
    await transaction(async (tx) => {
      await assertNicknameFree(tx, nickname, userId);
      await tx.update(users).set({ nickname, ...extra }).where(eq(users.id, userId));
    });
  } catch (error) {
    if (isUniqueViolation(error, 'nickname')) throw new Conflict(NICKNAME_TAKEN_MESSAGE, { nickname: [NICKNAME_TAKEN_MESSAGE] });
    throw error;
  }
}

/**
 * Finishes onboarding: display name (2-50 characters, unique without regard to case) and role
 * (player, assistant_coach or manager). A user who already holds a role given by someone else
 * (vendor, admin, super_admin) keeps it: onboarding never lowers a role.
 */
export async function completeOnboarding(actor: SessionUser | null, input: Record<string, unknown>): Promise<SessionUser> {
  assertSignedIn(actor);
  const data = parseWith(OnboardingSchema, input);
  // The role is self-chosen once: after onboarding (or for a role given by an admin) a repeated call
  // must not let a user undo a demotion or promote themselves to manager.
  const keepsRole = actor.isOnboardingComplete || !(SELF_CHOSEN_ROLES as readonly Role[]).includes(actor.role);
  await setNickname(actor.id, data.nickname, {
    isOnboardingComplete: true,
    ...(keepsRole ? {} : { role: data.role }),
  });
  return getUserById(actor.id);
}

export async function updateNickname(actor: SessionUser | null, input: Record<string, unknown>): Promise<SessionUser> {
  assertSignedIn(actor);
  const { nickname } = parseWith(ProfileSchema, input);
  await setNickname(actor.id, nickname);
  return getUserById(actor.id);
}

/**
 * Stores a new profile picture: type sniffed from the bytes (415 'Invalid file type'), at most
 * 5 MB (413 'File too large'), centre-cropped to 200x200 (the browser's crop dialog already sends
 * 200x200; without JavaScript the server does the crop).
 */
export async function updateProfilePicture(actor: SessionUser | null, file: Blob | Buffer | string | null | undefined): Promise<SessionUser> {
  assertSignedIn(actor);
  if (file == null || (typeof file === 'string' && !file.trim()) || (file instanceof Blob && file.size === 0)) {
    throw new Invalid('Please select an image file.', { profilePicture: ['Please select an image file.'] });
  }
  const prepared = await prepareImage(file, { square: PROFILE_PICTURE_SIZE });
  await transaction(async (tx) => {
    const stored = await savePreparedImage(tx, prepared);
    await tx.update(users).set({ profileImageUrl: imageUrl(stored.id) }).where(eq(users.id, actor.id));
  });
  return getUserById(actor.id);
}

// ---------------------------------------------------------------- roles

/**
 * Role change rules: super_admin may change anyone to any role; admin may change only users who
 * are not admin or super_admin, and only to roles other than admin and super_admin; others
 * cannot. The last super_admin cannot be demoted (the instance would have no one to manage it).
 */
export async function changeUserRole(actor: SessionUser | null, targetId: string, role: unknown): Promise<User> {
  assertCanManageRoles(actor);
  if (!isOneOf(ROLES, role)) {
    throw new Invalid('Choose a valid role', { role: ['Choose a valid role'] });
  }
  const newRole: Role = role;
  return transaction(async (tx) => {
    const target = await tx.select().from(users).where(eq(users.id, targetId)).get();
    if (!target) throw new NotFound('User not found');
    assertCanChangeRole(actor, target, newRole);
    if (target.role === newRole) throw new Invalid(SAME_ROLE_MESSAGE, { role: [SAME_ROLE_MESSAGE] });
    await assertNotLastSuperAdmin(tx, target, newRole);
    const [updated] = await tx.update(users).set({ role: newRole }).where(eq(users.id, targetId)).returning();
    await recordAudit(tx, {
      actor,
      action: 'user.role_change',
      targetType: 'user',
      targetId,
      details: { email: target.email, before: { role: target.role }, after: { role: newRole } },
    });
    return updated;
  });
}

async function assertNotLastSuperAdmin(tx: Db, target: User, newRole: Role) {
  if (target.role !== 'super_admin' || newRole === 'super_admin') return;
  const row = await tx.select({ n: count() }).from(users).where(eq(users.role, 'super_admin')).get();
  assertKeepsSuperAdmin(target, newRole, row?.n ?? 0);
}

/** Command-line role change (the operator of the machine is trusted): by e-mail. */
export async function setRoleByEmail(email: string, role: string): Promise<{ user: User; previous: Role }> {
  if (!isOneOf(ROLES, role)) {
    throw new Invalid(`Unknown role "${role}". Roles: ${ROLES.join(', ')}`);
  }
  return transaction(async (tx) => {
    const target = await tx.select().from(users).where(byEmail(email)).get();
    if (!target) throw new NotFound(`No user with e-mail ${email}`);
    await assertNotLastSuperAdmin(tx, target, role);
    const [user] = await tx.update(users).set({ role: role as Role }).where(eq(users.id, target.id)).returning();
    await recordAudit(tx, {
      actor: null,
      action: 'user.role_change',
      targetType: 'user',
      targetId: target.id,
      details: { email: target.email, before: { role: target.role }, after: { role }, via: 'cli' },
    });
    return { user, previous: target.role };
  });
}

// ---------------------------------------------------------------- OAuth2 / OpenID Connect

export interface OAuthProfile {
  provider: string;
  providerUserId: string;
  email: string | null;
  emailVerified: boolean;
  firstName?: string | null;
  lastName?: string | null;
}

/**
 * The user for an OAuth2 identity: the one already linked, else the account with the same
 * VERIFIED e-mail (linked now), else a new account (first on an empty instance: super_admin).
 */
export async function findOrCreateOAuthUser(profile: OAuthProfile): Promise<User> {
  if (!profile.providerUserId) throw new Invalid('The sign-in provider did not say who you are.');
  return transaction(async (tx) => {
    const linked = await tx
      .select({ user: users })
      .from(oauthConnections)
      .innerJoin(users, eq(users.id, oauthConnections.userId))
      .where(and(eq(oauthConnections.provider, profile.provider), eq(oauthConnections.providerUserId, profile.providerUserId)))
      .get();
    if (linked) return linked.user;
    const email = profile.email?.trim().toLowerCase();
    if (!email || !profile.emailVerified) {
      throw new Forbidden('Your account at the sign-in provider has no verified e-mail address.');
    }
    let user = await tx.select().from(users).where(byEmail(email)).get();
    if (!user) {
      const role = await roleForNewUser(tx);
      [user] = await tx
        .insert(users)
        .values({ email, firstName: profile.firstName?.trim() || null, lastName: profile.lastName?.trim() || null, role })
        .returning();
    }
    await tx.insert(oauthConnections).values({ userId: user.id, provider: profile.provider, providerUserId: profile.providerUserId });
    return user;
  });
}
