import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation, useSubmit } from '@remix-run/react';
import { ListingThumb } from '~/components/marketplace';
import { Button, buttonClass } from '~/components/ui/button';
import { EmptyState } from '~/components/ui/empty-state';
import { HiddenFields } from '~/components/ui/hidden-fields';
import { ListSearch, Pagination } from '~/components/ui/list-controls';
import { LISTING_CATEGORIES } from '~/utils/marketplace';
import { marketplaceLoader, marketplaceAction } from '~/http/marketplace-page.server';
import { formatCount } from '~/utils/format';
import { isListFiltered } from '~/utils/list-state';
import { formatCents } from '~/utils/money';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Pin Marketplace | PinDex' }];

const SORT_LABELS = { newest: 'Newest', price_asc: 'Price: low to high', price_desc: 'Price: high to low', name: 'Name' } as const;

export const loader = marketplaceLoader;
export const action = marketplaceAction;

export default function Marketplace() {
  const data = useLoaderData<typeof loader>();
  return <MarketplaceList data={data} />;
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

function MarketplaceList({ data }: { data: Loaded }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const loading = navigation.state === 'loading' && navigation.location?.pathname === '/marketplace';
  const filtered = isListFiltered(data.query) || data.query.sort !== data.query.defaults.sort;
  const onFilter = (event: React.ChangeEvent<HTMLSelectElement>) => event.currentTarget.form && submit(event.currentTarget.form, { preventScrollReset: true });
  return (
    <div className="space-y-5">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Pin Marketplace</h1>
          <p className="mt-1 text-slate-600">Buy tournament and team pins from approved vendors.</p>
        </div>
        <Link to="/cart" className={buttonClass('secondary')}>
          View Cart
        </Link>
      </header>

      <div className="card p-4">
        <ListSearch query={data.query} placeholder="Search pins..." controls={['category', 'vendorId', 'sort']} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto] lg:items-end">
          <div>
            <label htmlFor="mp-category" className="label">
              Category
            </label>
            <select id="mp-category" name="category" defaultValue={data.query.filters.category ?? ''} key={`c-${data.query.filters.category}`} className="input" onChange={onFilter}>
              <option value="">All Categories</option>
              {LISTING_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="mp-vendor" className="label">
              Vendor
            </label>
            <select id="mp-vendor" name="vendorId" defaultValue={data.query.filters.vendorId ?? ''} key={`v-${data.query.filters.vendorId}`} className="input" onChange={onFilter}>
              <option value="">All Vendors</option>
              {data.vendors.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.businessName}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="mp-sort" className="label">
              Sort
            </label>
            <select id="mp-sort" name="sort" defaultValue={data.query.sort} key={`s-${data.query.sort}`} className="input" onChange={onFilter}>
              {Object.entries(SORT_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        </ListSearch>
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
          <p aria-live="polite">
            {loading ? 'Loading pins...' : `${formatCount(data.total)} ${data.total === 1 ? 'pin' : 'pins'} for sale`}
            {data.pinFilter ? (
              <>
                {' '}
                of{' '}
                <Link to={`/pins/${data.pinFilter.id}`} className="font-semibold text-brand-700 hover:underline">
                  {data.pinFilter.name}
                </Link>
              </>
            ) : null}
          </p>
          {filtered ? (
            <Link to="/marketplace" className={buttonClass('ghost', 'sm')}>
              Clear Filters
            </Link>
          ) : null}
        </div>
      </div>

      {data.pins.length === 0 ? (
        <EmptyState
          title="No pins found"
          description={filtered ? 'Try adjusting your search or filters.' : 'No vendor has listed pins yet. Check back soon.'}
          action={
            filtered ? (
              <Link to="/marketplace" className={buttonClass('secondary')}>
                Clear Filters
              </Link>
            ) : null
          }
        />
      ) : (
        <ul className={`grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 xl:grid-cols-4 ${loading ? 'opacity-60' : ''}`}>
          {data.pins.map((pin, i) => (
            <li key={pin.id}>
              <ListingCard pin={pin} own={pin.vendorId === data.ownVendorId} back={data.back} eager={i < 4} />
            </li>
          ))}
        </ul>
      )}
      <Pagination paging={data.paging} query={data.query} pathname="/marketplace" />
    </div>
  );
}

function ListingCard({ pin, own, back, eager }: { pin: Loaded['pins'][number]; own: boolean; back: string; eager: boolean }) {
  const navigation = useNavigation();
  const adding = navigation.state === 'submitting' && navigation.formData?.get('marketplacePinId') === pin.id;
  const soldOut = pin.stockQuantity === 0;
  return (
    <article className="card flex h-full flex-col overflow-hidden" data-testid="listing-card">
      <div className="aspect-square bg-white">
        {pin.thumbnail ? (
          <img src={pin.thumbnail} alt={pin.name} width={320} height={320} loading={eager ? 'eager' : 'lazy'} decoding="async" className="h-full w-full object-contain p-2" />
        ) : (
          <ListingThumb src={null} alt="" size={320} className="h-full w-full" />
        )}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3">
        <h2 className="line-clamp-2 text-sm font-semibold text-slate-900">{pin.name}</h2>
        <p className="text-xs text-slate-500">
          <Link to={`/marketplace?vendorId=${encodeURIComponent(pin.vendor.id)}`} className="hover:underline">
            {pin.vendor.businessName}
          </Link>
          {pin.category ? ` · ${pin.category}` : ''}
        </p>
        <p className="text-lg font-bold text-slate-900" data-testid="listing-price">
          {formatCents(pin.priceCents)}
        </p>
        {pin.description ? <p className="line-clamp-2 text-sm text-slate-600">{pin.description}</p> : null}
        <p className={`text-xs font-semibold ${soldOut ? 'text-red-700' : 'text-emerald-700'}`}>{soldOut ? 'Out of stock' : `${formatCount(pin.stockQuantity)} in stock`}</p>
        <div className="mt-auto pt-2">
          {own ? (
            <p className="text-xs text-slate-500">Your listing</p>
          ) : (
            <Form method="post" action="/marketplace" preventScrollReset>
              <HiddenFields fields={{ marketplacePinId: pin.id, back }} />
              <Button variant="primary" className="w-full" disabled={soldOut} pending={adding} pendingLabel="Adding...">
                {soldOut ? 'Sold Out' : 'Add to Cart'}
              </Button>
            </Form>
          )}
        </div>
      </div>
    </article>
  );
}
