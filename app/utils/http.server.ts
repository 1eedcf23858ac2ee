import { json, type TypedResponse } from '@remix-run/node';
import type { ZodTypeAny, z } from 'zod';
import { AppError, Invalid, TooLarge, isAppError, type FieldIssues } from '~/services/errors';

export interface ApiError {
  error: string;
  issues?: FieldIssues;
}

/** Maps anything thrown to the JSON answer of an /api route. Responses pass through. */
export function toApiErrorResponse(error: unknown): Response {
  if (error instanceof Response) return error;
  if (isAppError(error)) {
    const body: ApiError = { error: error.message };
    if (error.issues) body.issues = error.issues;
    return json(body, { status: error.status, headers: error.headers });
  }
  const mapped = mapLibraryError(error);
  if (mapped) return toApiErrorResponse(mapped);
  console.error(error);
  return json({ error: 'Something went wrong on our side. Please try again.' } satisfies ApiError, { status: 500 });
}

/** Wraps an /api loader or action so every failure becomes `{ error }` JSON with its status. */
export function api<Args, T>(handler: (args: Args) => Promise<T>) {
  return async (args: Args): Promise<Response> => {
    try {
      const result = await handler(args);
      if (result instanceof Response) return result;
      return json(result);
    } catch (error) {
      return toApiErrorResponse(error);
    }
  };
}

/** For pages: turns a service error into a thrown Response the error boundary renders. */
export function rethrowAsPageError(error: unknown): never {
  if (error instanceof Response) throw error;
  if (isAppError(error)) throw json({ message: error.message }, { status: error.status, headers: error.headers });
  const mapped = mapLibraryError(error);
  if (mapped) rethrowAsPageError(mapped);
  throw error;
}

/** Runs a page loader/action body and maps service errors to error-boundary responses. */
export async function page<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    rethrowAsPageError(error);
  }
}

function mapLibraryError(error: unknown): AppError | null {
  if (!(error instanceof Error)) return null;
  if (error.name === 'CSRFError') return new AppError(403, 'This form has expired or came from another site. Reload the page and try again.');
  if (error.name === 'SpamError') return new AppError(400, 'Form not submitted properly');
  if (error.name === 'MaxPartSizeExceededError' || /exceeded upload size|maxPartSize|MaxFileSize/i.test(error.message)) {
    return new TooLarge('File too large');
  }
  return null;
}

/** Zod issues as field -> messages (the first path segment names the field). */
export function zodIssues(error: z.ZodError): FieldIssues {
  const issues: FieldIssues = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : 'form';
    (issues[key] ??= []).push(issue.message);
  }
  return issues;
}

/** Parses a value with a zod schema, throwing Invalid with the schema's messages. */
export function parseWith<S extends ZodTypeAny>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = zodIssues(result.error);
    const first = Object.values(issues)[0]?.[0] ?? 'Invalid input';
    throw new Invalid(first, issues);
  }
  return result.data;
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
    const form = await request.formData();
    return Object.fromEntries(form.entries());
  }
  const text = await request.text();
  if (!text.trim()) return {};
  throw new Invalid('Send the request body as JSON (Content-Type: application/json)');
}

export function methodNotAllowed(allowed: string[]): TypedResponse<ApiError> {
  return json({ error: 'Method not allowed' }, { status: 405, headers: { Allow: allowed.join(', ') } });
}

export { AppError };

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
