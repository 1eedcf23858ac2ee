/**
 * A list's state as links and forms use it, in the browser too: its types and the helpers that
 * write it back into a URL. Reading a URL into that state takes zod (`~/utils/list-query`); this
 * module does not import it, so a page whose links need only these helpers does not load zod.
 */

export const SORT_DIRS = ['asc', 'desc'] as const;
export type SortDir = (typeof SORT_DIRS)[number];

/** A filter takes one of a list of values (an enumeration), a record id, or a year (4 digits). */
export type FilterSpec = readonly [string, ...string[]] | 'id' | 'year';
type FilterValue<T> = T extends readonly (infer V)[] ? V : string;
export type ListFilters<F> = { [K in keyof F]?: FilterValue<F[K]> };
/** A list with no declared sorts has no sort (and no direction) in its state. */
type SortField<S extends string> = [S] extends [never] ? undefined : S;
type DirField<S extends string> = [S] extends [never] ? undefined : SortDir;

export interface ListQueryOptions<F, S extends string> {
  /** filter name -> the values it takes (or 'id'); names must not be one of the reserved keys */
  filters?: F;
  /** the keys the list can be sorted by (column keys); the first is the default unless `defaultSort` */
  sorts?: readonly S[];
  defaultSort?: NoInfer<S>;
  /** the default sort's direction (other sorts start ascending unless `sortDirs` says otherwise) */
  defaultDir?: SortDir;
  /** the direction a sort starts in when the URL names none (e.g. `{ value: 'desc' }`: highest first) */
  sortDirs?: Partial<Record<NoInfer<S>, SortDir>>;
  /** the page sizes a reader may choose; the first is the default unless `defaultSize` */
  sizes?: readonly number[];
  defaultSize?: number;
  /** longer searches are cut to this many characters (default 200) */
  maxSearch?: number;
  /** a page beyond this is read as page 1 (default 10,000) */
  maxPage?: number;
}

export interface ListQuery<F = Record<string, FilterSpec>, S extends string = string> {
  q: string;
  filters: ListFilters<F>;
  sort: SortField<S>;
  dir: DirField<S>;
  page: number;
  size: number;
  /** the list's defaults, so that links written from this state (also in the browser) leave them out */
  defaults: { sort: SortField<S>; dir: DirField<S>; size: number; sortDirs?: Record<string, SortDir> };
}

/**
 * What links and forms need of a list's state. Loader data arrives in the browser as JSON, whose
 * type is looser than ListQuery (undefined fields become optional), so helpers accept this shape.
 */
export interface ListQueryState {
  q: string;
  filters: { [name: string]: string | undefined };
  sort?: string;
  dir?: SortDir;
  page: number;
  size: number;
  defaults: { sort?: string; dir?: SortDir; size: number; sortDirs?: Record<string, SortDir> };
}

export type ListQueryChanges<Q extends ListQueryState> = {
  q?: string;
  filters?: Partial<Q['filters']>;
  sort?: NonNullable<Q['sort']>;
  dir?: SortDir;
  page?: number;
  size?: number;
};

export const DEFAULT_PAGE_SIZE = 20;

/**
 * The direction a sort has when the URL names none: the list's default direction for its default
 * sort (e.g. newest first), the sort's own (`sortDirs`) for another, else ascending (`?sort=name`
 * reads A to Z).
 */
export function defaultDirFor(sort: string | undefined, defaults: { sort?: string; dir?: SortDir; sortDirs?: Record<string, SortDir> }): SortDir {
  if (sort === defaults.sort) return defaults.dir ?? 'asc';
  return (sort !== undefined ? defaults.sortDirs?.[sort] : undefined) ?? 'asc';
}

/**
 * The URL parameters of a list's state after `changes`, defaults left out. A new search, filter,
 * sort or page size starts again at page 1 (unless `changes` names a page): page 4 of the old
 * results means nothing in the new ones.
 */
export function listQueryParams<Q extends ListQueryState>(query: Q, changes: ListQueryChanges<Q> = {}): URLSearchParams {
  const filters: Record<string, string | undefined> = { ...query.filters, ...changes.filters };
  const next = {
    q: changes.q ?? query.q,
    sort: changes.sort ?? query.sort,
    dir: changes.dir ?? query.dir,
    size: changes.size ?? query.size,
  };
  const reordered =
    next.q.trim() !== query.q ||
    next.sort !== query.sort ||
    next.dir !== query.dir ||
    next.size !== query.size ||
    Object.keys(filters).some((name) => (filters[name] || undefined) !== (query.filters[name] || undefined));
  const page = changes.page ?? (reordered ? 1 : query.page);

  const params = new URLSearchParams();
  if (next.q.trim()) params.set('q', next.q.trim());
  // filters in name order: one state, one URL, however the link was made
  for (const name of Object.keys(filters).sort()) {
    const value = filters[name];
    if (value) params.set(name, value);
  }
  if (next.sort !== undefined && next.sort !== query.defaults.sort) params.set('sort', next.sort);
  if (next.sort !== undefined && next.dir !== undefined && next.dir !== defaultDirFor(next.sort, query.defaults)) params.set('dir', next.dir);
  if (next.size !== query.defaults.size) params.set('size', String(next.size));
  if (page > 1) params.set('page', String(page));
  return params;
}

/** `pathname` with the list's state after `changes` (e.g. `{ page: 3 }` or `{ sort: 'name', dir: 'asc' }`). */
export function listQueryHref<Q extends ListQueryState>(pathname: string, query: Q, changes: ListQueryChanges<Q> = {}): string {
  const search = listQueryParams(query, changes).toString();
  return search ? `${pathname}?${search}` : pathname;
}

/** Whether a search or a filter narrows the list (an empty state then suggests changing them). */
export function isListFiltered(query: ListQueryState): boolean {
  return query.q !== '' || Object.values(query.filters).some((v) => v !== undefined && v !== '');
}
