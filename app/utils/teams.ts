/**
 * Team values that the team pages show and their forms check (~/forms/teams): browser-safe and
 * zod-free, so a page that shows one does not load zod.
 */

/** The ten positions of spec §5, in the order the form offers them. */
export const POSITIONS = ['Pitcher', 'Catcher', 'First Base', 'Second Base', 'Third Base', 'Shortstop', 'Left Field', 'Center Field', 'Right Field', 'Designated Hitter'] as const;
export type Position = (typeof POSITIONS)[number];

/** What a tournament like Cooperstown expects a player to bring: a new order starts there. */
export const PINS_PER_PLAYER = 125;
