import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '~/components/ui/form-state';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate, useNavigation } from '@remix-run/react';
import { AddToCollectionForm } from '~/components/add-to-collection';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { Dialog, DialogCancel } from '~/components/ui/dialog';
import { FieldError } from '~/components/ui/field';
import { RarityBadge } from '~/components/rarity-badge';
import { currentYear, MIN_PIN_YEAR } from '~/utils/constants';
import { PinCommunity, type PinCommunityProps } from '~/components/pin-community';
import { formatCount, formatDate, formatMoney } from '~/utils/format';
import { pinPageLoader, pinPageAction } from '~/http/pin-page.server';
import '~/root';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && 'pin' in data && data.pin ? `${data.pin.name} · PinDex` : 'Pin Not Found · PinDex' },
];

export const loader = pinPageLoader;
export const action = pinPageAction;

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { notFound: false }>;

export default function PinDetail() {
  const data = useLoaderData<typeof loader>();
  if (data.notFound) return <PinNotFound />;
  return <PinView data={data} />;
}

function PinNotFound() {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-bold text-slate-900">Pin Not Found</h1>
      <p className="mt-2 text-slate-600">This pin does not exist or was removed from the database.</p>
      <Link to="/" className="btn-primary mt-6">
        Return Home
      </Link>
    </div>
  );
}

function BackButton() {
  const navigate = useNavigate();
  return (
    <Link
      to="/browse"
      className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-slate-900"
      onClick={(e) => {
        // with history, Back returns where the reader came from (a filtered browse page, home)
        const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
        if (idx > 0) {
          e.preventDefault();
          navigate(-1);
        }
      }}
    >
      <span aria-hidden="true">←</span> Back
    </Link>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="rounded-md bg-slate-50 px-3 py-2">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm font-semibold text-slate-900">{children}</dd>
    </div>
  );
}

function PinView({ data }: { data: Loaded }) {
  const { pin, photos, shown } = data;
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const addResult =
    actionData && 'intent' in actionData && (actionData.intent === 'addToCollection' || actionData.intent === 'updateCollectionEntry')
      ? actionData.lastResult
      : undefined;
  const editResult = actionData && 'intent' in actionData && actionData.intent === 'edit' ? (actionData.lastResult as SubmissionResult<string[]>) : undefined;
  const photo = photos[shown];
  const percent = pin.totalQuantity > 0 ? Math.round((pin.availableQuantity / pin.totalQuantity) * 100) : 0;
  const inStock = pin.availableQuantity > 0;
  const here = location.pathname;

  return (
    <article className="space-y-6">
      <BackButton />
      <div className="grid gap-8 lg:grid-cols-2">
        <div className="space-y-3">
          <div className="card flex aspect-square items-center justify-center overflow-hidden bg-white">
            {photo ? (
              <a href={photo.src} title="Open the full-size photo">
                <img src={photo.src} alt={pin.name} width={photo.width} height={photo.height} className="max-h-full w-full object-contain" />
              </a>
            ) : (
              <div className="flex flex-col items-center text-slate-300" role="img" aria-label="No photo yet">
                <svg viewBox="0 0 24 24" width="120" height="120" fill="none" stroke="currentColor" strokeWidth="1.2" aria-hidden="true">
                  <circle cx="12" cy="9" r="6" />
                  <path d="M12 15v7M9 9h6M12 6v6" />
                </svg>
                <span className="mt-2 text-sm text-slate-400">No photo yet</span>
              </div>
            )}
          </div>
          {photos.length > 1 ? (
            <ul className="flex flex-wrap gap-2" aria-label="All photos">
              {photos.map((p, i) => (
                <li key={p.src}>
                  <Link
                    to={`?image=${i}`}
                    preventScrollReset
                    replace
                    aria-label={`Show photo ${i + 1} of ${photos.length}`}
                    aria-current={i === shown ? 'true' : undefined}
                    className={`block h-16 w-16 overflow-hidden rounded-md border-2 bg-white ${i === shown ? 'border-brand-600' : 'border-slate-200'}`}
                  >
                    <img src={p.thumb} alt="" width={64} height={64} loading="lazy" className="h-full w-full object-contain" />
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
        </div>

        <div className="space-y-5">
          <div>
            <div className="flex flex-wrap items-center gap-2">
              <RarityBadge rarity={pin.rarity} />
              {pin.isFeatured ? <span className="badge bg-amber-100 text-amber-800">Featured</span> : null}
            </div>
            <h1 className="mt-2 text-2xl font-bold text-slate-900 sm:text-3xl">{pin.name}</h1>
            {pin.organization ? <p className="mt-1 text-slate-600">{pin.organization.name}</p> : null}
            {pin.team ? <p className="text-sm text-slate-500">Team: {pin.team.name}</p> : null}
          </div>
          {pin.description ? <p className="whitespace-pre-line text-slate-700">{pin.description}</p> : null}

          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            <Fact label="Total Quantity">{formatCount(pin.totalQuantity)} pieces</Fact>
            <Fact label="Rarity Score">{pin.rarityScore}/4</Fact>
            <Fact label="Identifications">Identified {formatCount(pin.identificationCount)} times</Fact>
            <Fact label="Added">{formatDate(pin.createdAt)}</Fact>
            <Fact label="Year">{pin.year ?? '-'}</Fact>
            <Fact label="Event">{pin.event ?? '-'}</Fact>
            <Fact label="Estimated Value">{formatMoney(pin.estimatedValue)}</Fact>
          </dl>

          <section aria-labelledby="inventory-heading" className="card space-y-2 p-4">
            <div className="flex items-center justify-between gap-2">
              <h2 id="inventory-heading" className="text-base font-semibold text-slate-900">
                Inventory Status
              </h2>
              <span className={`badge ${inStock ? 'bg-green-100 text-green-800' : 'bg-red-100 text-red-800'}`}>{inStock ? 'In Stock' : 'Out of Stock'}</span>
            </div>
            <p className="text-sm text-slate-700">
              {formatCount(pin.availableQuantity)} of {formatCount(pin.totalQuantity)} available ({percent}%)
            </p>
            <div className="h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
              <div className="h-full bg-brand-500" style={{ width: `${percent}%` }} />
            </div>
            <p className="text-sm text-slate-600">Distribution date: {pin.distributionDate ? formatDate(pin.distributionDate) : '-'}</p>
          </section>

          {data.offers.vendors > 0 && data.offers.fromCents !== null ? (
            <p className="text-sm font-semibold text-emerald-800" data-testid="marketplace-offers">
              Available from {formatCount(data.offers.vendors)} {data.offers.vendors === 1 ? 'vendor' : 'vendors'} from {formatMoney(data.offers.fromCents === null ? null : data.offers.fromCents / 100)}
            </p>
          ) : null}
          <p className="text-sm text-slate-700" data-testid="pin-trade-counts">
            {formatCount(data.trade.trading)} {data.trade.trading === 1 ? 'collector trades' : 'collectors trade'} this pin ·{' '}
            {formatCount(data.trade.wanted)} {data.trade.wanted === 1 ? 'wants' : 'want'} it
            {data.signedIn && data.trade.trading + data.trade.wanted > 0 ? (
              <>
                {' · '}
                <Link to="/trades" className="font-semibold text-brand-700 hover:underline">
                  See trade matches
                </Link>
              </>
            ) : null}
          </p>
          <div className="flex flex-wrap gap-3">
            <Link to="/browse" className="btn-secondary">
              Browse More Pins
            </Link>
            <Link to={data.offers.vendors > 0 ? `/marketplace?pinId=${encodeURIComponent(pin.id)}` : '/marketplace'} className="btn-secondary">
              View in Marketplace
            </Link>
          </div>

          {data.canEdit ? (
            <div className="space-y-3 border-t border-slate-200 pt-4">
              <div className="flex flex-wrap gap-3">
                <EditPin pin={pin} open={data.editOpen || !!editResult} lastResult={editResult} here={here} />
                <ConfirmStep
                  trigger="Delete Pin"
                  title="Delete Pin"
                  description={
                    <>
                      Delete <strong>{pin.name}</strong> from the database? Its identification records and collection entries are deleted too. This
                      cannot be undone.
                    </>
                  }
                  confirmLabel="Delete Pin"
                  pendingLabel="Deleting..."
                  fields={{ intent: 'delete' }}
                  href={`${here}?confirm=delete`}
                  closeHref={here}
                  serverOpen={data.confirmDelete}
                  danger
                />
              </div>
            </div>
          ) : null}

          <AddToCollectionForm pinId={pin.id} signedIn={data.signedIn} lastResult={addResult} entry={data.ownEntry} />
        </div>
      </div>
      <PinCommunity
        pinId={pin.id}
        signedIn={data.signedIn}
        comments={data.comments}
        reactions={data.reactions}
        editCommentId={data.editCommentId}
        confirmDeleteCommentId={data.confirmDeleteCommentId}
        result={actionData && 'commentId' in actionData ? (actionData as unknown as PinCommunityProps['result']) : null}
      />
    </article>
  );
}

type PinData = Loaded['pin'];

/**
 * 'Edit Pin': with JavaScript a dialog holding the form; without it a link to `?edit=1`, where the
 * server renders the same form in the page. Saving is the confirmation; Cancel discards.
 */
function EditPin({ pin, open, lastResult, here }: { pin: PinData; open: boolean; lastResult?: SubmissionResult<string[]>; here: string }) {
  return (
    <Dialog
      title="Edit Pin"
      description="Change the details of this pin and save."
      trigger="Edit Pin"
      href={`${here}?edit=1`}
      closeHref={here}
      // the server-rendered step also shows when the page comes back with errors
      serverOpen={open}
      closesOn={(formData) => formData.get('intent') === 'edit'}
      size="lg"
    >
      <PinEditForm pin={pin} lastResult={lastResult} cancel={<DialogCancel />} />
    </Dialog>
  );
}

function PinEditForm({ pin, lastResult, cancel }: { pin: PinData; lastResult?: SubmissionResult<string[]>; cancel: React.ReactNode }) {
  const navigation = useNavigation();
  const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'edit';
  const [form, fields] = useForm({
    id: `edit-pin-${pin.id}`,
    lastResult,
    defaultValue: {
      name: pin.name,
      description: pin.description ?? '',
      totalQuantity: String(pin.totalQuantity),
      year: pin.year == null ? '' : String(pin.year),
      event: pin.event ?? '',
    },
  });
  const nameProps = getInputProps(fields.name, { type: 'text' });
  const qtyProps = getInputProps(fields.totalQuantity, { type: 'number' });
  const yearProps = getInputProps(fields.year, { type: 'number' });
  const eventProps = getInputProps(fields.event, { type: 'text' });
  const descProps = getTextareaProps(fields.description);

  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
      <input type="hidden" name="intent" value="edit" />
      {form.errors?.length ? (
        <div id={form.errorId} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {form.errors[0]}
        </div>
      ) : null}
      <div>
        <label htmlFor={fields.name.id} className="label">
          Name
        </label>
        <input {...nameProps} className="input" />
        <FieldError field={fields.name} />
      </div>
      <div>
        <label htmlFor={fields.description.id} className="label">
          Description
        </label>
        <textarea {...descProps} rows={3} className="input" />
        <FieldError field={fields.description} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={fields.totalQuantity.id} className="label">
            Total Quantity
          </label>
          {/* no min attribute: the server's message ('Quantity must be at least 1') is the one shown */}
          <input {...qtyProps} className="input" inputMode="numeric" />
          <FieldError field={fields.totalQuantity} />
        </div>
        <div>
          <label htmlFor={fields.year.id} className="label">
            Year
          </label>
          <input {...yearProps} className="input" inputMode="numeric" placeholder={`${MIN_PIN_YEAR}-${currentYear()}`} />
          <FieldError field={fields.year} />
        </div>
      </div>
      <div>
        <label htmlFor={fields.event.id} className="label">
          Event
        </label>
        <input {...eventProps} className="input" />
        <FieldError field={fields.event} />
      </div>
      <div className="flex justify-end gap-3">
        {cancel}
        <button type="submit" className="btn-primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </button>
      </div>
    </Form>
  );
}
