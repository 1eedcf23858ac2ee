/** Small helpers the admin tables share: the page window of a call and a safe LIKE pattern. */

/** `limit` and `offset` as a call sends them (strings or numbers), clamped; odd values fall back. */
export function pageWindow(limit: unknown, offset: unknown, { fallback, max }: { fallback: number; max: number }) {
  const n = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : typeof v === 'number' ? v : NaN);
  const l = n(limit);
  const o = n(offset);
  return {
    limit: Number.isFinite(l) ? Math.min(max, Math.max(1, Math.floor(l))) : fallback,
    offset: Number.isFinite(o) ? Math.min(10_000_000, Math.max(0, Math.floor(o))) : 0,
  };
}

/** A LIKE pattern matching `search` anywhere (its own % and _ taken literally), or null for none. */
export function likePattern(search: string | null | undefined): string | null {
  const text = typeof search === 'string' ? search.trim().slice(0, 200) : '';
  if (!text) return null;
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
