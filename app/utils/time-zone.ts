/** Name of the cookie that carries the browser's IANA time zone (browser-safe constant). */
export const TZ_COOKIE_NAME = 'tz';
