/** Configuration read from the environment (documented in README.md and .env.example). */
const DEV_SECRET = 'pindex-development-secret-change-me';

export function sessionSecrets(): string[] {
  const raw = process.env.SESSION_SECRET;
  if (!raw) {
    if (process.env.NODE_ENV === 'production' && process.env.PINDEX_ALLOW_DEV_SECRET !== '1') {
      console.warn('SESSION_SECRET is not set: using a development secret. Set it in production.');
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
