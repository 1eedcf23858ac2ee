/**
 * The loader and action of /vendor (routes/vendor.tsx re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, zod and the form library): in the browser this file is one empty module. The page's
 * forms read the action's reply with ui/form-state.ts; the checking is the action's.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { canSell } from '~/auth/permissions';
import { listingSchema, MAX_PIN_PHOTOS, myPinsQuerySchema, vendorApplicationSchema, vendorOrdersQuerySchema } from '~/forms/marketplace';
import { readFormData } from '~/http/body.server';
import { replyWithServiceError } from '~/http/form-reply.server';
import { promptedPageUser, requirePageUser } from '~/http/guards.server';
import { listingFromForm } from '~/http/listing-payload.server';
import { page, rethrowAsPageError } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { isAppError } from '~/services/errors';
import { createListing, getListing, getVendorOf, listMyListings, updateListing } from '~/services/marketplace.server';
import { cancelOrder, changeOrderStatus, fulfilOrder, listVendorOrders } from '~/services/orders.server';
import { VENDOR_STATUS_LABELS } from '~/services/vendor-review.server';
import { submitVendorApplication, vendorOverview } from '~/services/vendors.server';
import { MAX_IMAGE_BYTES, type OrderStatus } from '~/utils/constants';
import { readListQuery } from '~/utils/list-query';
import { ORDER_STATUS_LABELS } from '~/utils/order-status';
import { VENDOR_ORDER_FILTERS } from '~/utils/marketplace';

const FILTER_LABELS: Record<(typeof VENDOR_ORDER_FILTERS)[number], string> = { active: 'Active', ...ORDER_STATUS_LABELS };
/** The step an order's vendor takes next, by its status (none once delivered or cancelled). */
const NEXT_STEP: Partial<Record<OrderStatus, { intent: 'orderStatus' | 'fulfill'; status?: OrderStatus; label: string }>> = {
  pending: { intent: 'orderStatus', status: 'paid', label: 'Mark as Paid' },
  paid: { intent: 'fulfill', label: 'Mark as Shipped' },
  processing: { intent: 'fulfill', label: 'Mark as Shipped' },
  shipped: { intent: 'orderStatus', status: 'delivered', label: 'Mark as Delivered' },
};

/** The sections of the approved vendor's dashboard (?tab=...). */
const VENDOR_TABS = ['overview', 'pins', 'orders'] as const;
export type VendorTab = (typeof VENDOR_TABS)[number];

export async function vendorLoader({ request }: LoaderFunctionArgs) {
  const user = await promptedPageUser(request, { title: 'Vendor Access Required', message: 'Sign in to manage your vendor account and listings.' });
  return page(async () => {
    const url = new URL(request.url);
    const vendor = await getVendorOf(user.id);
    if (!canSell(user, vendor)) {
      return json({
        state: 'application' as const,
        application: vendor
          ? { businessName: vendor.businessName, contactEmail: vendor.contactEmail, description: vendor.description, status: vendor.applicationStatus, statusLabel: VENDOR_STATUS_LABELS[vendor.applicationStatus], rejectionReason: vendor.rejectionReason, createdAt: vendor.createdAt.toISOString() }
          : null,
        applyOpen: url.searchParams.get('dialog') === 'apply',
        email: user.email,
      });
    }
    const tabParam = url.searchParams.get('tab');
    const tab: VendorTab = VENDOR_TABS.includes(tabParam as VendorTab) ? (tabParam as VendorTab) : 'overview';
    const { overview } = await vendorOverview(user);
    const base = { state: 'approved' as const, businessName: vendor!.businessName, overview };
    if (tab === 'pins') {
      const query = readListQuery(url, myPinsQuerySchema);
      const listings = await listMyListings(user, { q: query.q, page: query.page });
      const dialog = url.searchParams.get('dialog');
      const editId = dialog === 'edit-pin' ? url.searchParams.get('id') : null;
      const editing = editId ? await getListing(user, editId).catch(() => null) : null;
      return json({ ...base, view: 'pins' as const, listings: listings.pins, paging: listings.paging, query, newOpen: dialog === 'new-pin', editing });
    }
    if (tab === 'orders') {
      const query = readListQuery(url, vendorOrdersQuerySchema);
      const status = query.filters.status ?? 'active';
      const result = await listVendorOrders(user, { status, page: query.page });
      const cancelId = url.searchParams.get('cancel');
      // the filters' labels and each order's next step are worked out here, not in the browser
      const filters = VENDOR_ORDER_FILTERS.map((f) => ({ key: f, label: FILTER_LABELS[f], count: result.counts[f] ?? 0 }));
      const orders = result.orders.map((order) => ({ ...order, next: NEXT_STEP[order.status] ?? null }));
      return json({ ...base, view: 'orders' as const, orders, paging: result.paging, filters, statusLabel: FILTER_LABELS[status], status, query, cancelOpen: cancelId });
    }
    return json({ ...base, view: 'overview' as const });
  });
}

export type VendorIntent = 'apply' | 'createListing' | 'updateListing' | 'toggleActive' | 'orderStatus' | 'fulfill' | 'cancelOrder';

export async function vendorAction({ request }: ActionFunctionArgs) {
  const user = await requirePageUser(request);
  let form: FormData;
  try {
    form = await readFormData(request, (MAX_PIN_PHOTOS + 1) * MAX_IMAGE_BYTES + 1024 * 1024);
  } catch (error) {
    rethrowAsPageError(error);
  }
  const intent = String(form.get('intent') ?? '') as VendorIntent;

  if (intent === 'apply') {
    const submission = parseWithZod(form, { schema: vendorApplicationSchema });
    if (submission.status !== 'success') return json({ intent, lastResult: submission.reply() }, { status: 400 });
    try {
      await submitVendorApplication(user, submission.value);
    } catch (error) {
      return replyWithServiceError(submission, error, { extra: { intent } });
    }
    return redirectWithToast('/vendor', { title: 'Vendor application submitted', description: 'Your application is pending approval.', variant: 'success' });
  }

  if (intent === 'createListing' || intent === 'updateListing') {
    const submission = parseWithZod(form, { schema: listingSchema });
    if (submission.status !== 'success') return json({ intent, lastResult: submission.reply() }, { status: 400 });
    const { fields, images } = listingFromForm(form);
    fields.isActive = form.get('isActive') === 'on';
    try {
      if (intent === 'createListing') {
        const created = await createListing(user, fields, images);
        return redirectWithToast('/vendor?tab=pins', { title: 'Pin listed successfully', description: `${created.name} is ${created.isActive ? 'in the marketplace' : 'saved as inactive'}.`, variant: 'success' });
      }
      const updated = await updateListing(user, String(form.get('listingId') ?? ''), fields, images);
      return redirectWithToast('/vendor?tab=pins', { title: 'Listing updated', description: updated.name, variant: 'success' });
    } catch (error) {
      return replyWithServiceError(submission, error, { extra: { intent } });
    }
  }

  const back = String(form.get('back') ?? '/vendor?tab=orders');
  const backTo = back.startsWith('/vendor') ? back : '/vendor';
  const fail = (error: unknown, title: string) => {
    if (!isAppError(error) || error.status >= 500) throw error;
    return redirectWithToast(backTo, { title, description: error.message, variant: 'destructive' });
  };

  if (intent === 'toggleActive') {
    try {
      const listing = await updateListing(user, String(form.get('listingId') ?? ''), { isActive: form.get('isActive') === 'true' });
      return redirectWithToast(backTo, { title: listing.isActive ? 'Listing is active' : 'Listing is inactive', description: listing.name, variant: 'success' });
    } catch (error) {
      return fail(error, 'Could not change the listing');
    }
  }
  const orderId = String(form.get('orderId') ?? '');
  if (intent === 'fulfill') {
    try {
      const order = await fulfilOrder(user, orderId);
      return redirectWithToast(backTo, { title: 'Order fulfilled', description: `Order #${order.number} was marked as shipped.`, variant: 'success' });
    } catch (error) {
      return fail(error, 'Could not fulfil the order');
    }
  }
  if (intent === 'orderStatus') {
    try {
      const order = await changeOrderStatus(user, orderId, { status: form.get('status') });
      return redirectWithToast(backTo, { title: `Order marked ${ORDER_STATUS_LABELS[order.status].toLowerCase()}`, description: `Order #${order.number}`, variant: 'success' });
    } catch (error) {
      return fail(error, 'Could not update the order');
    }
  }
  if (intent === 'cancelOrder') {
    try {
      const order = await cancelOrder(user, orderId, { reason: form.get('reason') });
      return redirectWithToast(backTo, { title: 'Order cancelled', description: `Order #${order.number}: its pins went back on sale.`, variant: 'success' });
    } catch (error) {
      return fail(error, 'Could not cancel the order');
    }
  }
  throw json({ message: 'Unknown action' }, { status: 400 });
}
