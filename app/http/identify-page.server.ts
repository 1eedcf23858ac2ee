/**
 * The identify.tsx route's loader and action (the route module re-exports them). They live here, not in
 * the route module, so that the page's browser bundle reaches none of the modules they import (the
 * services, and zod and the form library for the action): in the browser this file is one empty module.
 */
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { optionalUser } from '~/http/guards.server';
import { canCreatePin } from '~/auth/permissions';
import { identificationToasts, requestFailureToast } from '~/components/identify-actions';
import { newPinSchema } from '~/forms/pins';
import { serviceErrorResult } from '~/http/form-reply.server';
import { timeZoneFromRequest } from '~/http/time-zone.server';
import { badgeToasts } from '~/components/reward-toasts';
import { handleAddToCollection } from '~/http/collection-form.server';
import { isAppError } from '~/services/errors';
import { identificationIndexStatus } from '~/services/identification/index.server';
import { chooseIdentifiedPin, getIdentificationResult, identifyPin, limitIdentifyRate, readPhoto, type IdentificationResult } from '~/services/identification/identify.server';
import { listOrganizations } from '~/services/organizations.server';
import { createPin } from '~/services/pins.server';
import { createSuggestion } from '~/services/suggestions.server';
import { MAX_PIN_PHOTOS } from '~/utils/constants';
import { page } from '~/http/page.server';
import { readFormData } from '~/http/body.server';
import { redirectWithToast } from '~/http/toast.server';


/** The photo plus up to 4 more photos of a new pin, 5 MB each, and the form fields. */
const MAX_FORM_BYTES = MAX_PIN_PHOTOS * 5 * 1024 * 1024 + 512 * 1024;

export async function identifyPageLoader({ request }: LoaderFunctionArgs) {
  return page(async () => {
    const user = await optionalUser(request);
    const resultId = new URL(request.url).searchParams.get('result');
    let result: IdentificationResult | null = null;
    let missing = false;
    if (resultId) {
      try {
        result = await getIdentificationResult(resultId);
      } catch (error) {
        if (!isAppError(error) || error.status !== 404) throw error;
        missing = true;
      }
    }
    const canAddPins = canCreatePin(user);
    const organizations = result && !result.identified && user ? (await listOrganizations()).map((o) => o.name) : [];
    const index = identificationIndexStatus().state;
    const warmingUp = index === 'loading' || index === 'building';
    return json({ result, missing, viewer: { signedIn: !!user, canAddPins }, organizations, warmingUp }, { status: missing ? 404 : 200 });
  });
}

export type ActionData =
  | { intent: 'identify'; error: { title: string; description?: string } }
  | { intent: 'addToCollection'; lastResult: unknown }
  | { intent: 'createPin'; lastResult: unknown }
  | { intent: 'suggestPin'; lastResult: unknown }
  | { intent: 'choosePin'; error: string };

export async function identifyPageAction({ request, context }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const resultId = url.searchParams.get('result');
  const here = resultId ? `/identify?result=${encodeURIComponent(resultId)}` : '/identify';
  let formData: FormData;
  try {
    formData = await readFormData(request, MAX_FORM_BYTES);
  } catch (error) {
    const status = isAppError(error) ? error.status : 400;
    return json<ActionData>({ intent: 'identify', error: requestFailureToast(status, isAppError(error) ? error.message : '') }, { status });
  }
  const intent = String(formData.get('intent') ?? 'identify');
  const user = await optionalUser(request);

  if (intent === 'addToCollection') return handleAddToCollection(request, formData, { redirectTo: here });

  if (intent === 'choosePin') {
    try {
      const result = await chooseIdentifiedPin(user, formData.get('identificationId'), formData.get('pinId'));
      return redirectWithToast(`/identify?result=${encodeURIComponent(result.identificationId)}`, {
        title: 'Pin Identified!',
        description: result.pin ? `You chose ${result.pin.name}.` : undefined,
        variant: 'success',
      });
    } catch (error) {
      if (isAppError(error) && error.status < 500) return json<ActionData>({ intent: 'choosePin', error: error.message }, { status: error.status });
      throw error;
    }
  }

  if (intent === 'createPin') return createPinFromIdentification(request, formData, user);
  if (intent === 'suggestPin') return suggestPinFromIdentification(formData, user);

  // identify: the file form of the identifier (no JavaScript)
  try {
    await limitIdentifyRate((context as { clientIp?: string }).clientIp);
    const photo = await readPhoto(formData.get('image'));
    const result = await identifyPin(user, photo, { timeZone: timeZoneFromRequest(request) });
    const [first, ...rest] = identificationToasts(result);
    return redirectWithToast(`/identify?result=${encodeURIComponent(result.identificationId)}`, { ...first, more: rest });
  } catch (error) {
    // 503: the identification index is still warming up at start (its message says to try again)
    if (isAppError(error) && (error.status < 500 || error.status === 503)) {
      return json<ActionData>({ intent: 'identify', error: requestFailureToast(error.status, error.message) }, { status: error.status, headers: error.headers });
    }
    console.error(error);
    return json<ActionData>({ intent: 'identify', error: requestFailureToast(500, '') }, { status: 500 });
  }
}

async function createPinFromIdentification(request: Request, formData: FormData, user: Awaited<ReturnType<typeof optionalUser>>) {
  const submission = parseWithZod(formData, { schema: newPinSchema });
  if (submission.status !== 'success') return json<ActionData>({ intent: 'createPin', lastResult: submission.reply() }, { status: 400 });
  const photoImageId = String(formData.get('photoImageId') ?? '');
  const files = formData.getAll('images').filter((f): f is File => f instanceof File && f.size > 0);
  const photos: (string | Blob)[] = [...(photoImageId ? [`/images/${photoImageId}`] : []), ...files];
  if (photos.length > MAX_PIN_PHOTOS) {
    const remaining = MAX_PIN_PHOTOS - (photoImageId ? 1 : 0);
    const message = `You can only add ${remaining} more photo(s). Maximum is ${MAX_PIN_PHOTOS} photos total.`;
    return json<ActionData>({ intent: 'createPin', lastResult: submission.reply({ fieldErrors: { images: [message] } }) }, { status: 400 });
  }
  const v = submission.value;
  try {
    const pin = await createPin(user, {
      name: v.name,
      description: v.description,
      organizationName: v.organizationName,
      totalQuantity: v.totalQuantity,
      year: v.year ?? null,
      event: v.event ?? null,
      teamId: v.teamId ?? null,
      images: photos,
      primaryPhotoIndex: 0,
    });
    return redirectWithToast(`/pins/${pin.id}`, {
      title: 'Pin Added',
      description: `${pin.name} is now in the database and in your collection.`,
      variant: 'success',
      more: badgeToasts(pin.newlyUnlockedBadges, pin.completedChallenges),
    });
  } catch (error) {
    if (isAppError(error) && error.status < 500) {
      return json<ActionData>({ intent: 'createPin', lastResult: serviceErrorResult(submission, error) }, { status: error.status, headers: error.headers });
    }
    console.error(error);
    return json<ActionData>({ intent: 'createPin', lastResult: submission.reply({ formErrors: ['Failed to Create Pin. Please try again.'] }) }, { status: 500 });
  }
}

/** A role that may not add pins suggests one: the same form and photos, into the review queue. */
async function suggestPinFromIdentification(formData: FormData, user: Awaited<ReturnType<typeof optionalUser>>) {
  const submission = parseWithZod(formData, { schema: newPinSchema });
  if (submission.status !== 'success') return json<ActionData>({ intent: 'suggestPin', lastResult: submission.reply() }, { status: 400 });
  const photoImageId = String(formData.get('photoImageId') ?? '') || null;
  const uploads = formData.getAll('images').filter((f): f is File => f instanceof File && f.size > 0);
  try {
    const suggestion = await createSuggestion(user, submission.value, { photoImageId, uploads });
    return redirectWithToast('/suggestions', {
      title: 'Suggestion sent',
      description: `An admin will review ${suggestion.name}. You will see the answer here.`,
      variant: 'success',
    });
  } catch (error) {
    if (isAppError(error) && error.status < 500) {
      return json<ActionData>({ intent: 'suggestPin', lastResult: serviceErrorResult(submission, error) }, { status: error.status, headers: error.headers });
    }
    throw error;
  }
}
