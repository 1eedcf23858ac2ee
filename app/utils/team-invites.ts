/** What an unusable invite link says, on its page and in the service's errors: browser-safe (a `.server` module is empty in the browser). */
export const INVITE_EXPIRED = 'This invite link has expired. Ask the team manager for a new one.';
export const INVITE_REVOKED = 'This invite link was revoked. Ask the team manager for a new one.';
export const INVITE_CLAIMED = 'This player is already linked to another account. Ask the team manager for help.';
