import { TZ_COOKIE_NAME, isValidTimeZone } from '~/utils/time-zone';

/**
 * The user's time zone from the `tz` cookie (set by a tiny inline script, <TimeZoneCookie>), or
 * null (→ UTC). Services count calendar days (streaks, activity) in it.
 */
export function timeZoneFromRequest(request: Request): string | null {
  const header = request.headers.get('Cookie') ?? '';
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === TZ_COOKIE_NAME) {
      let value = rest.join('=');
      try {
        value = decodeURIComponent(value);
      } catch {
        return null;
      }
      return isValidTimeZone(value) ? value : null;
    }
  }
  return null;
}
