import { TZ_COOKIE_NAME } from '~/utils/time-zone';
import { useNonce } from './nonce';

/**
 * Stores the browser's time zone in the `tz` cookie so day streaks follow the user's calendar day.
 * A tiny inline script (runs before hydration, no bundle cost); without JavaScript the UTC day is used.
 */
const script = `try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z&&document.cookie.indexOf('${TZ_COOKIE_NAME}='+encodeURIComponent(z))<0)document.cookie='${TZ_COOKIE_NAME}='+encodeURIComponent(z)+';path=/;max-age=31536000;samesite=lax'}catch(e){}`;

export function TimeZoneCookie() {
  const nonce = useNonce();
  // suppressHydrationWarning: the browser hides the nonce, so the client renders it as ''
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />;
}
