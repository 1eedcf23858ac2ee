/**
 * The add-to-collection form. It posts to the CURRENT page (hidden intent=addToCollection), whose
 * action calls `handleAddToCollection` (services/collection-form.server.ts). Works without
 * JavaScript; with it too, its action checks it and the page shows the messages in place
 * (ui/form-state: no form library or zod in the browser on the pages that show it).
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from './ui/form-state';
import { Form, Link, useLocation, useNavigation } from '@remix-run/react';
import { FieldError } from './ui/field';
import { TimeZoneCookie } from './time-zone-cookie';
import { CONDITIONS, MAX_COLLECTION_QUANTITY } from '~/utils/constants';

const CONDITION_LABELS: Record<(typeof CONDITIONS)[number], string> = {
  mint: 'Mint',
  excellent: 'Excellent',
  good: 'Good',
  fair: 'Fair',
  poor: 'Poor',
};

const STATUS_OPTIONS = [
  { value: 'owned', label: 'Owned' },
  { value: 'wanted', label: 'Wanted' },
  { value: 'trading', label: 'Trading' },
] as const;

/** The signed-in user's own entry for the pin, when it is in their collection. */
export interface OwnCollectionEntry {
  status: (typeof STATUS_OPTIONS)[number]['value'];
  quantity: number;
  condition: (typeof CONDITIONS)[number];
  tradeable: boolean;
  notes: string | null;
}

/**
 * Without `entry`: 'Add to Collection'. With it (the pin page of a pin you have): 'Your copy' shows
 * the entry and its form changes it to exactly the values shown (intent=updateCollectionEntry),
 * rather than adding to it.
 */
export function AddToCollectionForm(props: { pinId: string; signedIn: boolean; lastResult?: unknown; entry?: OwnCollectionEntry | null }) {
  const { pinId, signedIn, entry } = props;
  const intent = entry ? 'updateCollectionEntry' : 'addToCollection';
  const navigation = useNavigation();
  const location = useLocation();
  const lastResult = props.lastResult as SubmissionResult<string[]> | undefined;
  // the page may render several forms (one per pin): only the one that was posted gets the result
  const mine = lastResult && (lastResult.initialValue as Record<string, unknown> | undefined)?.pinId === pinId ? lastResult : undefined;
  const [form, fields] = useForm({
    id: `${entry ? 'collection-entry' : 'add-to-collection'}-${pinId}`,
    lastResult: mine,
    defaultValue: entry
      ? { pinId, status: entry.status, quantity: String(entry.quantity), condition: entry.condition, tradeable: entry.tradeable ? 'on' : '', notes: entry.notes ?? '' }
      : { pinId, status: 'owned', quantity: '1', condition: 'excellent' },
  });

  if (!signedIn) {
    return (
      <div className="card p-4" data-testid="add-to-collection">
        <p className="text-sm text-slate-700">Keep track of the pins you own, want and trade.</p>
        <a href={`/api/login?redirectTo=${encodeURIComponent(location.pathname + location.search)}`} className="btn-primary mt-3">
          Sign in to collect
        </a>
      </div>
    );
  }

  const pending =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === intent &&
    navigation.formData?.get('pinId') === pinId;

  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="card space-y-3 p-4"
      data-testid={entry ? 'own-copy' : 'add-to-collection'}
      aria-label={entry ? 'Your copy' : 'Add to Collection'}
    >
      {entry ? (
        <>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-base font-semibold text-slate-900">Your copy</h2>
            <Link to={`/collection?tab=${entry.status}`} className="text-sm font-medium text-brand-700 hover:underline">
              View in My Collection
            </Link>
          </div>
          <p className="text-sm text-slate-700" data-testid="own-entry">
            In your collection: <strong>{STATUS_OPTIONS.find((o) => o.value === entry.status)?.label}</strong>, quantity{' '}
            <strong>{entry.quantity}</strong>, condition <strong>{CONDITION_LABELS[entry.condition]}</strong>
            {entry.tradeable ? ', tradeable' : ''}.
          </p>
          <p className="text-xs text-slate-500">Change any of these and save: the entry takes exactly these values.</p>
        </>
      ) : (
        <h2 className="text-base font-semibold text-slate-900">Add to Collection</h2>
      )}
      {/* day streaks follow the collector's calendar day */}
      <TimeZoneCookie />
      <input type="hidden" name="intent" value={intent} />
      <input {...getInputProps(fields.pinId, { type: 'hidden' })} value={pinId} key={fields.pinId.key} />
      <FieldError field={form} />
      <FieldError field={fields.pinId} />
      <div className="grid grid-cols-2 gap-3">
        <div>
          <label className="label" htmlFor={fields.status.id}>
            Status
          </label>
          <select {...getSelectProps(fields.status)} key={fields.status.key} className="input">
            {STATUS_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <FieldError field={fields.status} />
        </div>
        <div>
          <label className="label" htmlFor={fields.quantity.id}>
            Quantity
          </label>
          <input
            {...getInputProps(fields.quantity, { type: 'number' })}
            key={fields.quantity.key}
            min={1}
            max={MAX_COLLECTION_QUANTITY}
            step={1}
            inputMode="numeric"
            className="input"
          />
          <FieldError field={fields.quantity} />
        </div>
        <div>
          <label className="label" htmlFor={fields.condition.id}>
            Condition
          </label>
          <select {...getSelectProps(fields.condition)} key={fields.condition.key} className="input">
            {CONDITIONS.map((c) => (
              <option key={c} value={c}>
                {CONDITION_LABELS[c]}
              </option>
            ))}
          </select>
          <FieldError field={fields.condition} />
        </div>
        <div className="flex items-end pb-2">
          <label className="flex items-center gap-2 text-sm text-slate-700" htmlFor={fields.tradeable.id}>
            <input {...getInputProps(fields.tradeable, { type: 'checkbox' })} key={fields.tradeable.key} className="h-4 w-4 rounded border-slate-300" />
            Tradeable
          </label>
        </div>
      </div>
      <div>
        <label className="label" htmlFor={fields.notes.id}>
          Notes
        </label>
        <textarea {...getTextareaProps(fields.notes)} key={fields.notes.key} rows={2} className="input" placeholder="Where you got it, trades, anything to remember" />
        <FieldError field={fields.notes} />
      </div>
      <button type="submit" className="btn-primary w-full" disabled={pending}>
        {entry ? (pending ? 'Saving...' : 'Save My Copy') : pending ? 'Adding...' : 'Add to Collection'}
      </button>
    </Form>
  );
}
