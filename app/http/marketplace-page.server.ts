/**
 * The loader and action of /marketplace (routes/marketplace.tsx re-exports them). They live here,
 * not in the route module, so that the page's browser bundle reaches none of the modules they
 * import (the services, and zod for the list's URL state): in the browser this file is one empty
 * module.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { marketplaceQuerySchema } from '~/forms/marketplace';
import { promptedPageUser, requirePageUser } from '~/http/guards.server';
import { page } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { addToCart } from '~/services/cart.server';
import { isAppError } from '~/services/errors';
import { getVendorOf, listListings, listSellingVendors } from '~/services/marketplace.server';
import { expireStaleOrders } from '~/services/orders.server';
import { getPin } from '~/services/pins.server';
import { readListQuery } from '~/utils/list-query';

export async function marketplaceLoader({ request }: LoaderFunctionArgs) {
  const user = await promptedPageUser(request, { title: 'Access Required', message: 'Sign in to browse and buy pins from approved vendors.' });
  return page(async () => {
    const url = new URL(request.url);
    const query = readListQuery(url, marketplaceQuerySchema);
    await expireStaleOrders();
    const [result, sellers, ownVendor, pin] = await Promise.all([
      listListings(user, { q: query.q, ...query.filters, sort: query.sort, page: query.page, size: query.size }),
      listSellingVendors(),
      getVendorOf(user.id),
      query.filters.pinId ? getPin(query.filters.pinId).catch(() => null) : Promise.resolve(null),
    ]);
    return json({
      query,
      pins: result.pins,
      total: result.total,
      paging: result.paging,
      vendors: sellers,
      ownVendorId: ownVendor?.id ?? null,
      pinFilter: pin ? { id: pin.id, name: pin.name } : null,
      back: `${url.pathname}${url.search}`,
    });
  });
}

/** 'Add to Cart' without JavaScript: a POST that comes back to the same list with a toast. */
export async function marketplaceAction({ request }: ActionFunctionArgs) {
  const user = await requirePageUser(request);
  const form = await request.formData().catch(() => new FormData());
  const backParam = String(form.get('back') ?? '/marketplace');
  const back = backParam.startsWith('/marketplace') ? backParam : '/marketplace';
  try {
    const added = await addToCart(user, { marketplacePinId: form.get('marketplacePinId'), quantity: form.get('quantity') ?? 1 });
    return redirectWithToast(back, { title: 'Added to cart', description: `${added.name} (${added.line.quantity} in your cart).`, variant: 'success' });
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) throw error;
    return redirectWithToast(back, { title: 'Could not add to cart', description: error.message, variant: 'destructive' });
  }
}
