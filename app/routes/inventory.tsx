import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { ActionButton, ListingThumb } from '~/components/marketplace';
import { buttonClass } from '~/components/ui/button';
import { EmptyState } from '~/components/ui/empty-state';
import { StatCard } from '~/components/ui/stat-card';
import { badgeToasts } from '~/components/reward-toasts';
import { promptedPageUser, requirePageUser } from '~/http/guards.server';
import { page } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { isAppError } from '~/services/errors';
import { addInventoryItemToCollection, listInventory } from '~/services/inventory.server';
import { RECENT_DAYS } from '~/utils/inventory';
import { formatCount, formatDate } from '~/utils/format';
import { formatCents } from '~/utils/money';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'My Pin Collection | PinDex' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await promptedPageUser(request, { title: 'Inventory Access Required', message: 'Sign in to see the pins you have bought.' });
  return page(async () => json({ ...(await listInventory(user)) }));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requirePageUser(request);
  const form = await request.formData().catch(() => new FormData());
  if (form.get('intent') !== 'addToCollection') throw json({ message: 'Unknown action' }, { status: 400 });
  try {
    const result = await addInventoryItemToCollection(user, String(form.get('inventoryId') ?? ''));
    return redirectWithToast('/inventory', {
      title: 'Added to your collection',
      description: `${result.name} is in My Collection as owned.`,
      variant: 'success',
      more: badgeToasts(result.newlyUnlockedBadges, result.completedChallenges),
    });
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) throw error;
    return redirectWithToast('/inventory', { title: 'Could not add it to your collection', description: error.message, variant: 'destructive' });
  }
}

export default function Inventory() {
  const data = useLoaderData<typeof loader>();
  const { stats, items } = data;
  return (
    <div className="space-y-5">
      <header className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">My Pin Collection</h1>
          <p className="mt-1 text-slate-600">Pins you bought in the marketplace. An order’s pins are yours once it is paid.</p>
        </div>
        <Link to="/orders" className={buttonClass('secondary')}>
          My Orders
        </Link>
      </header>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Items" value={stats.items} valueTestId="inventory-items" />
        <StatCard label="Pieces" value={stats.pieces} />
        <StatCard label="Spent" value={formatCents(stats.spentCents)} />
        <StatCard label="Recent" value={stats.recent} hint={`in the last ${RECENT_DAYS} days`} />
      </dl>
      {items.length === 0 ? (
        <EmptyState
          title="No purchased pins yet"
          description="Pins you buy in the marketplace show here once the vendor confirms your payment."
          action={
            <Link to="/marketplace" className={buttonClass('primary')}>
              Browse the Marketplace
            </Link>
          }
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((item) => (
            <li key={item.id} className="card flex gap-3 p-3" data-testid="inventory-item">
              <ListingThumb src={item.marketplacePin.thumbnail} alt={item.marketplacePin.name} size={80} />
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <h2 className="line-clamp-2 text-sm font-semibold text-slate-900">{item.marketplacePin.name}</h2>
                <p className="text-xs text-slate-500">
                  {item.marketplacePin.vendorName} · {formatCount(item.quantity)} {item.quantity === 1 ? 'piece' : 'pieces'} · {formatDate(item.acquiredAt)}
                </p>
                {item.orderNumber ? <p className="text-xs text-slate-500">Order #{item.orderNumber}</p> : null}
                {item.marketplacePin.description ? <p className="line-clamp-2 text-xs text-slate-600">{item.marketplacePin.description}</p> : null}
                <div className="mt-auto flex flex-wrap items-center gap-2 pt-1">
                  {item.marketplacePin.pinId ? (
                    item.inCollection ? (
                      <Link to={`/pins/${item.marketplacePin.pinId}`} className="text-xs font-semibold text-emerald-700 hover:underline">
                        In your collection
                      </Link>
                    ) : (
                      <ActionButton intent="addToCollection" fields={{ inventoryId: item.id }} size="sm" variant="primary" pendingLabel="Adding...">
                        Add to My Collection
                      </ActionButton>
                    )
                  ) : (
                    <span className="text-xs text-slate-500">Not in the pin database</span>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
