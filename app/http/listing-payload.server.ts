/** Reads a listing's fields and images from a multipart form, or its fields from JSON. */
import { MAX_IMAGE_BYTES, MAX_PIN_PHOTOS } from '~/utils/constants';
import { readBody, readFormData } from './body.server';

export async function readListingPayload(request: Request): Promise<{ fields: Record<string, unknown>; images: File[] }> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.includes('multipart/form-data')) return { fields: await readBody(request), images: [] };
  const form = await readFormData(request, (MAX_PIN_PHOTOS + 1) * MAX_IMAGE_BYTES + 1024 * 1024);
  return listingFromForm(form);
}

export function listingFromForm(form: FormData): { fields: Record<string, unknown>; images: File[] } {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of form.entries()) {
    if (key === 'images' || key === 'intent') continue;
    if (key === 'keepImages') {
      const kept = (fields.keepImages as string[] | undefined) ?? [];
      kept.push(String(value));
      fields.keepImages = kept;
    } else if (typeof value === 'string') fields[key] = value;
  }
  const images = form.getAll('images').filter((v): v is File => typeof v !== 'string' && v.size > 0);
  return { fields, images };
}
