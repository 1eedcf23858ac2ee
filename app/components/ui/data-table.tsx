import { Form, Link, useLocation, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useHydrated } from '~/components/ui/use-hydrated';
import { formatCount } from '~/utils/format';
import { listQueryHref, listQueryParams, type ListQueryState, type SortDir } from '~/utils/list-state';
import { Button, type ButtonVariant } from './button';
import { HiddenFields } from './hidden-fields';

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

export interface BulkAction {
  /** posted as `intent` by the button that runs it */
  intent: string;
  label: string;
  variant?: ButtonVariant;
}

export interface DataTableBulk<Row> {
  actions: BulkAction[];
  /** names a row for its checkbox: 'Select <rowLabel>' */
  rowLabel: (row: Row) => string;
  /** what a row is, one and many, for the selection count: ['pin', 'pins'] */
  noun?: [string, string];
  /** where the form posts (default: this page's action) */
  action?: string;
  /** the name the checked rows' keys are posted under (default 'ids') */
  name?: string;
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
  /** checkboxes and bulk actions: the table becomes a POST form */
  bulk?: DataTableBulk<Row>;
  /** shown instead of the table when there are no rows (EmptyState) */
  empty: ReactNode;
}

const SKELETON_ROWS = 5;
const CELL = 'px-3 py-2 align-middle';

/**
 * A server-rendered table over a list query. Column headers are sort links (aria-sort on the sorted
 * one). With `bulk`, the rows have checkboxes inside a POST form with the bulk-action buttons
 * (`intent`), the checked rows' keys (`ids`) and the list's query as hidden fields; "Select all N
 * matching" posts `scope=all`, so the action can apply to every matching row, with or without
 * JavaScript. With JavaScript, a header checkbox selects the page and the bar counts the selection.
 * While a JavaScript navigation to this list is pending, five skeleton rows stand in for the rows
 * (the server never renders them).
 */
export function DataTable<Row>({ caption, columns, rows, rowKey, query, total, pathname: listPath, bulk, empty }: DataTableProps<Row>) {
  const location = useLocation();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const pathname = listPath ?? location.pathname;
  // a search, sort or page of this list (a GET), not a bulk action posted from it
  const loading = navigation.state === 'loading' && navigation.location.pathname === pathname && (navigation.formMethod ?? 'GET').toUpperCase() === 'GET';

  const formRef = useRef<HTMLFormElement>(null);
  const [selected, setSelected] = useState(0);
  const [allMatching, setAllMatching] = useState(false);
  const firstRows = useRef(rows);

  const recount = useCallback(() => {
    const form = formRef.current;
    if (!form) return;
    const boxes = [...form.querySelectorAll<HTMLInputElement>('input[data-row-select]')];
    const checked = boxes.filter((b) => b.checked).length;
    const page = form.querySelector<HTMLInputElement>('input[data-page-select]');
    if (page) {
      page.checked = checked > 0 && checked === boxes.length;
      page.indeterminate = checked > 0 && checked < boxes.length;
    }
    setSelected(checked);
    setAllMatching(form.querySelector<HTMLInputElement>('input[data-all-matching]')?.checked ?? false);
  }, []);

  // new rows (another page, or the list after a bulk action): the selection starts again; on the
  // first render, count what was checked before the script ran
  useEffect(() => {
    if (rows !== firstRows.current) formRef.current?.reset();
    recount();
  }, [rows, recount]);

  function onChange(event: React.ChangeEvent<HTMLFormElement>) {
    const target = event.target;
    if (!(target instanceof HTMLInputElement)) return;
    const form = event.currentTarget;
    const boxes = form.querySelectorAll<HTMLInputElement>('input[data-row-select]');
    const all = form.querySelector<HTMLInputElement>('input[data-all-matching]');
    if (target.dataset.pageSelect !== undefined || (target.dataset.allMatching !== undefined && target.checked)) {
      boxes.forEach((b) => (b.checked = target.checked));
    }
    // unchecking a row (or the page) narrows the choice from "everything matching" to the rows checked
    if (all && !target.checked && target !== all) all.checked = false;
    recount();
  }

  if (!loading && rows.length === 0) return <>{empty}</>;

  const noun = bulk?.noun ?? ['row', 'rows'];
  const count = allMatching ? total : selected;
  const submittingIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;
  const width = columns.length + (bulk ? 1 : 0);

  const table = (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-busy={loading || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            {bulk ? (
              <th scope="col" className={`${CELL} w-10`}>
                {hydrated ? (
                  <input type="checkbox" data-page-select="" aria-label={`Select all ${formatCount(rows.length)} on this page`} className="h-4 w-4 rounded border-slate-300" />
                ) : (
                  <span className="sr-only">Select</span>
                )}
              </th>
            ) : null}
            {columns.map((column) => (
              <HeaderCell key={column.key} column={column} query={query} pathname={pathname} />
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {loading
            ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <tr key={i} aria-hidden="true" data-skeleton="">
                  {Array.from({ length: width }, (_, j) => (
                    <td key={j} className={`${CELL} py-3 ${j >= (bulk ? 1 : 0) ? (columns[j - (bulk ? 1 : 0)].className ?? '') : ''}`}>
                      <div className={`h-4 animate-pulse rounded bg-slate-200 ${bulk && j === 0 ? 'w-4' : 'w-3/4'}`} />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((row) => {
                const key = rowKey(row);
                return (
                  <tr key={key} className="hover:bg-slate-50">
                    {bulk ? (
                      <td className={`${CELL} w-10`}>
                        <input
                          type="checkbox"
                          name={bulk.name ?? 'ids'}
                          value={key}
                          data-row-select=""
                          aria-label={`Select ${bulk.rowLabel(row)}`}
                          className="h-4 w-4 rounded border-slate-300"
                        />
                      </td>
                    ) : null}
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
                );
              })}
        </tbody>
      </table>
      <p role="status" className="sr-only">
        {loading ? 'Loading...' : ''}
      </p>
    </div>
  );

  if (!bulk) return <div className="card overflow-hidden">{table}</div>;

  return (
    <Form ref={formRef} method="post" action={bulk.action} onChange={onChange} className="card overflow-hidden" preventScrollReset>
      <HiddenFields fields={listQueryParams(query)} />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 p-3">
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
          <input type="checkbox" name="scope" value="all" data-all-matching="" className="h-4 w-4 rounded border-slate-300" />
          Select all {formatCount(total)} matching
        </label>
        <p className="text-sm text-slate-600" aria-live="polite">
          {!hydrated
            ? `Check ${noun[1]}, or all matching, then choose an action.`
            : allMatching
              ? `All ${formatCount(total)} matching ${total === 1 ? noun[0] : noun[1]} selected`
              : count === 0
                ? `No ${noun[1]} selected`
                : `${formatCount(count)} ${count === 1 ? noun[0] : noun[1]} selected`}
        </p>
        <div className="flex flex-wrap gap-2 sm:ml-auto">
          {bulk.actions.map((action) => (
            <Button
              key={action.intent}
              size="sm"
              variant={action.variant ?? 'secondary'}
              name="intent"
              value={action.intent}
              disabled={hydrated && count === 0}
              pending={submittingIntent === action.intent}
            >
              {action.label}
              {hydrated && count > 0 ? ` (${formatCount(count)})` : ''}
            </Button>
          ))}
        </div>
      </div>
      {table}
    </Form>
  );
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
