// conform's own helpers would bring the form library to every page that shows a field: these give
// the same props, from conform's field metadata or from ./form-state's
import { getInputProps, getSelectProps, getTextareaProps, type FieldLike } from './form-state';

import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';


type InputType = 'color' | 'date' | 'datetime-local' | 'email' | 'file' | 'month' | 'number' | 'password' | 'search' | 'tel' | 'text' | 'time' | 'url' | 'week';
/** What conform sets from the field: the caller does not pass these. */
type Managed = 'id' | 'name' | 'form' | 'type' | 'defaultValue' | 'defaultChecked' | 'children' | 'className';

interface FieldBase {
  label: ReactNode;
  field: FieldLike;
  /** a hint under the control, read out with it (aria-describedby) */
  description?: ReactNode;
  /** classes of the wrapper (the control always has the `input` style) */
  className?: string;
  controlClassName?: string;
}
type InputFieldProps = FieldBase & { as?: 'input'; type?: InputType } & Omit<InputHTMLAttributes<HTMLInputElement>, Managed>;
type CheckboxFieldProps = FieldBase & { as?: 'input'; type: 'checkbox' } & Omit<InputHTMLAttributes<HTMLInputElement>, Managed>;
type SelectFieldProps = FieldBase & { as: 'select'; children: ReactNode } & Omit<SelectHTMLAttributes<HTMLSelectElement>, Managed>;
type TextareaFieldProps = FieldBase & { as: 'textarea' } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, Managed>;
export type FieldProps = InputFieldProps | CheckboxFieldProps | SelectFieldProps | TextareaFieldProps;

const join = (...classes: (string | undefined)[]) => classes.filter(Boolean).join(' ');

/**
 * The frame of a labelled control: the label above it, an optional description and the field's
 * first error under it. Field uses it; a form that builds its own control (with props it needs to
 * spread itself) wraps that control in it. The control should name `field.descriptionId` in its
 * aria-describedby when a description is given.
 */
export function FieldFrame({ label, field, description, className, children }: { label: ReactNode; field: FieldLike; description?: ReactNode; className?: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={field.id} className="label">
        {label}
      </label>
      {children}
      {description ? (
        <p id={field.descriptionId} className="mt-1 text-xs text-slate-500">
          {description}
        </p>
      ) : null}
      <FieldError field={field} />
    </div>
  );
}

/**
 * A labelled form control bound to a conform field: an input (any text-like type), a checkbox, a
 * select or a textarea, with an optional description and the field's first error under it. The
 * control is described by both (aria-describedby) and marked invalid while the error shows, with
 * JavaScript (conform) and without it (the action's reply rendered by the server).
 */
export function Field(props: FieldProps) {
  const { label, field, description, className, controlClassName, ...control } = props;
  const ariaDescribedBy = description ? field.descriptionId : undefined;
  const hint = description ? (
    <p id={field.descriptionId} className="mt-1 text-xs text-slate-500">
      {description}
    </p>
  ) : null;

  if (control.as === 'select') {
    const { as: _as, children, ...rest } = control;
    const selectProps = getSelectProps(field, { ariaDescribedBy });
    return (
      <FieldFrame label={label} field={field} description={description} className={className}>
        <select {...selectProps} {...rest} className={join('input', controlClassName)}>
          {children}
        </select>
      </FieldFrame>
    );
  }
  if (control.as === 'textarea') {
    const { as: _as, ...rest } = control;
    const textareaProps = getTextareaProps(field, { ariaDescribedBy });
    return (
      <FieldFrame label={label} field={field} description={description} className={className}>
        <textarea {...textareaProps} {...rest} className={join('input', controlClassName)} />
      </FieldFrame>
    );
  }
  if (control.type === 'checkbox') {
    const { as: _as, type, ...rest } = control;
    const inputProps = getInputProps(field, { type, ariaDescribedBy });
    return (
      <div className={className}>
        <label htmlFor={field.id} className="flex items-center gap-2 text-sm text-slate-700">
          <input {...inputProps} {...rest} className={join('h-4 w-4 rounded border-slate-300', controlClassName)} />
          {label}
        </label>
        {hint}
        <FieldError field={field} />
      </div>
    );
  }
  const { as: _as, type = 'text', ...rest } = control;
  const inputProps = getInputProps(field, { type, ariaDescribedBy });
  return (
    <FieldFrame label={label} field={field} description={description} className={className}>
      <input {...inputProps} {...rest} className={join('input', controlClassName)} />
    </FieldFrame>
  );
}

/** A field's first error, announced, and referenced by the control's aria-describedby (conform's errorId). */
export function FieldError({ field }: { field: { errors?: string[]; errorId: string } }) {
  if (!field.errors?.length) return null;
  return (
    <p id={field.errorId} className="field-error" role="alert">
      {field.errors[0]}
    </p>
  );
}

/**
 * The form's own errors (not tied to one field), e.g. 'Invalid email or password'; with a title,
 * the specification's failure toast ('Error adding player') heads them, which a page rendered
 * without JavaScript can show where a toast could not.
 */
export function FormErrors({ errors, id, title }: { errors?: string[]; id?: string; title?: string }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {title ? <p className="font-semibold">{title}</p> : null}
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}
