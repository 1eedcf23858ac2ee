/**
 * Page arithmetic for a list shown one page at a time (browser-safe). The page asked for is
 * clamped to the pages there are, so a link to page 9 of a list that shrank to 3 shows page 3.
 */

/** At most this many numbered page links are shown (spec §2: admin tables). */
export const PAGE_LINKS = 5;

export interface Paging {
  total: number;
  size: number;
  /** the page shown: the one asked for, within 1..pageCount */
  page: number;
  /** at least 1: an empty list is one empty page */
  pageCount: number;
  /** for the query: skip `offset` rows, take `limit` */
  offset: number;
  limit: number;
  /** 1-based positions of the first and last row shown (both 0 when there are none) */
  from: number;
  to: number;
  /** the numbered links: up to PAGE_LINKS pages around the current one */
  pages: number[];
  first: number;
  last: number;
  prev: number | null;
  next: number | null;
}

const wholeAtLeast = (n: number, min: number) => (Number.isFinite(n) ? Math.max(min, Math.floor(n)) : min);

export function paginate({ total, page, size }: { total: number; page: number; size: number }, links = PAGE_LINKS): Paging {
  const rows = wholeAtLeast(total, 0);
  const perPage = wholeAtLeast(size, 1);
  const pageCount = Math.max(1, Math.ceil(rows / perPage));
  const current = Math.min(pageCount, wholeAtLeast(page, 1));
  const offset = (current - 1) * perPage;

  // the window sits centred on the current page, and slides in at either end of the list
  const width = Math.min(wholeAtLeast(links, 1), pageCount);
  const start = Math.min(Math.max(1, current - Math.floor((width - 1) / 2)), pageCount - width + 1);
  const pages = Array.from({ length: width }, (_, i) => start + i);

  return {
    total: rows,
    size: perPage,
    page: current,
    pageCount,
    offset,
    limit: perPage,
    from: rows === 0 ? 0 : offset + 1,
    to: Math.min(rows, offset + perPage),
    pages,
    first: 1,
    last: pageCount,
    prev: current > 1 ? current - 1 : null,
    next: current < pageCount ? current + 1 : null,
  };
}

/**
 * A list's page as the URL asks for it, or its last page when the list has fewer pages (a page
 * number from an old link, or rows deleted meanwhile): one query, and a second only then.
 * `fetch` reads one slice of the list and says how many rows the whole list has.
 */
export async function fetchPage<T extends { total: number }>(
  { page, size }: { page: number; size: number },
  fetch: (slice: { limit: number; offset: number }) => Promise<T>,
): Promise<{ list: T; paging: Paging }> {
  const asked = paginate({ total: Number.MAX_SAFE_INTEGER, page, size });
  let list = await fetch({ limit: asked.limit, offset: asked.offset });
  let paging = paginate({ total: list.total, page, size });
  if (paging.offset !== asked.offset) {
    list = await fetch({ limit: paging.limit, offset: paging.offset });
    paging = paginate({ total: list.total, page: paging.page, size });
  }
  return { list, paging };
}
