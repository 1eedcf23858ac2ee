/**
 * In-memory rate limits (one machine: RateLimiterMemory). Each bucket is a fixed window of
 * `points` attempts per `duration` seconds per key; going over throws TooManyRequests (429).
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequests } from '~/services/errors';

export type RateLimitBucket =
  | 'login-ip'
  | 'login-client'
  | 'login-device'
  | 'login-account'
  | 'signup-ip'
  | 'signup-taken-ip'
  | 'identify-ip'
  | 'reset-ip'
  | 'reset-email'
  | 'password-user'
  | 'comment-user'
  | 'reaction-user';

const SIGN_IN_WAIT = 'Too many sign-in attempts. Please wait a few minutes and try again.';

interface BucketConfig {
  points: number;
  duration: number;
  message: string;
}

const BUCKETS: Record<RateLimitBucket, BucketConfig> = {
  // Per IP is looser than per e-mail: several people may share one address (school, club Wi-Fi).
  'login-ip': { points: 100, duration: 15 * 60, message: SIGN_IN_WAIT },
  // Wrong passwords are held per client and account together, so nobody can lock an owner out:
  // an address+e-mail pair gets 5 tries, then waits 30 s, 60 s, 120 s ... (recordLoginFailure).
  'login-client': { points: 5, duration: 15 * 60, message: SIGN_IN_WAIT },
  // A browser the account signed in from before (a signed device cookie) has its own tries.
  'login-device': { points: 10, duration: 15 * 60, message: SIGN_IN_WAIT },
  // All clients the account never signed in from, together: a guess spread over many addresses.
  'login-account': { points: 50, duration: 15 * 60, message: SIGN_IN_WAIT },
  'signup-ip': { points: 30, duration: 10 * 60, message: 'Too many accounts created from this network. Please try again later.' },
  // Sign-ups refused for a taken address: the only answer that tells an address has an account,
  // so a client gets few of them.
  'signup-taken-ip': { points: 5, duration: 60 * 60, message: 'Too many accounts created from this network. Please try again later.' },
  // forgotten-password links: a few per address (each is an e-mail to someone), more per network
  'reset-ip': { points: 20, duration: 60 * 60, message: 'Too many password reset requests. Please try again later.' },
  'reset-email': { points: 5, duration: 60 * 60, message: 'Too many password reset requests. Please try again later.' },
  // wrong current passwords on the profile page (change password, e-mail, delete account)
  'password-user': { points: 10, duration: 15 * 60, message: 'Too many wrong passwords. Please wait a few minutes and try again.' },
  // comments and reactions on pin pages, per signed-in user
  'comment-user': { points: 10, duration: 60, message: 'You are commenting too fast. Please wait a minute and try again.' },
  'reaction-user': { points: 60, duration: 60, message: 'Too many reactions. Please wait a minute and try again.' },
  'identify-ip': { points: 30, duration: 60, message: 'Too many identification requests. Please wait a moment and try again.' },
};

const DEFAULT_BUCKET: BucketConfig = {
  points: 60,
  duration: 60,
  message: 'Too many requests. Please wait a moment and try again.',
};

const limiters = new Map<string, RateLimiterMemory>();

function limiterFor(bucket: string): { limiter: RateLimiterMemory; config: BucketConfig } {
  const config = (BUCKETS as Record<string, BucketConfig>)[bucket] ?? DEFAULT_BUCKET;
  let limiter = limiters.get(bucket);
  if (!limiter) {
    limiter = new RateLimiterMemory({ keyPrefix: bucket, points: config.points, duration: config.duration });
    limiters.set(bucket, limiter);
  }
  return { limiter, config };
}

/** Counts one attempt for `key` in `bucket`; throws TooManyRequests (429, Retry-After) when over. */
export async function consumeRateLimit(bucket: RateLimitBucket | (string & {}), key: string, points = 1): Promise<void> {
  const { limiter, config } = limiterFor(bucket);
  try {
    await limiter.consume(key || 'unknown', points);
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      throw new TooManyRequests(config.message, error.msBeforeNext / 1000);
    }
    throw error;
  }
}

/** Throws TooManyRequests if `key` has already used up `bucket`, without counting an attempt. */
export async function checkRateLimit(bucket: RateLimitBucket | (string & {}), key: string): Promise<void> {
  const { limiter, config } = limiterFor(bucket);
  const res = await limiter.get(key || 'unknown');
  if (res && res.consumedPoints >= config.points) {
    throw new TooManyRequests(config.message, res.msBeforeNext / 1000);
  }
}

/** Forgets the attempts of `key` (e.g. after a successful sign-in for the e-mail bucket). */
export async function resetRateLimit(bucket: RateLimitBucket | (string & {}), key: string): Promise<void> {
  const { limiter } = limiterFor(bucket);
  await limiter.delete(key || 'unknown');
}

// Back-off after a bucket is used up: the first hold lasts BACKOFF_BASE seconds and each further
// failure doubles it, up to BACKOFF_MAX; the count of holds is kept for a day.
const BACKOFF_BASE = 30;
const BACKOFF_MAX = 15 * 60;
let holds = new RateLimiterMemory({ keyPrefix: 'holds', points: 1_000_000, duration: 24 * 60 * 60 });

/**
 * Counts one failure for `key`. Once the bucket is used up, or the key was held before, the key is
 * held with a wait that doubles at each further failure (30 s, 60 s, 120 s ... 15 min).
 */
export async function recordLoginFailure(bucket: RateLimitBucket, key: string): Promise<void> {
  const { limiter, config } = limiterFor(bucket);
  const holdKey = `${bucket}:${key || 'unknown'}`;
  const held = (await holds.get(holdKey))?.consumedPoints ?? 0;
  const res = await limiter.consume(key || 'unknown').catch((error: unknown) => {
    if (error instanceof RateLimiterRes) return error;
    throw error;
  });
  if (res.consumedPoints < config.points && held === 0) return;
  const strike = await holds.consume(holdKey);
  await limiter.block(key || 'unknown', Math.min(BACKOFF_BASE * 2 ** (strike.consumedPoints - 1), BACKOFF_MAX));
}

/** After a right password: the client's failures and holds are forgotten. */
export async function forgetLoginFailures(bucket: RateLimitBucket, key: string): Promise<void> {
  await resetRateLimit(bucket, key);
  await holds.delete(`${bucket}:${key || 'unknown'}`);
}

/** Test hook: drops every counter. */
export function resetAllRateLimits(): void {
  limiters.clear();
  holds = new RateLimiterMemory({ keyPrefix: 'holds', points: 1_000_000, duration: 24 * 60 * 60 });
}
