/** Service errors on pages: a thrown Response that the route's error boundary renders. */
import { json } from '@remix-run/node';
import { isAppError } from '~/services/errors';
import { mapLibraryError } from './errors.server';

/** Turns a service error into a thrown Response (its status and message) for the error boundary. */
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
