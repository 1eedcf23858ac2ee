/** Suggestion values the review page shows and the service checks: browser-safe (a `.server` module is empty in the browser). */

/** The longest reason a reviewer may give for rejecting a suggestion. */
export const REJECT_REASON_MAX = 500;
