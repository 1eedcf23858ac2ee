import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { formatCount } from '~/utils/format';
import './kit'; // one chunk with the other small controls (kit.ts)

export interface TabItem {
  key: string;
  label: ReactNode;
  /** shown in a badge after the label */
  count?: number;
  /** the link (default `?tab=<key>`, with `param` for another name) */
  href?: string;
}

export interface TabsProps {
  /** names the navigation for screen readers, e.g. 'Collection lists' */
  label: string;
  items: TabItem[];
  current: string;
  param?: string;
  /** how a count reads (default the number, e.g. n => `${n} pins`) */
  formatCountLabel?: (count: number) => string;
  /** a test id for each count badge */
  countTestId?: (key: string) => string;
  className?: string;
}

/**
 * Tabs that are links: each is a URL (`?tab=`), so they work without JavaScript, can be
 * bookmarked and the server renders only the current one. The current tab has aria-current="page".
 */
export function Tabs({ label, items, current, param = 'tab', formatCountLabel = formatCount, countTestId, className }: TabsProps) {
  return (
    <nav aria-label={label} className={`flex gap-2 overflow-x-auto border-b border-slate-200 ${className ?? ''}`}>
      {items.map((item) => {
        const selected = item.key === current;
        return (
          <Link
            key={item.key}
            to={item.href ?? `?${param}=${encodeURIComponent(item.key)}`}
            preventScrollReset
            aria-current={selected ? 'page' : undefined}
            className={`-mb-px inline-flex shrink-0 items-center gap-2 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-semibold sm:px-4 ${
              selected ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'
            }`}
          >
            {item.label}
            {/* the space keeps the label and the count two words for screen readers */}
            {item.count !== undefined ? ' ' : null}
            {item.count !== undefined ? (
              <span className="badge bg-slate-100 text-slate-700" data-testid={countTestId?.(item.key)}>
                {formatCountLabel(item.count)}
              </span>
            ) : null}
          </Link>
        );
      })}
    </nav>
  );
}
