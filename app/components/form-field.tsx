import type { FieldMetadata } from '@conform-to/react';
import { getInputProps } from '@conform-to/react';

/** A labelled input with its error under it (accessible: the error is the input's description). */
export function TextField({
  label,
  field,
  type = 'text',
  autoComplete,
  hint,
  autoFocus,
}: {
  label: string;
  field: FieldMetadata<string | undefined>;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  hint?: string;
  autoFocus?: boolean;
}) {
  const { key, ...inputProps } = getInputProps(field, { type, ariaDescribedBy: hint ? `${field.id}-hint` : undefined });
  return (
    <div>
      <label htmlFor={field.id} className="label">
        {label}
      </label>
      <input key={key} {...inputProps} className="input" autoComplete={autoComplete} autoFocus={autoFocus} />
      {hint ? (
        <p id={`${field.id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError field={field} />
    </div>
  );
}

/** A field's first error, announced, and referenced by the input's aria-describedby (conform's errorId). */
export function FieldError({ field }: { field: { errors?: string[]; errorId: string } }) {
  if (!field.errors?.length) return null;
  return (
    <p id={field.errorId} className="field-error" role="alert">
      {field.errors[0]}
    </p>
  );
}

export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}
