/**
 * The pins.$id.tsx route's loader and action (the route module re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, and zod and the form library for the action): in the browser this file is one empty module.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { optionalUser } from '~/http/guards.server';
import { pinEditSchema } from '~/forms/pins';
import { handleAddToCollection, handleUpdateCollectionEntry } from '~/http/collection-form.server';
import { getCollectionEntryForPin } from '~/services/collection.server';
import { isAppError } from '~/services/errors';
import { imageIdOf, imageSizes, VARIANT_SIZES } from '~/services/images.server';
import { deletePin, getPin, updatePin } from '~/services/pins.server';
import { marketplaceOffersForPin } from '~/services/marketplace.server';
import { pinTradeCounts } from '~/services/trades.server';
import { pinCommunity } from '~/services/community.server';
import { handleCommunityIntent, isCommunityIntent } from '~/http/community-form.server';
import { canEditPin } from '~/auth/permissions';
import { rethrowAsPageError } from '~/http/page.server';
import { serviceErrorResult } from '~/http/form-reply.server';
import { redirectWithToast } from '~/http/toast.server';


export async function pinPageLoader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await optionalUser(request);
  let pin;
  try {
    pin = await getPin(params.id ?? '');
  } catch (error) {
    if (isAppError(error) && error.status === 404) return json({ notFound: true as const, pin: null }, { status: 404 });
    rethrowAsPageError(error);
  }
  const canEdit = canEditPin(user, pin);
  const own = user ? await getCollectionEntryForPin(user.id, pin.id) : null;
  const ownEntry = own ? { status: own.status, quantity: own.quantity, condition: own.condition, tradeable: own.tradeable, notes: own.notes } : null;
  // dimensions of the full-size variants, so the main image reserves its space (no layout shift)
  const ids = pin.images.map((u) => imageIdOf(u)).filter((x): x is string => !!x);
  const sizes = await imageSizes(ids);
  const photos = pin.images.map((src, i) => {
    const size = sizes.get(ids[i] ?? '');
    const scale = size ? Math.min(1, VARIANT_SIZES.full / Math.max(size.width, size.height)) : 1;
    return {
      src,
      thumb: `${src}?s=thumb`,
      width: size ? Math.round(size.width * scale) : 1024,
      height: size ? Math.round(size.height * scale) : 1024,
    };
  });
  const imageParam = Number(url.searchParams.get('image') ?? '0');
  const shown = Number.isInteger(imageParam) && imageParam >= 0 && imageParam < photos.length ? imageParam : 0;
  return json({
    notFound: false as const,
    pin,
    photos,
    shown,
    canEdit,
    signedIn: !!user,
    ownEntry,
    offers: await marketplaceOffersForPin(pin.id),
    trade: await pinTradeCounts(pin.id),
    ...(await pinCommunity(user, pin)),
    editCommentId: url.searchParams.get('editComment'),
    confirmDeleteCommentId: url.searchParams.get('confirm') === 'deleteComment' ? url.searchParams.get('comment') : null,
    // the confirm steps rendered by the server (no JavaScript needed)
    confirmDelete: canEdit && url.searchParams.get('confirm') === 'delete',
    editOpen: canEdit && url.searchParams.get('edit') === '1',
  });
}

export async function pinPageAction({ request, params }: ActionFunctionArgs) {
  const id = params.id ?? '';
  // a body that is not a form (bad multipart, JSON) is the client's mistake: 400, not 500
  const formData = await request.formData().catch(() => null);
  if (!formData) throw json({ message: 'The form could not be read' }, { status: 400 });
  const intent = formData.get('intent');
  if (intent === 'addToCollection') return handleAddToCollection(request, formData, { redirectTo: `/pins/${id}` });
  if (intent === 'updateCollectionEntry') return handleUpdateCollectionEntry(request, formData, { redirectTo: `/pins/${id}` });
  if (isCommunityIntent(intent)) return handleCommunityIntent(request, formData, id);

  const user = await optionalUser(request);
  if (intent === 'edit') {
    const submission = parseWithZod(formData, { schema: pinEditSchema });
    if (submission.status !== 'success') return json({ intent: 'edit' as const, lastResult: submission.reply() }, { status: 400 });
    const v = submission.value;
    try {
      const pin = await updatePin(user, id, {
        name: v.name,
        description: v.description ?? null,
        totalQuantity: v.totalQuantity,
        year: v.year ?? null,
        event: v.event ?? null,
      });
      return redirectWithToast(`/pins/${id}`, { title: 'Pin updated', description: `${pin.name} was saved.`, variant: 'success' });
    } catch (error) {
      if (isAppError(error) && error.status === 400) {
        return json({ intent: 'edit' as const, lastResult: serviceErrorResult(submission, error) }, { status: 400 });
      }
      if (isAppError(error) && error.status < 500) rethrowAsPageError(error);
      console.error(error);
      return redirectWithToast(`/pins/${id}`, { title: 'Failed to update pin', description: 'Please try again later.', variant: 'destructive' });
    }
  }
  if (intent === 'delete') {
    let name = 'The pin';
    try {
      name = (await getPin(id)).name;
      await deletePin(user, id);
    } catch (error) {
      if (isAppError(error) && error.status < 500) rethrowAsPageError(error);
      console.error(error);
      return redirectWithToast(`/pins/${id}`, { title: 'Failed to delete pin', description: 'Please try again later.', variant: 'destructive' });
    }
    return redirectWithToast('/browse', { title: 'Pin deleted', description: `${name} was removed from the database.`, variant: 'success' });
  }
  throw json({ message: 'Unknown action' }, { status: 400 });
}
