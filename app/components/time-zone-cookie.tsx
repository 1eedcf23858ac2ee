import { TZ_COOKIE_NAME } from '~/utils/time-zone';

/**
 * Stores the browser's time zone in the `tz` cookie so day streaks follow the user's calendar day.
 * A tiny inline script (runs before hydration, no bundle cost); without JavaScript the UTC day is used.
 */
const script = `try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z&&document.cookie.indexOf('${TZ_COOKIE_NAME}='+encodeURIComponent(z))<0)document.cookie='${TZ_COOKIE_NAME}='+encodeURIComponent(z)+';path=/;max-age=31536000;samesite=lax'}catch(e){}`;

export function TimeZoneCookie() {
  return <script dangerouslySetInnerHTML={{ __html: script }} />;
}
