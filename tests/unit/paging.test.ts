import { describe, expect, it } from 'vitest';
import { paginate, fetchPage } from '~/utils/paging';

describe('paginate', () => {
  it('shows an empty list as one empty page', () => {
    expect(paginate({ total: 0, page: 1, size: 20 })).toEqual({
      total: 0,
      size: 20,
      page: 1,
      pageCount: 1,
      offset: 0,
      limit: 20,
      from: 0,
      to: 0,
      pages: [1],
      first: 1,
      last: 1,
      prev: null,
      next: null,
    });
    expect(paginate({ total: 0, page: 7, size: 20 }).page).toBe(1);
  });

  it('has no previous or next page when everything fits on one', () => {
    const p = paginate({ total: 20, page: 1, size: 20 });
    expect(p).toMatchObject({ pageCount: 1, pages: [1], prev: null, next: null, from: 1, to: 20 });
  });

  it('starts a new page one row past a full one', () => {
    expect(paginate({ total: 21, page: 2, size: 20 })).toMatchObject({ pageCount: 2, page: 2, offset: 20, from: 21, to: 21, prev: 1, next: null });
  });

  it('clamps the page asked for to the pages there are', () => {
    expect(paginate({ total: 57, page: 9, size: 20 })).toMatchObject({ page: 3, offset: 40, from: 41, to: 57, last: 3, next: null });
    expect(paginate({ total: 57, page: 0, size: 20 })).toMatchObject({ page: 1, offset: 0, prev: null, next: 2 });
    expect(paginate({ total: 57, page: Number.NaN, size: 20 }).page).toBe(1);
    expect(paginate({ total: 57, page: 2.7, size: 20 }).page).toBe(2);
  });

  it('shows at most 5 page links, centred on the current page', () => {
    const links = (page: number) => paginate({ total: 200, page, size: 20 }).pages;
    expect(links(1)).toEqual([1, 2, 3, 4, 5]);
    expect(links(2)).toEqual([1, 2, 3, 4, 5]);
    expect(links(3)).toEqual([1, 2, 3, 4, 5]);
    expect(links(4)).toEqual([2, 3, 4, 5, 6]);
    expect(links(7)).toEqual([5, 6, 7, 8, 9]);
    expect(links(9)).toEqual([6, 7, 8, 9, 10]);
    expect(links(10)).toEqual([6, 7, 8, 9, 10]);
  });

  it('shows fewer links when there are fewer pages, and as many as asked for', () => {
    expect(paginate({ total: 57, page: 2, size: 20 }).pages).toEqual([1, 2, 3]);
    expect(paginate({ total: 200, page: 5, size: 20 }, 3).pages).toEqual([4, 5, 6]);
    expect(paginate({ total: 200, page: 5, size: 20 }, 4).pages).toEqual([4, 5, 6, 7]);
  });

  it('gives first, last, previous and next in the middle of a list', () => {
    expect(paginate({ total: 1000, page: 25, size: 20 })).toMatchObject({ first: 1, last: 50, prev: 24, next: 26, offset: 480, limit: 20, from: 481, to: 500 });
  });

  it('treats odd sizes and totals as the nearest sensible ones', () => {
    expect(paginate({ total: -5, page: 1, size: 20 })).toMatchObject({ total: 0, pageCount: 1 });
    expect(paginate({ total: 10, page: 1, size: 0 })).toMatchObject({ size: 1, pageCount: 10 });
  });
});

describe('fetchPage', () => {
  const rows = Array.from({ length: 23 }, (_, i) => i + 1);
  const reader = () => {
    const slices: { limit: number; offset: number }[] = [];
    const fetch = async (slice: { limit: number; offset: number }) => {
      slices.push(slice);
      return { total: rows.length, items: rows.slice(slice.offset, slice.offset + slice.limit) };
    };
    return { slices, fetch };
  };

  it('reads the page asked for with one query', async () => {
    const { slices, fetch } = reader();
    const { list, paging } = await fetchPage({ page: 2, size: 10 }, fetch);
    expect(list.items).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(paging).toMatchObject({ page: 2, pageCount: 3, from: 11, to: 20 });
    expect(slices).toEqual([{ limit: 10, offset: 10 }]);
  });

  it('shows the last page for a page past the end, with a second query', async () => {
    const { slices, fetch } = reader();
    const { list, paging } = await fetchPage({ page: 9, size: 10 }, fetch);
    expect(list.items).toEqual([21, 22, 23]);
    expect(paging).toMatchObject({ page: 3, from: 21, to: 23, next: null });
    expect(slices).toEqual([
      { limit: 10, offset: 80 },
      { limit: 10, offset: 20 },
    ]);
  });
});
