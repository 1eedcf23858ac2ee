/** Configuration read from the environment (documented in README.md and .env.example). */
const DEV_SECRET = 'pindex-development-secret-change-me';

export function sessionSecrets(): string[] {
  const raw = process.env.SESSION_SECRET;
  if (!raw) {
    // the server refuses to start like this (app/cli/startup-checks.js); a build run another way
    // must not sign cookies with the secret published here either
    if (process.env.NODE_ENV === 'production' && process.env.PINDEX_ALLOW_DEV_SECRET !== '1') {
      throw new Error('SESSION_SECRET is not set: refusing to sign sessions with the development secret in production.');
    }
    return [DEV_SECRET];
  }
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

/** Cookies are Secure when the site is served over HTTPS (APP_URL https://... or COOKIE_SECURE=1). */
export function secureCookies(): boolean {
  if (process.env.COOKIE_SECURE === '1') return true;
  if (process.env.COOKIE_SECURE === '0') return false;
  return (process.env.APP_URL ?? '').startsWith('https://');
}
