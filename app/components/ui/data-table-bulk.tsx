import { Form, useLocation, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useHydrated } from '~/components/ui/use-hydrated';
import { formatCount } from '~/utils/format';
import { listQueryParams } from '~/utils/list-state';
import { Button, type ButtonVariant } from './button';
import { DataTable, useListLoading, type DataTableColumn, type DataTableProps } from './data-table';
import { HiddenFields } from './hidden-fields';

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

/**
 * A DataTable whose rows have checkboxes, inside a POST form with the bulk-action buttons
 * (`intent`), the checked rows' keys (`ids`) and the list's query as hidden fields; "Select all N
 * matching" posts `scope=all`, so the action can apply to every matching row, with or without
 * JavaScript. With JavaScript, a header checkbox selects the page and the bar counts the selection.
 */
export function BulkDataTable<Row>({ bulk, ...props }: DataTableProps<Row> & { bulk: DataTableBulk<Row> }) {
  const { rows, rowKey, query, total, empty } = props;
  const location = useLocation();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const loading = useListLoading(props.pathname ?? location.pathname);

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

  const noun = bulk.noun ?? ['row', 'rows'];
  const count = allMatching ? total : selected;
  const submittingIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;
  const select: DataTableColumn<Row> = {
    key: 'select',
    header: hydrated ? (
      <input type="checkbox" data-page-select="" aria-label={`Select all ${formatCount(rows.length)} on this page`} className="h-4 w-4 rounded border-slate-300" />
    ) : (
      <span className="sr-only">Select</span>
    ),
    cell: (row) => (
      <input type="checkbox" name={bulk.name ?? 'ids'} value={rowKey(row)} data-row-select="" aria-label={`Select ${bulk.rowLabel(row)}`} className="h-4 w-4 rounded border-slate-300" />
    ),
    className: 'w-10',
  };

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
      <DataTable {...props} columns={[select, ...props.columns]} framed={false} />
    </Form>
  );
}
