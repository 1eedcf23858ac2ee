/** Pieces shared by the team pages (/teams and /teams/{id}). */
import type { FieldMetadata } from '@conform-to/react';
import type { ReactNode } from 'react';
import { FieldError } from '~/components/ui/field';

/** A team's logo (its small variant), or its initials on a coloured tile. */
export function TeamLogo({ name, src, size = 56 }: { name: string; src: string | null; size?: number }) {
  if (src) {
    return <img src={src} alt={`${name} logo`} width={size} height={size} loading="lazy" className="shrink-0 rounded-md border border-slate-200 bg-white object-contain" style={{ width: size, height: size }} />;
  }
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');
  return (
    <div
      aria-hidden="true"
      className="flex shrink-0 items-center justify-center rounded-md bg-brand-100 font-bold text-brand-700"
      style={{ width: size, height: size, fontSize: Math.round(size / 2.8) }}
    >
      {initials || '?'}
    </div>
  );
}

/**
 * The failure of a form, titled as the specification's toast ('Error adding player', ...) with the
 * server's message: a toast cannot outlive a page rendered without JavaScript, this can.
 */
export function FormFailure({ title, errors, id }: { title: string; errors?: string[]; id?: string }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      <p className="font-semibold">{title}</p>
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

/** A labelled control with its error under it. */
export function Labelled({ label, field, hint, children }: { label: string; field: FieldMetadata<unknown>; hint?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={field.id} className="label">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${field.id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError field={field} />
    </div>
  );
}

/** 'assistant_coach' -> 'assistant coach' (the specification shows roles with spaces). */
export const roleLabel = (role: string) => role.replace(/_/g, ' ');

export function StatusBadge({ active }: { active: boolean }) {
  return <span className={`badge ${active ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-600'}`}>{active ? 'Active' : 'Inactive'}</span>;
}

export function EmptyNote({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center">
      <p className="font-semibold text-slate-900">{title}</p>
      {children ? <div className="mt-1 text-sm text-slate-600">{children}</div> : null}
    </div>
  );
}
