import { getFormProps, useForm, type SubmissionResult } from '~/components/ui/form-state';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { ActionButton, ListingThumb, OrderStatusBadge, OrderTimeline } from '~/components/marketplace';
import { Button, buttonClass } from '~/components/ui/button';
import { Dialog, DialogCancel } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import { Field, FormErrors } from '~/components/ui/field';
import { HiddenFields } from '~/components/ui/hidden-fields';
import { Pagination } from '~/components/ui/list-controls';
import { StatCard } from '~/components/ui/stat-card';
import { Tabs } from '~/components/ui/tabs';
import { vendorAction, vendorLoader, type VendorIntent as Intent, type VendorTab } from '~/http/vendor-page.server';
import { LISTING_CATEGORIES as CATEGORIES } from '~/utils/marketplace';
import { MAX_PIN_PHOTOS } from '~/utils/constants';
import { formatCount, formatDate } from '~/utils/format';
import { centsToDecimal, formatCents } from '~/utils/money';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Vendor Dashboard | PinDex' }];

const TABS = [
  { key: 'overview', label: 'Overview' },
  { key: 'pins', label: 'My Pins' },
  { key: 'orders', label: 'Orders' },
] as const satisfies readonly { key: VendorTab; label: string }[];

export const loader = vendorLoader;
export const action = vendorAction;

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

export default function Vendor() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'application') return <Application data={data} />;
  return <Dashboard data={data} />;
}

function useResult(intent: Intent): SubmissionResult<string[]> | undefined {
  const actionData = useActionData<typeof action>();
  if (!actionData || !('intent' in actionData) || actionData.intent !== intent) return undefined;
  return actionData.lastResult as SubmissionResult<string[]>;
}

// ---------------------------------------------------------------- Become a Vendor / Application Pending

function Application({ data }: { data: Extract<Data, { state: 'application' }> }) {
  const app = data.application;
  const canApply = !app || app.status === 'needs_revision' || app.status === 'rejected';
  const lastResult = useResult('apply');
  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Vendor Dashboard</h1>
      {app && !canApply ? (
        <section className="card p-6 text-center" aria-labelledby="pending-heading">
          <h2 id="pending-heading" className="text-xl font-semibold text-slate-900">
            Application Pending
          </h2>
          <p className="mt-2 text-slate-600">
            Thanks for applying as <strong>{app.businessName}</strong>. An admin reviews every application; you can list pins as soon as it is approved.
          </p>
          <p className="mt-3 text-sm text-slate-500">
            Status: <span className="badge bg-amber-100 text-amber-900">{app.statusLabel}</span> · applied {formatDate(app.createdAt)}
          </p>
        </section>
      ) : (
        <section className="card p-6" aria-labelledby="become-heading">
          <h2 id="become-heading" className="text-xl font-semibold text-slate-900">
            Become a Vendor
          </h2>
          {app ? (
            <p className="mt-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
              Your application is {app.statusLabel.toLowerCase()}.{app.rejectionReason ? ` Reason: ${app.rejectionReason}` : ''} You can change it and send it again.
            </p>
          ) : null}
          <p className="mt-2 text-slate-600">Sell tournament and team pins to collectors. Tell us about your business; an admin reviews your application.</p>
          <div className="mt-4">
            <Dialog
              title="Become a Vendor"
              description="Apply to sell pins in the marketplace."
              trigger="Become a Vendor"
              triggerClassName={buttonClass('primary')}
              href="/vendor?dialog=apply"
              closeHref="/vendor"
              serverOpen={data.applyOpen || !!lastResult}
              closesOn={(f) => f.get('intent') === 'apply'}
            >
              <ApplicationForm lastResult={lastResult} defaults={app ? { businessName: app.businessName, contactEmail: app.contactEmail, description: app.description ?? '' } : { contactEmail: data.email }} />
            </Dialog>
          </div>
        </section>
      )}
    </div>
  );
}

function ApplicationForm({ lastResult, defaults }: { lastResult?: SubmissionResult<string[]>; defaults: Record<string, string> }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'vendor-application',
    lastResult,
    defaultValue: defaults,
  });
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'apply';
  return (
    <Form method="post" action="/vendor" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="apply" />
      <FormErrors errors={form.errors} id={form.errorId} />
      <Field label="Business Name" field={fields.businessName} autoComplete="organization" />
      <Field label="Contact Email" field={fields.contactEmail} type="email" autoComplete="email" />
      <Field label="Description" field={fields.description} as="textarea" rows={3} placeholder="What do you sell? Where do you trade?" />
      <div className="flex flex-wrap justify-end gap-2">
        <DialogCancel />
        <Button variant="primary" pending={busy} pendingLabel="Submitting...">
          Submit Application
        </Button>
      </div>
    </Form>
  );
}

// ---------------------------------------------------------------- the approved vendor's dashboard

type Approved = Extract<Data, { state: 'approved' }>;

function Dashboard({ data }: { data: Approved }) {
  return (
    <div className="space-y-5">
      <header>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Vendor Dashboard</h1>
        <p className="mt-1 text-slate-600">{data.businessName}</p>
      </header>
      <Tabs
        label="Vendor dashboard sections"
        current={data.view}
        items={TABS.map((t) => ({ key: t.key, label: t.label, count: t.key === 'pins' ? data.overview.listings : t.key === 'orders' ? data.overview.openOrders : undefined }))}
      />
      {data.view === 'pins' ? <MyPins data={data} /> : data.view === 'orders' ? <Orders data={data} /> : <Overview data={data} />}
    </div>
  );
}

function Overview({ data }: { data: Approved }) {
  const o = data.overview;
  return (
    <section aria-label="Overview" className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Total Sales" value={formatCents(o.salesCents)} hint={`${formatCount(o.paidOrders)} paid ${o.paidOrders === 1 ? 'order' : 'orders'}`} valueTestId="vendor-sales" />
        <StatCard label="Open Orders" value={o.openOrders} hint={`${formatCount(o.pendingOrders)} awaiting payment`} link={{ to: '/vendor?tab=orders', label: 'View orders' }} valueTestId="vendor-open-orders" />
        <StatCard label="Active Listings" value={o.activeListings} hint={`${formatCount(o.listings)} in all · ${formatCount(o.outOfStock)} out of stock`} link={{ to: '/vendor?tab=pins', label: 'Manage pins' }} />
        <StatCard
          label="Conversion Rate"
          value={o.conversionRate === null ? '—' : `${(o.conversionRate * 100).toFixed(1)}%`}
          hint={o.conversionBasis ? `of ${formatCount(o.conversionBasis)} orders in 30 days were paid` : 'No orders in the last 30 days'}
        />
      </dl>
    </section>
  );
}

// ---------------------------------------------------------------- My Pins

type PinsData = Extract<Approved, { view: 'pins' }>;

function MyPins({ data }: { data: PinsData }) {
  const createResult = useResult('createListing');
  const updateResult = useResult('updateListing');
  return (
    <section aria-label="My Pins" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">My Pins</h2>
        <Dialog
          title="List a Pin"
          trigger="List a Pin"
          triggerClassName={buttonClass('primary')}
          href="/vendor?tab=pins&dialog=new-pin"
          closeHref="/vendor?tab=pins"
          serverOpen={data.newOpen || !!createResult}
          closesOn={(f) => f.get('intent') === 'createListing'}
          size="lg"
        >
          <ListingForm intent="createListing" lastResult={createResult} />
        </Dialog>
      </div>
      {data.editing ? (
        <Dialog title={`Edit ${data.editing.name}`} trigger="Edit" href={`/vendor?tab=pins&dialog=edit-pin&id=${data.editing.id}`} closeHref="/vendor?tab=pins" serverOpen size="lg">
          <ListingForm intent="updateListing" lastResult={updateResult} listing={data.editing} />
        </Dialog>
      ) : null}
      {data.listings.length === 0 ? (
        <EmptyState title="No pins listed yet" description="List your first pin: it shows in the marketplace at once." />
      ) : (
        <ul className="space-y-3">
          {data.listings.map((l) => (
            <li key={l.id} className="card flex flex-wrap items-center gap-3 p-3" data-testid="vendor-listing">
              <ListingThumb src={l.thumbnail} alt={l.name} />
              <div className="min-w-0 flex-1 basis-40">
                <p className="font-medium text-slate-900">{l.name}</p>
                <p className="text-sm text-slate-600">
                  {formatCents(l.priceCents)} · {l.stockQuantity === 0 ? <span className="font-semibold text-red-700">Out of stock</span> : `${formatCount(l.stockQuantity)} in stock`}
                  {l.category ? ` · ${l.category}` : ''}
                </p>
              </div>
              <span className={`badge ${l.isActive ? 'bg-emerald-100 text-emerald-900' : 'bg-slate-200 text-slate-700'}`}>{l.isActive ? 'Active' : 'Inactive'}</span>
              <div className="flex gap-2">
                <Link to={`/vendor?tab=pins&dialog=edit-pin&id=${l.id}`} className={buttonClass('secondary', 'sm')} preventScrollReset>
                  Edit
                </Link>
                <ActionButton intent="toggleActive" fields={{ listingId: l.id, isActive: String(!l.isActive), back: '/vendor?tab=pins' }} size="sm">
                  {l.isActive ? 'Deactivate' : 'Activate'}
                </ActionButton>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination paging={data.paging} hrefFor={(p) => `/vendor?tab=pins&page=${p}`} />
    </section>
  );
}

type ListingData = NonNullable<PinsData['editing']>;

function ListingForm({ intent, lastResult, listing }: { intent: 'createListing' | 'updateListing'; lastResult?: SubmissionResult<string[]>; listing?: ListingData }) {
  const navigation = useNavigation();
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [form, fields] = useForm({
    id: listing ? `listing-${listing.id}` : 'new-listing',
    lastResult,
    defaultValue: listing
      ? { name: listing.name, description: listing.description ?? '', price: centsToDecimal(listing.priceCents), stockQuantity: String(listing.stockQuantity), category: listing.category ?? '', pinId: listing.pinId ?? '' }
      : undefined,
  });
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  const kept = listing?.imageIds ?? [];
  return (
    <Form
      method="post"
      action="/vendor?tab=pins"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="space-y-4"
      onSubmit={(event) => {
        const input = event.currentTarget.elements.namedItem('images') as HTMLInputElement | null;
        const keptNow = event.currentTarget.querySelectorAll('input[name="keepImages"]:checked').length;
        const count = (input?.files?.length ?? 0) + keptNow;
        const problem = count > MAX_PIN_PHOTOS ? `You can add up to ${MAX_PIN_PHOTOS} photos per pin.` : null;
        setPhotoError(problem);
        if (problem) event.preventDefault();
      }}
    >
      <HiddenFields fields={{ intent, ...(listing ? { listingId: listing.id, keepImages: '' } : {}) }} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <Field label="Pin Name" field={fields.name} />
      <Field label="Description" field={fields.description} as="textarea" rows={3} />
      <div className="grid grid-cols-2 gap-3">
        <Field label="Price ($)" field={fields.price} inputMode="decimal" placeholder="12.50" />
        <Field label="Stock Quantity" field={fields.stockQuantity} inputMode="numeric" placeholder="10" />
      </div>
      <Field label="Category" field={fields.category} as="select">
        <option value="">No category</option>
        {CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </Field>
      <Field label="Catalogue pin (optional)" field={fields.pinId} description="Paste the link of the pin’s page (…/pins/…) so collectors find this listing from it." />
      {kept.length ? (
        <fieldset>
          <legend className="label">Photos to keep</legend>
          <div className="flex flex-wrap gap-2">
            {kept.map((id, i) => (
              <label key={id} className="flex flex-col items-center gap-1 text-xs">
                <ListingThumb src={listing!.images[i] ? `${listing!.images[i]}?s=thumb` : null} alt={`Photo ${i + 1}`} size={56} />
                <span>
                  <input type="checkbox" name="keepImages" value={id} defaultChecked /> Keep
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <div>
        <label htmlFor={`${form.id}-images`} className="label">
          Photos (up to {MAX_PIN_PHOTOS})
        </label>
        <input id={`${form.id}-images`} type="file" name="images" accept="image/*" multiple className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-semibold" />
        {photoError || fields.images.errors ? <FormErrors title="Photo Limit Reached" errors={photoError ? [photoError] : fields.images.errors} /> : null}
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" name="isActive" defaultChecked={listing ? listing.isActive : true} className="h-4 w-4 rounded border-slate-300" /> Active (shown in the marketplace)
      </label>
      <div className="flex flex-wrap justify-end gap-2">
        <DialogCancel />
        <Button variant="primary" pending={busy} pendingLabel="Saving...">
          {listing ? 'Save Changes' : 'List Pin'}
        </Button>
      </div>
    </Form>
  );
}

// ---------------------------------------------------------------- Orders

type OrdersData = Extract<Approved, { view: 'orders' }>;

function Orders({ data }: { data: OrdersData }) {
  const back = `/vendor?tab=orders${data.status !== 'active' ? `&status=${data.status}` : ''}`;
  const navigation = useNavigation();
  return (
    <section aria-label="Orders" className="space-y-4">
      <nav aria-label="Filter orders by status" className="flex flex-wrap gap-2">
        {data.filters.map((f) => (
          <Link
            key={f.key}
            to={f.key === 'active' ? '/vendor?tab=orders' : `/vendor?tab=orders&status=${f.key}`}
            aria-current={data.status === f.key ? 'page' : undefined}
            className={`badge px-3 py-1.5 text-sm ${data.status === f.key ? 'bg-brand-600 text-white' : 'bg-slate-100 text-slate-700 hover:bg-slate-200'}`}
            preventScrollReset
          >
            {f.label} {formatCount(f.count)}
          </Link>
        ))}
      </nav>
      {data.orders.length === 0 ? (
        <EmptyState title="No orders" description={data.status === 'active' ? 'Orders waiting for payment or shipping show here.' : `No ${data.statusLabel.toLowerCase()} orders.`} />
      ) : (
        <ul className="space-y-3">
          {data.orders.map((order) => {
            const next = order.next;
            const cancellable = order.status === 'pending' || order.status === 'paid';
            const cancelling = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'cancelOrder' && navigation.formData?.get('orderId') === order.id;
            return (
              <li key={order.id} className="card p-4" data-testid="vendor-order">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div>
                    <h3 className="font-semibold text-slate-900">Order #{order.number}</h3>
                    <p className="text-sm text-slate-600">
                      {order.buyer.name} · {formatDate(order.createdAt)}
                    </p>
                  </div>
                  <div className="flex items-center gap-2">
                    <OrderStatusBadge status={order.status} />
                    <span className="font-bold">{formatCents(order.totalAmountCents)}</span>
                  </div>
                </div>
                <ul className="mt-2 text-sm text-slate-700">
                  {order.items.map((i) => (
                    <li key={i.id}>
                      {i.quantity} × {i.name} ({formatCents(i.unitPriceCents)})
                    </li>
                  ))}
                </ul>
                {order.note ? <p className="mt-1 text-sm text-slate-600">Note: {order.note}</p> : null}
                <details className="mt-2">
                  <summary className="cursor-pointer text-sm font-semibold text-brand-700">Timeline</summary>
                  <div className="mt-2">
                    <OrderTimeline moves={order.timeline} />
                  </div>
                </details>
                <div className="mt-3 flex flex-wrap gap-2">
                  {next ? (
                    <ActionButton intent={next.intent} fields={{ orderId: order.id, back, ...(next.status ? { status: next.status } : {}) }} variant="primary" size="sm">
                      {next.label}
                    </ActionButton>
                  ) : null}
                  {cancellable ? (
                    <Dialog
                      title={`Cancel order #${order.number}?`}
                      description="The pins go back on sale. Tell the buyer why."
                      trigger="Cancel"
                      triggerClassName={buttonClass('danger', 'sm')}
                      href={`${back}&cancel=${order.id}`}
                      closeHref={back}
                      serverOpen={data.cancelOpen === order.id}
                      closesOn={(f) => f.get('orderId') === order.id && f.get('intent') === 'cancelOrder'}
                      tone="danger"
                    >
                      <Form method="post" action="/vendor?tab=orders" className="space-y-3">
                        <HiddenFields fields={{ intent: 'cancelOrder', orderId: order.id, back }} />
                        <div>
                          <label htmlFor={`vreason-${order.id}`} className="label">
                            Reason
                          </label>
                          <textarea id={`vreason-${order.id}`} name="reason" required maxLength={500} rows={2} className="input" />
                        </div>
                        <div className="flex justify-end gap-2">
                          <DialogCancel>Keep Order</DialogCancel>
                          <Button variant="danger" pending={cancelling} pendingLabel="Cancelling...">
                            Cancel Order
                          </Button>
                        </div>
                      </Form>
                    </Dialog>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination paging={data.paging} hrefFor={(p) => `${back}&page=${p}`} />
    </section>
  );
}
