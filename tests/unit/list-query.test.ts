import { describe, expect, it } from 'vitest';
import { isListFiltered, listQueryHref, listQuerySchema, readListQuery, readDialog } from '~/utils/list-query';

const ROLES = ['player', 'manager', 'admin'] as const;
const users = listQuerySchema({
  filters: { role: ROLES, teamId: 'id' },
  sorts: ['name', 'email', 'createdAt'],
  defaultSort: 'createdAt',
  defaultDir: 'desc',
  sizes: [20, 50, 100],
});

describe('readListQuery', () => {
  it('gives the defaults for an empty URL', () => {
    expect(readListQuery('/admin/users', users)).toEqual({
      q: '',
      filters: {},
      sort: 'createdAt',
      dir: 'desc',
      page: 1,
      size: 20,
      defaults: { sort: 'createdAt', dir: 'desc', size: 20 },
    });
  });

  it('reads every part from a URL, a search string, search params or a posted form', () => {
    const search = '?q=%20casey%20&role=manager&teamId=abc123&sort=name&dir=asc&page=3&size=50';
    const expected = { q: 'casey', filters: { role: 'manager', teamId: 'abc123' }, sort: 'name', dir: 'asc', page: 3, size: 50 };
    expect(readListQuery(new URL(`http://x/admin/users${search}`), users)).toMatchObject(expected);
    expect(readListQuery(search, users)).toMatchObject(expected);
    expect(readListQuery(new URLSearchParams(search), users)).toMatchObject(expected);
    const form = new FormData();
    for (const [k, v] of new URLSearchParams(search)) form.append(k, v);
    expect(readListQuery(form, users)).toMatchObject(expected);
  });

  it('falls back to the defaults for garbage, never throwing', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['?page=0', { page: 1 }],
      ['?page=-4', { page: 1 }],
      ['?page=2.5', { page: 1 }],
      ['?page=abc', { page: 1 }],
      ['?page=', { page: 1 }],
      ['?page=99999999', { page: 1 }],
      ['?page=Infinity', { page: 1 }],
      ['?size=7', { size: 20 }],
      ['?size=1e9', { size: 20 }],
      ['?sort=password', { sort: 'createdAt' }],
      ['?sort=__proto__', { sort: 'createdAt' }],
      ['?dir=sideways', { dir: 'desc' }],
      ['?role=super_admin', { filters: {} }],
      ['?role=', { filters: {} }],
      ['?teamId=a%20b', { filters: {} }],
      ['?teamId=' + 'x'.repeat(65), { filters: {} }],
      ['?filters=role', { filters: {} }],
    ];
    for (const [search, expected] of cases) expect(readListQuery(search, users), search).toMatchObject(expected);
  });

  it('reads a sort without a direction as ascending, the default sort as its own default', () => {
    expect(readListQuery('?sort=name', users)).toMatchObject({ sort: 'name', dir: 'asc' });
    expect(readListQuery('?sort=createdAt', users)).toMatchObject({ sort: 'createdAt', dir: 'desc' });
    expect(readListQuery('?dir=asc', users)).toMatchObject({ sort: 'createdAt', dir: 'asc' });
    expect(readListQuery('?sort=bogus&dir=asc', users)).toMatchObject({ sort: 'createdAt', dir: 'asc' });
  });

  it('trims the search and cuts it to the list’s length', () => {
    const short = listQuerySchema({ maxSearch: 5 });
    expect(readListQuery('?q=%20%20abcdefgh', short).q).toBe('abcde');
    expect(readListQuery('?q=%20%20%20', short).q).toBe('');
  });

  it('counts a repeated key once, the first time', () => {
    expect(readListQuery('?role=admin&role=player&page=2&page=9', users)).toMatchObject({ filters: { role: 'admin' }, page: 2 });
  });

  it('has no sort or direction when the list declares no sorts', () => {
    const plain = listQuerySchema({ filters: { rarity: ['common', 'rare'] }, sizes: [24] });
    expect(readListQuery('?sort=name&dir=desc&size=50', plain)).toEqual({
      q: '',
      filters: {},
      sort: undefined,
      dir: undefined,
      page: 1,
      size: 24,
      defaults: { sort: undefined, dir: undefined, size: 24 },
    });
    expect(listQueryHref('/browse', readListQuery('?rarity=rare&sort=name&dir=desc&page=2', plain))).toBe('/browse?rarity=rare&page=2');
  });

  it('refuses a declaration that cannot work, at once', () => {
    expect(() => listQuerySchema({ filters: { page: ['a'] } })).toThrow(/reserved/);
    expect(() => listQuerySchema({ sorts: ['name'], defaultSort: 'age' as 'name' })).toThrow(/defaultSort/);
    expect(() => listQuerySchema({ sizes: [10, 20], defaultSize: 15 })).toThrow(/defaultSize/);
  });
});

describe('listQueryHref', () => {
  const query = readListQuery('?q=casey&role=manager&sort=name&dir=asc&page=3&size=50', users);

  it('writes nothing for the defaults', () => {
    expect(listQueryHref('/admin/users', readListQuery('', users))).toBe('/admin/users');
    expect(listQueryHref('/admin/users', readListQuery('?sort=createdAt&dir=desc&page=1&size=20&q=', users))).toBe('/admin/users');
  });

  it('round-trips: URL -> query -> the same URL', () => {
    for (const href of [
      '/admin/users?q=casey&role=manager&sort=name&size=50&page=3',
      '/admin/users?sort=email&dir=desc',
      '/admin/users?role=admin&teamId=t1&page=2',
      '/admin/users?dir=asc',
      '/admin/users?q=a+b%26c',
    ]) {
      const read = readListQuery(href, users);
      expect(listQueryHref('/admin/users', read)).toBe(href);
      expect(readListQuery(listQueryHref('/admin/users', read), users)).toEqual(read);
    }
  });

  it('keeps the page when only the page changes', () => {
    expect(listQueryHref('/admin/users', query, { page: 4 })).toBe('/admin/users?q=casey&role=manager&sort=name&size=50&page=4');
    expect(listQueryHref('/admin/users', query, { page: 1 })).toBe('/admin/users?q=casey&role=manager&sort=name&size=50');
  });

  it('goes back to page 1 when the search, a filter, the sort or the size changes', () => {
    expect(listQueryHref('/u', query, { q: 'dana' })).toBe('/u?q=dana&role=manager&sort=name&size=50');
    expect(listQueryHref('/u', query, { filters: { role: 'admin' } })).toBe('/u?q=casey&role=admin&sort=name&size=50');
    expect(listQueryHref('/u', query, { filters: { role: undefined } })).toBe('/u?q=casey&sort=name&size=50');
    expect(listQueryHref('/u', query, { sort: 'email' })).toBe('/u?q=casey&role=manager&sort=email&size=50');
    expect(listQueryHref('/u', query, { dir: 'desc' })).toBe('/u?q=casey&role=manager&sort=name&dir=desc&size=50');
    expect(listQueryHref('/u', query, { size: 20 })).toBe('/u?q=casey&role=manager&sort=name');
    // the same value again is no change: the page stays
    expect(listQueryHref('/u', query, { sort: 'name', filters: { role: 'manager' } })).toBe('/u?q=casey&role=manager&sort=name&size=50&page=3');
    // a page named with the change wins
    expect(listQueryHref('/u', query, { sort: 'email', page: 2 })).toBe('/u?q=casey&role=manager&sort=email&size=50&page=2');
  });

  it('writes filters in name order, however they were added', () => {
    const a = listQueryHref('/u', readListQuery('?teamId=t1', users), { filters: { role: 'admin' } });
    const b = listQueryHref('/u', readListQuery('?role=admin', users), { filters: { teamId: 't1' } });
    expect(a).toBe('/u?role=admin&teamId=t1');
    expect(b).toBe(a);
  });

  it('works on the state as it arrives in the browser (JSON)', () => {
    const fromJson = JSON.parse(JSON.stringify(query)) as typeof query;
    expect(listQueryHref('/u', fromJson, { page: 2 })).toBe(listQueryHref('/u', query, { page: 2 }));
  });
});

describe('isListFiltered', () => {
  it('is true for a search or a filter, not for sort and page', () => {
    expect(isListFiltered(readListQuery('?sort=name&page=2', users))).toBe(false);
    expect(isListFiltered(readListQuery('?q=x', users))).toBe(true);
    expect(isListFiltered(readListQuery('?role=admin', users))).toBe(true);
  });
});

describe('per-sort directions and year filters', () => {
  const pins = listQuerySchema({
    filters: { year: 'year' },
    sorts: ['newest', 'name', 'value'],
    defaultDir: 'desc',
    sortDirs: { value: 'desc' },
  });

  it('a sort starts in its own direction, which stays out of the URL', () => {
    const byValue = readListQuery('?sort=value', pins);
    expect(byValue).toMatchObject({ sort: 'value', dir: 'desc' });
    expect(listQueryHref('/browse', byValue)).toBe('/browse?sort=value');
    expect(listQueryHref('/browse', byValue, { dir: 'asc' })).toBe('/browse?sort=value&dir=asc');
    expect(readListQuery('?sort=name', pins)).toMatchObject({ sort: 'name', dir: 'asc' });
    expect(listQueryHref('/browse', readListQuery('?sort=newest', pins))).toBe('/browse');
  });

  it('reads a four-digit year and drops anything else', () => {
    expect(readListQuery('?year=2024', pins).filters).toEqual({ year: '2024' });
    for (const bad of ['24', '20245', 'abcd', '']) expect(readListQuery(`?year=${bad}`, pins).filters.year).toBeUndefined();
  });
});

describe('readDialog', () => {
  const kinds = ['new', 'edit', 'delete'] as const;
  it("opens one of the page's dialogs, for the row named by id", () => {
    expect(readDialog(new URL('http://x/admin/pins?dialog=edit&id=p1'), kinds)).toEqual({ dialog: 'edit', dialogId: 'p1' });
    expect(readDialog(new URL('http://x/admin/pins?dialog=new'), kinds)).toEqual({ dialog: 'new', dialogId: null });
  });
  it('opens none for a dialog the page does not have, or none asked', () => {
    expect(readDialog(new URL('http://x/admin/pins?dialog=transfer&id=p1'), kinds).dialog).toBeNull();
    expect(readDialog(new URL('http://x/admin/pins'), kinds).dialog).toBeNull();
  });
});
