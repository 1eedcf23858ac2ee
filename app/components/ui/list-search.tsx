import { Form, useLocation, useSubmit } from '@remix-run/react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { listQueryParams, type ListQueryState } from '~/utils/list-state';
import { Button } from './button';
import { HiddenFields } from './hidden-fields';

export interface ListSearchProps {
  /** the list's state: the search starts from it and keeps its sort, size and other filters */
  query: ListQueryState;
  label?: string;
  placeholder?: string;
  /** how long typing pauses before the list is searched (spec §2: 300 ms; teams 500 ms) */
  debounceMs?: number;
  /** filter controls inside the same form (e.g. a role <select>) */
  children?: ReactNode;
  /** the names of those controls, so the state they hold is not also sent hidden */
  controls?: string[];
  /** the list's path (default: this page's) */
  pathname?: string;
  className?: string;
}

/**
 * The search box of a list page: a GET form, so searching works without JavaScript (the Search
 * button); with it, the list is searched as the reader types, once typing pauses. A new search
 * starts at page 1 and keeps the sort, the page size and the filters not in the form.
 */
export function ListSearch({ query, label = 'Search', placeholder, debounceMs = 300, children, controls = [], pathname: listPath, className }: ListSearchProps) {
  const location = useLocation();
  const submit = useSubmit();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const pathname = listPath ?? location.pathname;

  const kept = listQueryParams(query, { page: 1 });
  for (const name of ['q', 'page', ...controls]) kept.delete(name);

  // the list moved on without this box (a Clear link, Back): show its search, unless the reader is typing
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = query.q;
  }, [query.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <Form method="get" action={pathname} role="search" className={className ?? 'flex flex-wrap items-end gap-3'}>
      <div className="min-w-0 flex-1 basis-48">
        <label htmlFor={id} className="label">
          {label}
        </label>
        <input
          ref={input}
          id={id}
          type="search"
          name="q"
          defaultValue={query.q}
          placeholder={placeholder}
          maxLength={200}
          className="input"
          onChange={(event) => {
            const form = event.currentTarget.form;
            clearTimeout(timer.current);
            // each pause replaces the last search in history, so Back leaves the list
            timer.current = setTimeout(() => form && submit(form, { replace: true, preventScrollReset: true }), debounceMs);
          }}
        />
      </div>
      {children}
      <HiddenFields fields={kept} />
      <Button variant="primary">Search</Button>
    </Form>
  );
}
