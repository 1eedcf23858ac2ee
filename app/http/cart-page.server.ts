/**
 * The loader and action of /cart (routes/cart.tsx re-exports them). They live here, not in the
 * route module, so that the page's browser bundle reaches none of the modules they import (the
 * services and the zod schemas they check with): in the browser this file is one empty module.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { requirePageUser } from '~/http/guards.server';
import { page } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { acknowledgeCartPrices, getCart, removeFromCart, setCartQuantity } from '~/services/cart.server';
import { isAppError } from '~/services/errors';
import { checkout, expireStaleOrders } from '~/services/orders.server';
import { paymentProvider } from '~/services/payments/index.server';

export async function cartLoader({ request }: LoaderFunctionArgs) {
  const user = await requirePageUser(request);
  return page(async () => {
    await expireStaleOrders();
    const cart = await getCart(user);
    const provider = paymentProvider();
    return json({ cart, payment: { name: provider.name, description: provider.description } });
  });
}

export async function cartAction({ request }: ActionFunctionArgs) {
  const user = await requirePageUser(request);
  const form = await request.formData().catch(() => new FormData());
  const intent = String(form.get('intent') ?? '');
  const listingId = String(form.get('marketplacePinId') ?? '');
  try {
    if (intent === 'setQuantity') {
      await setCartQuantity(user, listingId, { quantity: form.get('quantity') });
      return redirectWithToast('/cart', { title: 'Cart updated', variant: 'success' });
    }
    if (intent === 'remove') {
      await removeFromCart(user, listingId);
      return redirectWithToast('/cart', { title: 'Removed from cart', variant: 'success' });
    }
    if (intent === 'acknowledge') {
      await acknowledgeCartPrices(user);
      return redirect('/cart');
    }
    if (intent === 'checkout') {
      const result = await checkout(user, { expected: form.get('expected'), note: form.get('note') }, { origin: new URL(request.url).origin });
      if (result.redirectUrl) return redirect(result.redirectUrl);
      const n = result.orders.length;
      return redirectWithToast(`/orders?checkout=${result.checkoutId}`, {
        title: n === 1 ? 'Order placed' : `${n} orders placed`,
        description: 'Pay the vendor at pickup or by invoice. Your order stays pending until the vendor marks it paid.',
        variant: 'success',
      });
    }
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) throw error;
    const title = intent === 'checkout' ? 'Could not place your order' : 'Could not update your cart';
    return redirectWithToast('/cart', { title, description: error.message, variant: 'destructive' });
  }
  throw json({ message: 'Unknown action' }, { status: 400 });
}
