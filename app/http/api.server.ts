/** The /api resource routes: every failure becomes `{ error, issues? }` JSON with its status. */
import { json, type TypedResponse } from '@remix-run/node';
import { isAppError, type FieldIssues } from '~/services/errors';
import { mapLibraryError } from './errors.server';
import { clearStaleSession } from './guards.server';

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

/**
 * Wraps an /api loader or action so every failure becomes `{ error }` JSON with its status. A
 * session cookie whose session is gone is cleared on the way out.
 */
export function api<Args extends { request: Request }, T>(handler: (args: Args) => Promise<T>) {
  return async (args: Args): Promise<Response> => {
    let response: Response;
    try {
      const result = await handler(args);
      response = result instanceof Response ? result : json(result);
    } catch (error) {
      response = toApiErrorResponse(error);
    }
    const clear = await clearStaleSession(args.request);
    if (clear) response.headers.append('Set-Cookie', clear);
    return response;
  };
}

export function methodNotAllowed(allowed: string[]): TypedResponse<ApiError> {
  return json({ error: 'Method not allowed' }, { status: 405, headers: { Allow: allowed.join(', ') } });
}
