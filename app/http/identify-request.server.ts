/** The photo of an identify request (POST /api/identify), read before the service sees it. */
import { Invalid, TooLarge, UnsupportedMediaType } from '~/services/errors';
import { MAX_IMAGE_BYTES } from '~/utils/constants';

/** Largest body we read: a 5 MB photo as base64 in JSON (4/3) plus room for the envelope. */
const MAX_BODY_BYTES = Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 64 * 1024;

/**
 * The photo of an identify request: JSON `{ imageData }` (a data URL) or multipart with the file
 * in the field `image` (the field `imageData` is accepted in both). Oversized bodies are refused
 * before they are read (413).
 */
export async function readIdentifyRequest(request: Request): Promise<unknown> {
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > MAX_BODY_BYTES) throw new TooLarge('Image too large (max 5MB)');
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('multipart/form-data') || type.includes('application/x-www-form-urlencoded')) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new Invalid('image_parse_error: the form could not be read');
    }
    return form.get('image') ?? form.get('imageData');
  }
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new TooLarge('Image too large (max 5MB)');
  if (type.includes('application/json') || text.trimStart().startsWith('{')) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Invalid('The request body is not valid JSON');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Invalid('The request body must be a JSON object');
    return (body as Record<string, unknown>).imageData ?? (body as Record<string, unknown>).image;
  }
  throw new UnsupportedMediaType('Send JSON { imageData } or a multipart form with the field image');
}

