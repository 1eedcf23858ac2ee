import type { CreatePinInput } from '~/services/pins.server';
import { readBody, readFormData } from './body.server';
import { MAX_IMAGE_BYTES, MAX_PIN_PHOTOS } from '~/utils/constants';

/** Multipart (files) or JSON / urlencoded (images as data URLs or base64) into the service input. */
export async function readPinPayload(request: Request): Promise<CreatePinInput> {
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('multipart/form-data')) {
    const form = await readFormData(request, MAX_PIN_PHOTOS * MAX_IMAGE_BYTES + 1024 * 1024);
    const fields: Record<string, unknown> = {};
    for (const [key, value] of form.entries()) if (key !== 'images' && typeof value === 'string') fields[key] = value;
    // an empty file input still sends one nameless, empty part
    const images = form.getAll('images').filter((v) => (typeof v === 'string' ? v.trim() !== '' : v.size > 0));
    // no image parts (or only an empty file input) leaves the images as they are on an update
    return { ...(fields as unknown as CreatePinInput), images: images.length ? (images as (Blob | string)[]) : undefined };
  }
  const body = await readBody(request);
  // JSON: `images` is the full new list (existing '/images/{id}' refs are kept, data URLs added);
  // a single string is one image; absent leaves them as they are
  const images = typeof body.images === 'string' ? [body.images] : body.images;
  return { ...(body as unknown as CreatePinInput), images: images as CreatePinInput['images'] };
}
