import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from './ui/form-state';
import { Form, Link, useNavigation } from '@remix-run/react';
import type { IdentificationResult } from '~/types/identification';
import { MAX_PIN_PHOTOS } from '~/utils/constants';
import { headline, nearIdenticalOf } from '~/utils/identification';
import { AddToCollectionForm } from './add-to-collection';
import { FieldError } from './ui/field';
import { RarityBadge } from './rarity-badge';

type Result = IdentificationResult;

const TIPS = [
  'Lay the pin flat and fill most of the frame with it.',
  'Use even light: avoid direct glare on the metal and enamel.',
  'Hold the phone steady, parallel to the pin, so the text stays sharp.',
  'Photograph one pin at a time on a plain background.',
  'Make sure the team name and year are readable: they tell near-identical pins apart.',
];

export function PhotoTips() {
  return (
    <section className="card p-4" aria-labelledby="tips-heading">
      <h2 id="tips-heading" className="text-base font-semibold text-slate-900">
        Tips for a better photo
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
        {TIPS.map((t) => (
          <li key={t}>{t}</li>
        ))}
      </ul>
    </section>
  );
}

export interface ViewerInfo {
  signedIn: boolean;
  canAddPins: boolean;
}

/** The full result of /identify: photo, outcome, analysis, similar pins, collection and new-pin forms. */
export function IdentificationDetails({
  result,
  viewer,
  collectionResult,
  newPinResult,
  organizations,
}: {
  result: Result;
  viewer: ViewerInfo;
  collectionResult?: unknown;
  newPinResult?: unknown;
  organizations: string[];
}) {
  const ambiguous = !result.identified && result.outcome === 'ambiguous';
  // an ambiguous answer's near-identical pins are the choice; the others are only similar
  const family = ambiguous ? nearIdenticalOf(result.similarPins) : [];
  const chosen = (primary: boolean) => ({ identificationId: result.identificationId, primary });
  const lists: SimilarPinListProps[] = ambiguous
    ? [
        {
          id: 'similar-heading',
          title: 'Choose your pin',
          intro: 'These pins differ only in team name, year or colours. Compare them with yours and pick the one you have.',
          pins: family,
          choose: chosen(true),
        },
        { id: 'others-heading', title: 'Other similar pins', intro: 'Less alike, but yours may be one of these.', pins: result.similarPins.filter((s) => !family.includes(s)), choose: chosen(false) },
      ]
    : result.identified
      ? [{ id: 'similar-heading', title: 'Similar Pins', pins: result.similarPins }]
      : // no match: the closest pins, one of which may be the photographer's own (a photo too blurred,
        // small or glared for the engine to be sure)
        [{ id: 'similar-heading', title: 'Is it one of these?', intro: 'No pin matched with confidence. If yours is one of these, choose it.', pins: result.similarPins, choose: chosen(false) }];
  return (
    <div className="space-y-6" data-testid="identification-result">
      <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]">
        {/* your photo beside the catalogue's picture of the match, so it can be checked by eye */}
        <div className={result.identified && result.pin ? 'grid grid-cols-2 gap-3 self-start md:gap-4' : 'self-start'} data-testid="compared-pictures">
          <figure className="card overflow-hidden">
            <img src={result.imageData} alt="Your photo" className="aspect-square max-h-[28rem] w-full bg-slate-100 object-contain" />
            <figcaption className="px-3 py-2 text-xs text-slate-500">Your photo</figcaption>
          </figure>
          {result.identified && result.pin ? (
            <figure className="card overflow-hidden">
              {result.pin.images[0] ? (
                <img src={result.pin.images[0]} alt={result.pin.name} className="aspect-square max-h-[28rem] w-full bg-white object-contain" />
              ) : (
                <div className="flex aspect-square w-full items-center justify-center bg-slate-50 text-xs text-slate-400">No picture yet</div>
              )}
              <figcaption className="px-3 py-2 text-xs text-slate-500">Catalogue picture</figcaption>
            </figure>
          ) : null}
        </div>
        <div className="space-y-4">
          <section className={`card p-4 ${result.identified ? 'border-green-200 bg-green-50' : 'border-amber-200 bg-amber-50'}`} aria-labelledby="outcome-heading">
            <h2 id="outcome-heading" className="text-xl font-bold text-slate-900">
              {headline(result)}
            </h2>
            {result.identified && result.pin ? (
              <div className="mt-2 space-y-1">
                <p className="text-lg font-semibold">
                  <Link to={`/pins/${result.pin.id}`} className="text-brand-700 hover:underline">
                    {result.pin.name}
                  </Link>
                </p>
                <p className="text-sm text-slate-700">
                  {result.pin.organization?.name}
                  {result.pin.year ? ` · ${result.pin.year}` : ''}
                </p>
                <RarityBadge rarity={result.pin.rarity} />
                <p className="text-sm font-medium text-green-800">{result.confidence}% confidence</p>
              </div>
            ) : null}
            <p className="mt-2 text-sm text-slate-700">{result.message}</p>
            {result.serviceUnavailable ? (
              <p className="mt-2 text-sm text-amber-800" role="status">
                AI Service Temporarily Unavailable
              </p>
            ) : null}
          </section>

          <section className="card p-4" aria-labelledby="analysis-heading">
            <h2 id="analysis-heading" className="text-base font-semibold text-slate-900">
              Analysis
            </h2>
            <dl className="mt-2 space-y-2 text-sm">
              <div>
                <dt className="font-medium text-slate-500">Name</dt>
                <dd className="text-slate-900">{result.analysis.name}</dd>
              </div>
              <div>
                <dt className="font-medium text-slate-500">Description</dt>
                <dd className="text-slate-900">{result.analysis.description}</dd>
              </div>
              {result.analysis.features.length ? (
                <div>
                  <dt className="font-medium text-slate-500">Features</dt>
                  <dd>
                    <ul className="list-disc pl-5 text-slate-900">
                      {result.analysis.features.map((f) => (
                        <li key={f}>{f}</li>
                      ))}
                    </ul>
                  </dd>
                </div>
              ) : null}
              <div>
                <dt className="font-medium text-slate-500">Details</dt>
                <dd className="text-slate-900">{result.analysis.analysis}</dd>
              </div>
              <div>
                <dt className="font-medium text-slate-500">Analysis confidence</dt>
                <dd className="text-slate-900">{result.analysis.confidence}%</dd>
              </div>
            </dl>
          </section>

          {result.identified && result.pin ? <AddToCollectionForm pinId={result.pin.id} signedIn={viewer.signedIn} lastResult={collectionResult} /> : null}
        </div>
      </div>

      {lists.map((list) => (
        <SimilarPinList key={list.id} {...list} />
      ))}

      {!result.identified ? <NewPinSection result={result} viewer={viewer} lastResult={newPinResult} organizations={organizations} /> : null}

      <PhotoTips />
    </div>
  );
}

interface SimilarPinListProps {
  id: string;
  title: string;
  intro?: string;
  pins: Result['similarPins'];
  choose?: { identificationId: string; primary: boolean };
}

/** A list of similar pins; with `choose`, each has a 'This is my pin' button that records the choice. */
function SimilarPinList({ id, title, intro, pins, choose }: SimilarPinListProps) {
  if (!pins.length) return null;
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-xl font-bold text-slate-900">
        {title}
      </h2>
      {intro ? <p className="text-sm text-slate-700">{intro}</p> : null}
      <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {pins.map((s) => (
          <li key={s.pin.id} className="card flex flex-col overflow-hidden" data-testid="similar-pin">
            <Link to={`/pins/${s.pin.id}`} className="block">
              <div className="aspect-square bg-white">
                {s.pin.thumbnail ? (
                  <img src={s.pin.thumbnail} alt={s.pin.name} width={320} height={320} loading="lazy" className="h-full w-full object-contain p-2" />
                ) : null}
              </div>
              <div className="space-y-1 p-3">
                <h3 className="line-clamp-2 text-sm font-semibold text-slate-900">{s.pin.name}</h3>
                {s.pin.organization ? <p className="truncate text-xs text-slate-500">{s.pin.organization.name}</p> : null}
                {s.pin.year ? <p className="text-xs text-slate-500">{s.pin.year}</p> : null}
                <p className="text-xs font-medium text-brand-700">{s.matchScore}% match</p>
              </div>
            </Link>
            {choose ? (
              <Form method="post" className="mt-auto border-t border-slate-100 p-3">
                <input type="hidden" name="intent" value="choosePin" />
                <input type="hidden" name="identificationId" value={choose.identificationId} />
                <input type="hidden" name="pinId" value={s.pin.id} />
                <button type="submit" className={`${choose.primary ? 'btn-primary' : 'btn-secondary'} w-full`} aria-label={`This is my pin: ${s.pin.name}`}>
                  This is my pin
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function NewPinSection({ result, viewer, lastResult, organizations }: { result: Result; viewer: ViewerInfo; lastResult?: unknown; organizations: string[] }) {
  if (!viewer.signedIn) {
    return (
      <section className="card p-4" aria-labelledby="new-pin-heading">
        <h2 id="new-pin-heading" className="text-lg font-semibold text-slate-900">
          Not in our database yet?
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Vendors, team managers and admins can add new pins to the database; any other collector can suggest one for an admin to review. Sign in
          to add or suggest this one.
        </p>
        <a href={`/api/login?redirectTo=${encodeURIComponent(`/identify?result=${result.identificationId}`)}`} className="btn-primary mt-3">
          Sign in to add this pin
        </a>
      </section>
    );
  }
  return (
    <NewPinForm
      photoImageId={result.imageId}
      photoUrl={result.imageData}
      lastResult={lastResult}
      organizations={organizations}
      // a role that may not add pins suggests it: the same form, reviewed by an admin
      suggest={!viewer.canAddPins}
    />
  );
}

/** Spec §5 'New pin': the photo just taken is the first of up to 5. */
function NewPinForm({
  photoImageId,
  photoUrl,
  lastResult,
  organizations,
  suggest,
}: {
  photoImageId: string;
  photoUrl: string;
  lastResult?: unknown;
  organizations: string[];
  suggest: boolean;
}) {
  const intent = suggest ? 'suggestPin' : 'createPin';
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'new-pin',
    lastResult: lastResult as SubmissionResult<string[]> | undefined,
    defaultValue: { totalQuantity: '100' },
  });
  const remaining = MAX_PIN_PHOTOS - 1;
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  const photoErrors = (lastResult as { error?: Record<string, string[] | null> } | undefined)?.error?.images;
  return (
    <section className="card p-4" aria-labelledby="new-pin-heading">
      <h2 id="new-pin-heading" className="text-lg font-semibold text-slate-900">
        {suggest ? 'Suggest this pin' : 'Add this pin to the database'}
      </h2>
      {suggest ? (
        <p className="mt-1 text-sm text-slate-600">
          Only vendors, team managers and admins can add new pins to the database. Suggest it instead: an admin reviews your suggestion, and once
          it is approved the pin is added with you as its contributor and enters your collection. Follow it on{' '}
          <Link to="/suggestions" className="font-medium text-brand-700 hover:underline">
            My Suggestions
          </Link>
          .
        </p>
      ) : (
        <p className="mt-1 text-sm text-slate-600">Your photo becomes the pin&apos;s first photo. The pin is added to your collection as owned, and it can be identified at once.</p>
      )}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="photoImageId" value={photoImageId} />
        <FieldError field={form} />
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label className="label" htmlFor={fields.name.id}>
              Pin name
            </label>
            <input {...getInputProps(fields.name, { type: 'text' })} key={fields.name.key} className="input" />
            <FieldError field={fields.name} />
          </div>
          <div>
            <label className="label" htmlFor={fields.organizationName.id}>
              Organization
            </label>
            <input {...getInputProps(fields.organizationName, { type: 'text' })} key={fields.organizationName.key} list="organization-names" className="input" />
            <datalist id="organization-names">
              {organizations.map((o) => (
                <option key={o} value={o} />
              ))}
            </datalist>
            <FieldError field={fields.organizationName} />
          </div>
        </div>
        <div>
          <label className="label" htmlFor={fields.description.id}>
            Description
          </label>
          <textarea {...getTextareaProps(fields.description)} key={fields.description.key} rows={3} className="input" />
          <FieldError field={fields.description} />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <div>
            <label className="label" htmlFor={fields.totalQuantity.id}>
              Total quantity
            </label>
            <input {...getInputProps(fields.totalQuantity, { type: 'number' })} key={fields.totalQuantity.key} min={1} step={1} className="input" />
            <FieldError field={fields.totalQuantity} />
          </div>
          <div>
            <label className="label" htmlFor={fields.year.id}>
              Year
            </label>
            <input {...getInputProps(fields.year, { type: 'number' })} key={fields.year.key} min={1900} max={new Date().getFullYear()} step={1} className="input" />
            <FieldError field={fields.year} />
          </div>
          <div>
            <label className="label" htmlFor={fields.event.id}>
              Event
            </label>
            <input {...getInputProps(fields.event, { type: 'text' })} key={fields.event.key} className="input" />
            <FieldError field={fields.event} />
          </div>
        </div>
        <div>
          <p className="label">Photos</p>
          <div className="flex items-center gap-3">
            <img src={`${photoUrl}?s=thumb`} alt="Photo 1 (your identification photo)" width={64} height={64} className="h-16 w-16 rounded border border-slate-200 object-cover" />
            <span className="text-sm text-slate-600">Photo 1 of up to {MAX_PIN_PHOTOS}</span>
          </div>
          <label className="label mt-3" htmlFor="new-pin-more-photos">
            More photos (up to {remaining})
          </label>
          <input
            id="new-pin-more-photos"
            name="images"
            type="file"
            accept="image/*"
            multiple
            className="input"
            onChange={(event) => {
              const input = event.currentTarget;
              if (input.files && input.files.length > remaining) {
                window.alert(`You can only add ${remaining} more photo(s). Maximum is ${MAX_PIN_PHOTOS} photos total.`);
                input.value = '';
              }
            }}
          />
          {photoErrors?.length ? <p className="field-error">{photoErrors[0]}</p> : null}
        </div>
        <button type="submit" className="btn-primary" disabled={pending}>
          {suggest ? (pending ? 'Sending...' : 'Suggest This Pin') : pending ? 'Adding pin...' : 'Add Pin to Database'}
        </button>
      </Form>
    </section>
  );
}
