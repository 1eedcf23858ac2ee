import { Link, useLocation, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { listQueryHref, type ListQueryState, type SortDir } from '~/utils/list-state';
import '../admin-kit'; // one chunk with the admin pieces (admin-kit.ts)

export interface DataTableColumn<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** one of the list's sort keys: the header becomes a link that sorts by it */
  sort?: string;
  /** the direction a first click sorts in (default ascending; e.g. newest first for dates) */
  sortFirst?: SortDir;
  /** e.g. 'hidden md:table-cell' to leave a column out on phones */
  className?: string;
  /** the cell names its row (a row header) */
  rowHeader?: boolean;
}

export interface DataTableProps<Row> {
  /** the table's name for screen readers */
  caption: string;
  columns: DataTableColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** the list's state from the URL: sort links and "all matching" keep it */
  query: ListQueryState;
  /** how many rows match the query, on every page */
  total: number;
  /** the list's path (default: this page's) */
  pathname?: string;
  /** false: no card around the table (a bulk form draws it: ./data-table-bulk.tsx) */
  framed?: boolean;
  /** shown instead of the table when there are no rows (EmptyState) */
  empty: ReactNode;
}

const SKELETON_ROWS = 5;
export const CELL = 'px-3 py-2 align-middle';

/**
 * A server-rendered table over a list query. Column headers are sort links (aria-sort on the sorted
 * one). While a JavaScript navigation to this list is pending, five skeleton rows stand in for the
 * rows (the server never renders them). Checkboxes and bulk actions: BulkDataTable
 * (./data-table-bulk.tsx), in a module of its own so that the pages without them do not load it.
 */
export function DataTable<Row>({ caption, columns, rows, rowKey, query, pathname: listPath, framed = true, empty }: DataTableProps<Row>) {
  const location = useLocation();
  const pathname = listPath ?? location.pathname;
  const loading = useListLoading(pathname);

  if (!loading && rows.length === 0) return <>{empty}</>;

  const table = (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-busy={loading || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            {columns.map((column) => (
              <HeaderCell key={column.key} column={column} query={query} pathname={pathname} />
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {loading
            ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <tr key={i} aria-hidden="true" data-skeleton="">
                  {columns.map((column) => (
                    <td key={column.key} className={`${CELL} py-3 ${column.className ?? ''}`}>
                      <div className="h-4 w-3/4 animate-pulse rounded bg-slate-200" />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((row) => (
                <tr key={rowKey(row)} className="hover:bg-slate-50">
                  {columns.map((column) =>
                    column.rowHeader ? (
                      <th key={column.key} scope="row" className={`${CELL} text-left font-medium text-slate-900 ${column.className ?? ''}`}>
                        {column.cell(row)}
                      </th>
                    ) : (
                      <td key={column.key} className={`${CELL} text-slate-700 ${column.className ?? ''}`}>
                        {column.cell(row)}
                      </td>
                    ),
                  )}
                </tr>
              ))}
        </tbody>
      </table>
      <p role="status" className="sr-only">
        {loading ? 'Loading...' : ''}
      </p>
    </div>
  );

  return framed ? <div className="card overflow-hidden">{table}</div> : table;
}

/** Whether a search, sort or page of the list at `pathname` (a GET, not a form posted from it) is loading. */
export function useListLoading(pathname: string): boolean {
  const navigation = useNavigation();
  return navigation.state === 'loading' && navigation.location.pathname === pathname && (navigation.formMethod ?? 'GET').toUpperCase() === 'GET';
}

function HeaderCell<Row>({ column, query, pathname }: { column: DataTableColumn<Row>; query: ListQueryState; pathname: string }) {
  const className = `${CELL} font-semibold ${column.className ?? ''}`;
  if (!column.sort) {
    return (
      <th scope="col" className={className}>
        {column.header}
      </th>
    );
  }
  const active = query.sort === column.sort;
  const dir: SortDir = active ? (query.dir === 'asc' ? 'desc' : 'asc') : (column.sortFirst ?? 'asc');
  return (
    <th scope="col" className={className} aria-sort={active ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
      <Link to={listQueryHref(pathname, query, { sort: column.sort, dir })} preventScrollReset className="inline-flex items-center gap-1 hover:text-slate-900 hover:underline">
        {column.header}
        <span aria-hidden="true" className={active ? 'text-slate-900' : 'text-slate-400'}>
          {active ? (query.dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </Link>
    </th>
  );
}
