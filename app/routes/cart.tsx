import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react';
import { ActionButton, ListingThumb } from '~/components/marketplace';
import { Button, buttonClass } from '~/components/ui/button';
import { EmptyState } from '~/components/ui/empty-state';
import { HiddenFields } from '~/components/ui/hidden-fields';
import { MAX_CART_QUANTITY } from '~/utils/marketplace';
import { cartLoader, cartAction } from '~/http/cart-page.server';
import { formatCount } from '~/utils/format';
import { formatCents } from '~/utils/money';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Cart | PinDex' }];

export const loader = cartLoader;
export const action = cartAction;

const PROBLEM_TEXT = {
  unavailable: 'No longer available. Remove it to check out.',
  sold_out: 'Sold out. Remove it to check out.',
  short: (left: number) => `Only ${formatCount(left)} left. Lower the quantity to check out.`,
};

export default function CartPage() {
  const { cart, payment } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const placing = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'checkout';
  if (!cart.groups.length) {
    return (
      <div className="space-y-5">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Your Cart</h1>
        <EmptyState
          title="Your cart is empty"
          description="Find pins in the marketplace and add them to your cart."
          action={
            <Link to="/marketplace" className={buttonClass('primary')}>
              Browse the Marketplace
            </Link>
          }
        />
      </div>
    );
  }
  return (
    <div className="space-y-5">
      <header className="flex flex-wrap items-end justify-between gap-2">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Your Cart</h1>
        <p className="text-sm text-slate-600">
          {formatCount(cart.itemCount)} {cart.itemCount === 1 ? 'pin' : 'pins'} from {formatCount(cart.groups.length)} {cart.groups.length === 1 ? 'vendor' : 'vendors'}
        </p>
      </header>

      {cart.priceChanges > 0 ? (
        <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <p>
            {cart.priceChanges === 1 ? 'A price changed' : `${cart.priceChanges} prices changed`} since you added {cart.priceChanges === 1 ? 'it' : 'them'}. The cart shows today’s prices.
          </p>
          <ActionButton intent="acknowledge" fields={{}} size="sm">
            OK
          </ActionButton>
        </div>
      ) : null}
      {cart.problems > 0 ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          Some pins cannot be bought as they are. Change or remove them to check out.
        </p>
      ) : null}

      <div className="grid gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="space-y-4">
          {cart.groups.map((group) => (
            <section key={group.vendor.id} className="card p-4" aria-labelledby={`vendor-${group.vendor.id}`} data-testid="cart-vendor">
              <h2 id={`vendor-${group.vendor.id}`} className="text-base font-semibold text-slate-900">
                {group.vendor.businessName}
              </h2>
              <ul className="mt-3 divide-y divide-slate-100">
                {group.lines.map((line) => (
                  <li key={line.id} className="flex flex-wrap gap-3 py-3" data-testid="cart-line">
                    <ListingThumb src={line.thumbnail} alt={line.name} />
                    <div className="min-w-0 flex-1 basis-40">
                      <p className="font-medium text-slate-900">{line.name}</p>
                      <p className="text-sm text-slate-600">
                        {formatCents(line.unitPriceCents)} each
                        {line.previousPriceCents !== null ? (
                          <span className="ml-2 font-semibold text-amber-800">
                            (was <s>{formatCents(line.previousPriceCents)}</s>)
                          </span>
                        ) : null}
                      </p>
                      {line.problem ? (
                        <p className="text-sm font-semibold text-red-700">{line.problem === 'short' ? PROBLEM_TEXT.short(line.stockQuantity) : PROBLEM_TEXT[line.problem]}</p>
                      ) : null}
                    </div>
                    <div className="flex w-full flex-wrap items-end justify-between gap-2 sm:w-auto sm:flex-col sm:items-end">
                      <Form method="post" className="flex items-end gap-2" preventScrollReset>
                        <HiddenFields fields={{ intent: 'setQuantity', marketplacePinId: line.marketplacePinId }} />
                        <div>
                          <label htmlFor={`qty-${line.id}`} className="sr-only">
                            Quantity of {line.name}
                          </label>
                          <input
                            id={`qty-${line.id}`}
                            name="quantity"
                            type="number"
                            min={1}
                            max={Math.max(1, Math.min(MAX_CART_QUANTITY, line.stockQuantity))}
                            defaultValue={line.quantity}
                            key={line.quantity}
                            inputMode="numeric"
                            className="input w-20"
                            required
                          />
                        </div>
                        <Button size="sm">Update</Button>
                      </Form>
                      <div className="flex items-center gap-3">
                        <span className="font-semibold text-slate-900">{formatCents(line.lineTotalCents)}</span>
                        <ActionButton intent="remove" fields={{ marketplacePinId: line.marketplacePinId }} size="sm" pendingLabel="Removing...">
                          Remove
                        </ActionButton>
                      </div>
                    </div>
                  </li>
                ))}
              </ul>
              <p className="mt-2 flex justify-between border-t border-slate-100 pt-2 text-sm">
                <span className="text-slate-600">Subtotal</span>
                <span className="font-semibold text-slate-900">{formatCents(group.subtotalCents)}</span>
              </p>
            </section>
          ))}
        </div>

        <aside className="card h-fit space-y-3 p-4" aria-labelledby="summary-heading">
          <h2 id="summary-heading" className="text-base font-semibold text-slate-900">
            Order Summary
          </h2>
          <ul className="space-y-1 text-sm">
            {cart.groups.map((g) => (
              <li key={g.vendor.id} className="flex justify-between gap-2">
                <span className="truncate text-slate-600">{g.vendor.businessName}</span>
                <span>{formatCents(g.subtotalCents)}</span>
              </li>
            ))}
          </ul>
          <p className="flex justify-between border-t border-slate-100 pt-2 text-base font-bold text-slate-900">
            <span>Total</span>
            <span data-testid="cart-total">{formatCents(cart.totalCents)}</span>
          </p>
          <p className="text-xs text-slate-500">One order is placed with each vendor.</p>
          <Form method="post" className="space-y-3">
            <HiddenFields fields={{ intent: 'checkout', expected: cart.expected }} />
            <div>
              <label htmlFor="checkout-note" className="label">
                Note for the vendors (optional)
              </label>
              <textarea id="checkout-note" name="note" rows={2} maxLength={500} className="input" placeholder="Pickup at the field, or a shipping address" />
            </div>
            <p className="text-sm text-slate-700">{payment.description}</p>
            <Button variant="primary" className="w-full" disabled={cart.problems > 0} pending={placing} pendingLabel="Placing order...">
              {payment.name === 'stripe' ? 'Pay with Card' : 'Place Order'}
            </Button>
          </Form>
        </aside>
      </div>
    </div>
  );
}
