import type { IdentificationResult } from '~/types/identification';

/**
 * The near-identical pins of an ambiguous identification (the ones the user chooses among), out of
 * its similar pins: those flagged `nearIdentical`, or all of them for an answer stored before the
 * flag was kept.
 */
export function nearIdenticalOf<T extends { nearIdentical?: boolean }>(similar: T[]): T[] {
  return similar.some((s) => s.nearIdentical != null) ? similar.filter((s) => s.nearIdentical) : similar;
}

/** The title of an identification's result. */
export function headline(result: IdentificationResult): string {
  if (result.identified && result.pin) return 'Pin Identified!';
  if (result.outcome === 'ambiguous') return 'Which one is yours?';
  return 'No Match Found';
}
