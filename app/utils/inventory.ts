/** Inventory values the page shows and the service uses: browser-safe (a `.server` module is empty in the browser). */

/** The window of the inventory's "Recent" count, in days. */
export const RECENT_DAYS = 7;
