/**
 * The loader and action of /orders (routes/orders.tsx re-exports them). They live here, not in the
 * route module, so that the page's browser bundle reaches none of the modules they import (the
 * services and the zod schemas they check with): in the browser this file is one empty module.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { requirePageUser } from '~/http/guards.server';
import { page } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { isAppError } from '~/services/errors';
import { cancelOrder, listMyOrders } from '~/services/orders.server';

export async function ordersLoader({ request }: LoaderFunctionArgs) {
  const user = await requirePageUser(request);
  return page(async () => {
    const url = new URL(request.url);
    const pageNumber = Number(url.searchParams.get('page') ?? '1');
    const result = await listMyOrders(user, { page: Number.isSafeInteger(pageNumber) && pageNumber > 0 ? pageNumber : 1 });
    const cancelId = url.searchParams.get('cancel');
    return json({
      orders: result.orders,
      total: result.total,
      paging: result.paging,
      checkoutId: url.searchParams.get('checkout'),
      justPaid: url.searchParams.get('paid') === '1',
      // the no-JavaScript step of the cancel dialog: only for an order of this buyer that can be cancelled
      cancelOpen: cancelId && result.orders.some((o) => o.id === cancelId && o.status === 'pending') ? cancelId : null,
    });
  });
}

export async function ordersAction({ request }: ActionFunctionArgs) {
  const user = await requirePageUser(request);
  const form = await request.formData().catch(() => new FormData());
  const orderId = String(form.get('orderId') ?? '');
  if (form.get('intent') !== 'cancel') throw json({ message: 'Unknown action' }, { status: 400 });
  try {
    const order = await cancelOrder(user, orderId, { reason: form.get('reason') });
    return redirectWithToast('/orders', { title: 'Order cancelled', description: `Order #${order.number} was cancelled and its pins went back on sale.`, variant: 'success' });
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) throw error;
    return redirectWithToast('/orders', { title: 'Could not cancel the order', description: error.message, variant: 'destructive' });
  }
}
