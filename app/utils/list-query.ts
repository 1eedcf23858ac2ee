/**
 * A list page's state lives in its URL (search, filters, sort, page, page size), so a table works
 * without JavaScript and can be bookmarked. Each list declares what it accepts once, with
 * `listQuerySchema`; `readListQuery` reads a URL (or a posted form) into that state, falling back
 * to the defaults for anything missing or odd (a bad link never errors), and `listQueryHref`
 * writes it back, leaving the defaults out. Browser-safe: no server imports.
 */
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, defaultDirFor, SORT_DIRS, type FilterSpec, type ListQuery, type ListQueryOptions, type SortDir } from './list-state';

export * from './list-state';


export type ListQuerySchema<F, S extends string> = z.ZodType<ListQuery<F, S>, z.ZodTypeDef, unknown>;

/** Keys a list's state uses itself, or that its bulk-action forms post beside it. */
const RESERVED = new Set(['q', 'sort', 'dir', 'page', 'size', 'intent', 'ids', 'scope', 'tab', 'dialog']);
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * The zod schema of one list's URL state. A mistake in the declaration throws at once (when the
 * module loads); a bad value in a URL never does, it falls back to the default.
 */
export function listQuerySchema<const F extends Record<string, FilterSpec> = Record<never, FilterSpec>, const S extends string = never>(
  options: ListQueryOptions<F, S> = {},
): ListQuerySchema<F, S> {
  const filters = (options.filters ?? {}) as Record<string, FilterSpec>;
  const sorts = (options.sorts ?? []) as readonly string[];
  const defaultSort = options.defaultSort ?? sorts[0];
  const defaultDir: SortDir = options.defaultDir ?? 'asc';
  const sizes = options.sizes?.length ? options.sizes : [DEFAULT_PAGE_SIZE];
  const defaultSize = options.defaultSize ?? sizes[0];
  const maxSearch = options.maxSearch ?? 200;
  const maxPage = options.maxPage ?? 10_000;

  for (const name of Object.keys(filters)) {
    if (RESERVED.has(name)) throw new Error(`listQuerySchema: '${name}' is reserved and cannot name a filter`);
  }
  if (defaultSort !== undefined && !sorts.includes(defaultSort)) throw new Error(`listQuerySchema: defaultSort '${defaultSort}' is not one of the sorts`);
  if (!sizes.includes(defaultSize)) throw new Error(`listQuerySchema: defaultSize ${defaultSize} is not one of the sizes`);

  const filterShape: Record<string, z.ZodTypeAny> = {};
  for (const [name, spec] of Object.entries(filters)) {
    filterShape[name] =
      spec === 'id'
        ? z.string().trim().regex(ID_PATTERN).optional().catch(undefined)
        : spec === 'year'
          ? z.string().trim().regex(/^\d{4}$/).optional().catch(undefined)
          : z.enum(spec as [string, ...string[]]).optional().catch(undefined);
  }
  const hasSort = defaultSort !== undefined;
  const shape = {
    q: z
      .string()
      .transform((s) => s.trim().slice(0, maxSearch).trim())
      .catch(''),
    sort: hasSort ? z.enum(sorts as [string, ...string[]]).catch(defaultSort) : z.undefined().catch(undefined),
    dir: hasSort ? z.enum(SORT_DIRS).optional().catch(undefined) : z.undefined().catch(undefined),
    page: z.coerce.number().int().min(1).max(maxPage).catch(1),
    size: z.coerce
      .number()
      .int()
      .refine((n) => sizes.includes(n))
      .catch(defaultSize),
    filters: z.object(filterShape),
  };
  const sortDirs = { ...(options.sortDirs ?? {}) } as Record<string, SortDir>;
  const defaults = { sort: defaultSort, dir: hasSort ? defaultDir : undefined, size: defaultSize, ...(options.sortDirs ? { sortDirs } : {}) };

  return z.preprocess(
    // the filters sit beside the other keys in the URL, and in their own object in the state
    (raw) => {
      const record = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
      return { ...record, filters: record };
    },
    z.object(shape).transform((state) => ({
      ...state,
      dir: hasSort ? (state.dir ?? defaultDirFor(state.sort, defaults)) : undefined,
      defaults: { ...defaults, ...(defaults.sortDirs ? { sortDirs: { ...defaults.sortDirs } } : {}) },
    })),
  ) as unknown as ListQuerySchema<F, S>;
}

/**
 * A list's state from a request URL, a search string ('?q=...'), its search params or a posted form
 * (a bulk action re-reads the query it was shown with). A repeated key counts once, the first time.
 */
export function readListQuery<Q>(source: URL | string | URLSearchParams | FormData, schema: z.ZodType<Q, z.ZodTypeDef, unknown>): Q {
  const params = source instanceof URL ? source.searchParams : typeof source === 'string' ? new URL(source, 'http://localhost').searchParams : source;
  const raw: Record<string, string> = {};
  for (const [key, value] of params.entries()) {
    if (typeof value === 'string' && !(key in raw)) raw[key] = value;
  }
  return schema.parse(raw);
}

/**
 * The dialog a list page's URL opens (`?dialog=edit&id=...`): one of the page's `kinds`, or none
 * for anything else, and the row it is for.
 */
export function readDialog<const K extends string>(url: URL, kinds: readonly K[]): { dialog: K | null; dialogId: string | null } {
  const asked = url.searchParams.get('dialog');
  const dialog = kinds.find((kind) => kind === asked) ?? null;
  return { dialog, dialogId: url.searchParams.get('id') };
}
