/**
 * A form's state from the action's last reply, for the forms of the pages that must stay light
 * (pin detail, identify and the add-to-collection form they share). It reads the same reply as
 * conform does (`submission.reply()` on the server: the submitted values and each field's errors)
 * and gives the same ids and props as conform's helpers (`getInputProps` and the rest), so a form
 * moves between the two by changing its import. What it leaves out is conform's validation in the
 * browser: these forms are checked by their action, with JavaScript as without it, and show its
 * messages in place. It loads neither conform (12 KB gzip) nor zod (14 KB).
 */
import { useRef } from 'react';
import type { SubmissionResult } from '@conform-to/react';

export type { SubmissionResult };

type Initial = string | string[] | undefined;

export interface FieldMetadata {
  id: string;
  name: string;
  formId: string;
  errorId: string;
  descriptionId: string;
  errors?: string[];
  initialValue: Initial;
  /** changes when the form is reset, so that React puts the default values back */
  key: string;
}

export interface FormMetadata {
  id: string;
  errorId: string;
  descriptionId: string;
  /** the form's own errors (not tied to a field), e.g. a service's refusal */
  errors?: string[];
  noValidate: true;
}

export interface FormOptions {
  id: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Record<string, unknown>;
}

/** A value as a form holds it: text, 'on' for a ticked box, nothing for an empty one. */
function serialize(value: unknown): Initial {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.map((v) => serialize(v)).filter((v): v is string => typeof v === 'string');
  if (typeof value === 'boolean') return value ? 'on' : undefined;
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** `[form, fields]` as conform's useForm gives them, from the last reply and the default values. */
export function useForm({ id, lastResult, defaultValue = {} }: FormOptions): [FormMetadata, Record<string, FieldMetadata>] {
  // a reply that resets the form (its initialValue is null) remounts the controls
  const resets = useRef<{ result: unknown; count: number }>({ result: undefined, count: 0 });
  if (lastResult && lastResult !== resets.current.result && lastResult.initialValue === null) {
    resets.current = { result: lastResult, count: resets.current.count + 1 };
  }
  const key = String(resets.current.count);
  const submitted = lastResult?.initialValue ?? null;
  const errors = lastResult?.error ?? {};
  const form: FormMetadata = {
    id,
    errorId: `${id}-error`,
    descriptionId: `${id}-description`,
    errors: errors[''] ?? undefined,
    noValidate: true,
  };
  const fields = new Proxy({} as Record<string, FieldMetadata>, {
    get(_target, property) {
      const name = String(property);
      const fieldId = `${id}-${name}`;
      return {
        id: fieldId,
        name,
        formId: id,
        errorId: `${fieldId}-error`,
        descriptionId: `${fieldId}-description`,
        errors: errors[name] ?? undefined,
        initialValue: serialize(submitted ? submitted[name] : defaultValue[name]),
        key,
      } satisfies FieldMetadata;
    },
  });
  return [form, fields];
}

/** What the helpers read of a field: conform's field metadata or this module's. */
export interface FieldLike {
  id: string;
  name: string;
  formId?: string;
  errorId: string;
  descriptionId: string;
  errors?: string[];
  initialValue?: unknown;
  key?: unknown;
}
interface ControlOptions {
  /** ids of descriptions the control is read out with (the error's id is added while it shows) */
  ariaDescribedBy?: string;
  /** false: leave the value to the caller (a controlled input, or a fixed one) */
  value?: boolean | string;
}

const defined = <T extends object>(props: T): T => {
  for (const key of Object.keys(props) as (keyof T)[]) if (props[key] === undefined) delete props[key];
  return props;
};

function controlProps(field: FieldLike, options: ControlOptions) {
  const invalid = field.errors !== undefined && field.errors.length > 0;
  return defined({
    id: field.id,
    name: field.name,
    form: field.formId,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? `${field.errorId} ${options.ariaDescribedBy ?? ''}`.trim() : options.ariaDescribedBy,
  });
}

const text = (value: unknown) => (Array.isArray(value) ? value[0] : value) as string | undefined;

export function getFormProps(form: FormMetadata) {
  return { id: form.id, noValidate: form.noValidate };
}

export function getInputProps(field: FieldLike, options: ControlOptions & { type: string }) {
  const props: ReturnType<typeof controlProps> & { type: string; value?: string; defaultValue?: string; defaultChecked?: boolean } = { ...controlProps(field, options), type: options.type };
  if (options.value === undefined || options.value) {
    if (options.type === 'checkbox' || options.type === 'radio') {
      props.value = typeof options.value === 'string' ? options.value : 'on';
      props.defaultChecked = Array.isArray(field.initialValue) ? field.initialValue.includes(props.value) : field.initialValue === props.value;
    } else if (typeof text(field.initialValue) === 'string') {
      props.defaultValue = text(field.initialValue);
    }
  }
  return props;
}

export function getSelectProps(field: FieldLike, options: ControlOptions = {}) {
  return defined({ ...controlProps(field, options), defaultValue: options.value === false ? undefined : text(field.initialValue) });
}

export function getTextareaProps(field: FieldLike, options: ControlOptions = {}) {
  return defined({ ...controlProps(field, options), defaultValue: options.value === false ? undefined : text(field.initialValue) });
}
