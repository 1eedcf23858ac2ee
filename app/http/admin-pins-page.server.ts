/**
 * The loader and action of /admin/pins (routes/admin.pins.tsx re-exports them). They live here,
 * not in the route module, so that the page's browser bundle reaches none of the modules they
 * import (the services, zod and the form library): in the browser this file is one empty module.
 * The pin form reads the action's reply with ui/form-state.ts; the checking is the action's.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { canViewAuditLog } from '~/auth/permissions';
import { adminPinSchema, adminPinsQuery, arrangePhotos, MAX_PIN_PHOTOS, PHOTO_LIMIT_MESSAGE, PHOTO_LIMIT_TITLE } from '~/forms/admin';
import { readFormData } from '~/http/body.server';
import { replyWithServiceError } from '~/http/form-reply.server';
import { adminActionUser, adminPageUser } from '~/http/guards.server';
import { rethrowAsPageError } from '~/http/page.server';
import { redirectWithToast, type ToastInput } from '~/http/toast.server';
import { recordHistory } from '~/services/admin/audit-log.server';
import { createAdminPin, getAdminPin, listAdminPins, pinFormChoices, pinTabTotals, setPinsFeatured, updateAdminPin } from '~/services/admin/pins.server';
import { isAppError } from '~/services/errors';
import { deletePin } from '~/services/pins.server';
import type { AdminPin } from '~/types/admin';
import { MAX_IMAGE_BYTES } from '~/utils/constants';
import { formatCount } from '~/utils/format';
import { listQueryHref, readDialog, readListQuery } from '~/utils/list-query';
import { fetchPage } from '~/utils/paging';

const PATH = '/admin/pins';
const DIALOGS = ['new', 'edit', 'delete'] as const;

// Signed out: the layout shows the prompt; other roles are sent to / by the guard.
export async function adminPinsLoader({ request }: LoaderFunctionArgs) {
  const actor = await adminPageUser(request);
  const url = new URL(request.url);
  const query = readListQuery(url, adminPinsQuery);
  const { dialog, dialogId } = readDialog(url, DIALOGS);
  try {
    const filters = { search: query.q, organizationId: query.filters.organizationId, rarity: query.filters.rarity, featured: query.filters.featured, sort: query.sort, dir: query.dir };
    const { list, paging } = await fetchPage(query, (slice) => listAdminPins(actor, { ...filters, ...slice }));
    const [totals, choices] = await Promise.all([pinTabTotals(actor), pinFormChoices(actor)]);
    let target: AdminPin | null = null;
    if (dialogId && (dialog === 'edit' || dialog === 'delete')) {
      target = list.pins.find((p) => p.id === dialogId) ?? (await getAdminPin(actor, dialogId).catch(() => null));
    }
    const history = target && dialog === 'edit' && canViewAuditLog(actor) ? await recordHistory(actor, 'pin', target.id) : null;
    return json({ state: 'ok' as const, query, pins: list.pins, total: list.total, paging, totals, choices, dialog: dialog === 'new' || target ? dialog : null, target, history });
  } catch (error) {
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
}

type Intent = 'createPin' | 'updatePin' | 'deletePin' | 'feature' | 'unfeature';
const FAILURE: Record<Intent, string> = {
  createPin: 'Error creating pin',
  updatePin: 'Error updating pin',
  deletePin: 'Error deleting pin',
  feature: 'Error updating pins',
  unfeature: 'Error updating pins',
};

const failure = (error: unknown, fallback: string) => {
  if (isAppError(error) && error.status < 500) return error.message;
  console.error(error);
  return fallback;
};

export async function adminPinsAction({ request }: ActionFunctionArgs) {
  const actor = await adminActionUser(request);
  let form: FormData;
  try {
    form = await readFormData(request, MAX_PIN_PHOTOS * MAX_IMAGE_BYTES + 1024 * 1024);
  } catch (error) {
    rethrowAsPageError(error);
  }
  const intent = String(form.get('intent') ?? '') as Intent;
  const backField = String(form.get('back') ?? '');
  // the bulk form posts the list's state instead of a `back`
  const back = backField.startsWith(`${PATH}`) ? backField : listQueryHref(PATH, readListQuery(form, adminPinsQuery));
  const id = String(form.get('id') ?? '');

  if (intent === 'createPin' || intent === 'updatePin') {
    const submission = parseWithZod(form, { schema: adminPinSchema });
    if (submission.status !== 'success') return json({ intent, id, lastResult: submission.reply() }, { status: 400 });
    const v = submission.value;
    const uploads = form.getAll('photos').filter((f): f is File => typeof f !== 'string' && f.size > 0);
    try {
      const current = intent === 'updatePin' ? await getAdminPin(actor, id) : null;
      const arranged = arrangePhotos(current?.images ?? [], v.keep, uploads, v.primary, current?.primaryPhotoIndex ?? 0);
      const photosChanged = !current || uploads.length > 0 || arranged.photos.length !== current.images.length;
      const fields = {
        name: v.name,
        organizationId: v.organizationId,
        description: v.description ?? null,
        teamId: v.teamId ?? null,
        totalQuantity: v.totalQuantity,
        year: v.year ?? null,
        event: v.event ?? null,
        distributionDate: v.distributionDate ?? null,
        estimatedValue: v.estimatedValue ?? null,
        isFeatured: v.isFeatured,
        primaryPhotoIndex: arranged.primaryPhotoIndex,
        ...(photosChanged ? { images: arranged.photos } : {}),
      };
      const saved = current ? await updateAdminPin(actor, current.id, fields) : await createAdminPin(actor, fields);
      const toast: ToastInput = {
        title: current ? 'Pin updated' : 'Pin created',
        description: `${saved.name} is saved${saved.images.length ? ' and identifiable from a photo' : ''}.`,
        variant: 'success',
      };
      if (arranged.ignored > 0) toast.more = [{ title: PHOTO_LIMIT_TITLE, description: PHOTO_LIMIT_MESSAGE, variant: 'destructive' }];
      return redirectWithToast(back, toast);
    } catch (error) {
      if (isAppError(error) && error.status !== 404 && error.status < 500) {
        return replyWithServiceError(submission, error, { extra: { intent, id }, renameFields: { images: 'keep', organizationName: 'organizationId' } });
      }
      return redirectWithToast(back, { title: FAILURE[intent], description: failure(error, intent === 'createPin' ? 'Failed to create pin' : 'Failed to update pin'), variant: 'destructive' });
    }
  }

  if (intent === 'deletePin') {
    try {
      const pin = await getAdminPin(actor, id);
      await deletePin(actor, id);
      return redirectWithToast(back, { title: 'Pin deleted', description: `${pin.name} and its identification records were deleted.`, variant: 'success' });
    } catch (error) {
      return redirectWithToast(back, { title: FAILURE.deletePin, description: failure(error, 'Failed to delete pin'), variant: 'destructive' });
    }
  }

  if (intent === 'feature' || intent === 'unfeature') {
    const featured = intent === 'feature';
    try {
      const target =
        form.get('scope') === 'all'
          ? (() => {
              const q = readListQuery(form, adminPinsQuery);
              return { filters: { search: q.q, organizationId: q.filters.organizationId, rarity: q.filters.rarity, featured: q.filters.featured } };
            })()
          : { pinIds: form.getAll('ids').map(String) };
      const result = await setPinsFeatured(actor, target, featured);
      const n = result.updated;
      return redirectWithToast(back, {
        title: 'Pins updated',
        description: n === 0 ? `The pins chosen were already ${featured ? 'featured' : 'not featured'}.` : `${formatCount(n)} ${n === 1 ? 'pin' : 'pins'} ${featured ? 'featured' : 'unfeatured'}.`,
        variant: 'success',
      });
    } catch (error) {
      return redirectWithToast(back, { title: FAILURE[intent], description: failure(error, 'Failed to update pins'), variant: 'destructive' });
    }
  }
  throw json({ message: 'Unknown action' }, { status: 400 });
}
