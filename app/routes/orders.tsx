import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react';
import { ListingThumb, OrderStatusBadge, OrderTimeline } from '~/components/marketplace';
import { Button, buttonClass } from '~/components/ui/button';
import { Dialog, DialogCancel } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import { HiddenFields } from '~/components/ui/hidden-fields';
import { Pagination } from '~/components/ui/list-controls';
import { CANCEL_REASONS } from '~/utils/marketplace';
import { ordersLoader, ordersAction } from '~/http/orders-page.server';
import { formatDate } from '~/utils/format';
import { formatCents } from '~/utils/money';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'My Orders | PinDex' }];

export const loader = ordersLoader;
export const action = ordersAction;

export default function Orders() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="space-y-5">
      <header className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">My Orders</h1>
          <p className="mt-1 text-slate-600">Orders you placed in the marketplace, one per vendor.</p>
        </div>
        <Link to="/inventory" className={buttonClass('secondary')}>
          My Purchases
        </Link>
      </header>
      {data.justPaid ? (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
          Thank you! Your payment is being confirmed; your orders show Paid as soon as it is.
        </p>
      ) : null}
      {data.orders.length === 0 ? (
        <EmptyState
          title="No orders yet"
          description="When you check out your cart, your orders show here."
          action={
            <Link to="/marketplace" className={buttonClass('primary')}>
              Browse the Marketplace
            </Link>
          }
        />
      ) : (
        <ul className="space-y-4">
          {data.orders.map((order) => (
            <li key={order.id}>
              <OrderCard order={order} highlight={order.checkoutId === data.checkoutId} cancelOpen={data.cancelOpen === order.id} />
            </li>
          ))}
        </ul>
      )}
      <Pagination paging={data.paging} hrefFor={(p) => `/orders?page=${p}`} />
    </div>
  );
}

type OrderData = ReturnType<typeof useLoaderData<typeof loader>>['orders'][number];

function OrderCard({ order, highlight, cancelOpen }: { order: OrderData; highlight: boolean; cancelOpen: boolean }) {
  const navigation = useNavigation();
  const cancelling = navigation.state !== 'idle' && navigation.formData?.get('orderId') === order.id;
  return (
    <article className={`card p-4 ${highlight ? 'ring-2 ring-brand-400' : ''}`} data-testid="order-card" aria-labelledby={`order-${order.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={`order-${order.id}`} className="text-base font-semibold text-slate-900">
            Order #{order.number}
          </h2>
          <p className="text-sm text-slate-600">
            {order.vendor.businessName} · {formatDate(order.createdAt)}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <OrderStatusBadge status={order.status} />
          <span className="font-bold text-slate-900">{formatCents(order.totalAmountCents)}</span>
        </div>
      </div>
      <ul className="mt-3 space-y-2">
        {order.items.map((item) => (
          <li key={item.id} className="flex items-center gap-3 text-sm">
            <ListingThumb src={item.thumbnail} alt={item.name} size={48} />
            <span className="min-w-0 flex-1 truncate">{item.name}</span>
            <span className="whitespace-nowrap text-slate-600">
              {item.quantity} × {formatCents(item.unitPriceCents)}
            </span>
          </li>
        ))}
      </ul>
      {order.status === 'pending' ? (
        <p className="mt-3 text-sm text-slate-700">
          Pay {order.vendor.businessName} at pickup or by invoice ({order.vendor.contactEmail}).
          {order.expiresAt ? ` The pins are held for you until ${new Date(order.expiresAt).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })} UTC.` : ''}
        </p>
      ) : null}
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-semibold text-brand-700">Timeline</summary>
        <div className="mt-2">
          <OrderTimeline moves={order.timeline} />
        </div>
      </details>
      {order.status === 'pending' ? (
        <div className="mt-3">
          <Dialog
            title={`Cancel order #${order.number}?`}
            description="The pins go back on sale. This cannot be undone."
            trigger="Cancel Order"
            triggerClassName={buttonClass('danger', 'sm')}
            href={`/orders?cancel=${order.id}`}
            closeHref="/orders"
            serverOpen={cancelOpen}
            closesOn={(f) => f.get('orderId') === order.id}
            tone="danger"
          >
            <Form method="post" action="/orders" className="space-y-3" preventScrollReset>
              <HiddenFields fields={{ intent: 'cancel', orderId: order.id }} />
              <div>
                <label htmlFor={`reason-${order.id}`} className="label">
                  Reason
                </label>
                <select id={`reason-${order.id}`} name="reason" className="input" defaultValue={CANCEL_REASONS[0]}>
                  {CANCEL_REASONS.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              </div>
              <div className="flex flex-wrap justify-end gap-2">
                <DialogCancel>Keep Order</DialogCancel>
                <Button variant="danger" pending={cancelling} pendingLabel="Cancelling...">
                  Cancel Order
                </Button>
              </div>
            </Form>
          </Dialog>
        </div>
      ) : null}
    </article>
  );
}
