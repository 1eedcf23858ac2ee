/** Name of the cookie that carries the browser's IANA time zone (browser-safe constant). */
export const TZ_COOKIE_NAME = 'tz';

export function isValidTimeZone(zone: string | null | undefined): zone is string {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
