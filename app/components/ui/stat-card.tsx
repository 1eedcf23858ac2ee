import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { formatCount } from '~/utils/format';

export interface StatCardProps {
  label: ReactNode;
  /** a number is shown with thousands separators; text (e.g. an amount) as it is */
  value: number | string;
  hint?: ReactNode;
  link?: { to: string; label: string };
  /** a test id for the value */
  valueTestId?: string;
}

/**
 * One figure with its label. Cards sit in a `<dl>` (the label is a term, the figure its
 * description), e.g. `<dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">`.
 */
export function StatCard({ label, value, hint, link, valueTestId }: StatCardProps) {
  return (
    <div className="card flex flex-col p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900" data-testid={valueTestId}>
        {typeof value === 'number' ? formatCount(value) : value}
      </dd>
      {hint ? <dd className="text-xs text-slate-500">{hint}</dd> : null}
      {link ? (
        <dd className="mt-auto pt-2 text-sm">
          <Link to={link.to} className="font-semibold text-brand-700 hover:underline">
            {link.label}
          </Link>
        </dd>
      ) : null}
    </div>
  );
}
