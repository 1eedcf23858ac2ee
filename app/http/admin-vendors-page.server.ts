/**
 * The loader and action of /admin/vendors (routes/admin.vendors.tsx re-exports them). They live
 * here, not in the route module, so that the page's browser bundle reaches none of the modules they
 * import (the services, zod and the form library): in the browser this file is one empty module.
 * The review form reads the action's reply with ui/form-state.ts; the checking is the action's.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { adminVendorsQuery, VENDOR_STATUS_NAMES as VENDOR_STATUS_LABELS, vendorReviewFormSchema } from '~/forms/admin';
import { replyWithServiceError } from '~/http/form-reply.server';
import { adminActionUser, adminPageUser } from '~/http/guards.server';
import { redirectWithToast } from '~/http/toast.server';
import { getVendorApplication, listVendorApplications } from '~/services/admin/vendors.server';
import { isAppError } from '~/services/errors';
import { reviewVendorApplication } from '~/services/vendor-review.server';
import { readListQuery } from '~/utils/list-query';
import { fetchPage } from '~/utils/paging';

const PATH = '/admin/vendors';

// Signed out: the layout shows the prompt; other roles are sent to / by the guard.
export async function adminVendorsLoader({ request }: LoaderFunctionArgs) {
  const actor = await adminPageUser(request);
  const url = new URL(request.url);
  const query = readListQuery(url, adminVendorsQuery);
  const id = url.searchParams.get('id');
  try {
    const { list, paging } = await fetchPage(query, (slice) => listVendorApplications(actor, { status: query.filters.status, search: query.q, ...slice }));
    const details = id ? await getVendorApplication(actor, id).catch((error) => (isAppError(error) && error.status === 404 ? null : Promise.reject(error))) : null;
    return json({ state: 'ok' as const, query, applications: list.applications, total: list.total, counts: list.counts, paging, details });
  } catch (error) {
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
}

export async function adminVendorsAction({ request }: ActionFunctionArgs) {
  const actor = await adminActionUser(request);
  const form = await request.formData().catch(() => null);
  if (!form) throw json({ message: 'The form could not be read' }, { status: 400 });
  const backField = String(form.get('back') ?? '');
  const back = backField.startsWith(PATH) ? backField : PATH;
  const submission = parseWithZod(form, { schema: vendorReviewFormSchema });
  if (submission.status !== 'success') return json({ lastResult: submission.reply() }, { status: 400 });
  const { id, ...review } = submission.value;
  try {
    const vendor = await reviewVendorApplication(actor, id, review);
    return redirectWithToast(back, { title: 'Application updated', description: `${vendor.businessName} is now ${VENDOR_STATUS_LABELS[vendor.applicationStatus].toLowerCase()}.`, variant: 'success' });
  } catch (error) {
    if (isAppError(error) && error.status === 400) return replyWithServiceError(submission, error);
    if (!isAppError(error) || error.status >= 500) console.error(error);
    return redirectWithToast(back, { title: 'Error', description: isAppError(error) && error.status < 500 ? error.message : 'Failed to update the application.', variant: 'destructive' });
  }
}
