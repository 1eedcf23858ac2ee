/** Reading request bodies: JSON or forms into plain values for services, refusing what is too large. */
import { Invalid, TooLarge } from '~/services/errors';

/** Reads a JSON body (or a urlencoded form, for clients that send forms) as a plain object. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    const text = await request.text();
    if (!text.trim()) return {};
    try {
      const value: unknown = JSON.parse(text);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      throw new Invalid('The request body is not valid JSON');
    }
    throw new Invalid('The request body must be a JSON object');
  }
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      // a multipart type without a boundary, a JSON body under a form type, a part never closed
      throw new Invalid('The form could not be read');
    }
    return Object.fromEntries(form.entries());
  }
  const text = await request.text();
  if (!text.trim()) return {};
  throw new Invalid('Send the request body as JSON (Content-Type: application/json)');
}

/**
 * Reads a form (urlencoded or multipart) after refusing bodies that are obviously too large,
 * so an oversized upload is a 413 rather than memory spent. `maxBytes` is for the whole body.
 */
export async function readFormData(request: Request, maxBytes = 6 * 1024 * 1024): Promise<FormData> {
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > maxBytes) throw new TooLarge('File too large');
  try {
    return await request.formData();
  } catch {
    throw new Invalid('The form could not be read');
  }
}
