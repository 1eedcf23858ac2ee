/** Reading request bodies: JSON or forms into plain values for services, refusing what is too large. */
import { Invalid, TooLarge } from '~/services/errors';

/**
 * A form as a plain object. A key sent once is a value; a key sent more than once (a checkbox
 * group, `give=a&give=b`) is the list of its values, in order; `name[]` is always a list under
 * `name` (`pins[]=a` is `{ pins: ['a'] }`).
 */
export function formToObject(form: FormData): Record<string, unknown> {
  // a Map, so that no key (not even `__proto__`) touches an object's prototype
  const out = new Map<string, unknown>();
  const lists = new Set<string>();
  for (const [rawKey, value] of form.entries()) {
    const isList = rawKey.endsWith('[]') && rawKey.length > 2;
    const key = isList ? rawKey.slice(0, -2) : rawKey;
    if (!out.has(key)) {
      out.set(key, isList ? [value] : value);
      if (isList) lists.add(key);
    } else if (lists.has(key)) {
      (out.get(key) as unknown[]).push(value);
    } else {
      out.set(key, [out.get(key), value]);
      lists.add(key);
    }
  }
  return Object.fromEntries(out);
}

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
    return formToObject(form);
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
