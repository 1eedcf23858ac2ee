/**
 * The near-identical pins of an ambiguous identification (the ones the user chooses among), out of
 * its similar pins: those flagged `nearIdentical`, or all of them for an answer stored before the
 * flag was kept.
 */
export function nearIdenticalOf<T extends { nearIdentical?: boolean }>(similar: T[]): T[] {
  return similar.some((s) => s.nearIdentical != null) ? similar.filter((s) => s.nearIdentical) : similar;
}
