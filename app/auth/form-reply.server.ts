/**
 * Turns a service error into a conform reply for the form that caused it: field issues go under
 * their fields, anything else is a form-level message; the HTTP status is the error's own.
 */
import { json } from '@remix-run/node';
import type { Submission } from '@conform-to/react';
import { isAppError } from '~/services/errors';

export function replyWithServiceError<T>(
  submission: Submission<T>,
  error: unknown,
  options: { hideFields?: string[]; extra?: Record<string, unknown> } = {},
) {
  if (!isAppError(error) || error.status >= 500) throw error;
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const [key, messages] of Object.entries(error.issues ?? {})) {
    if (key === 'form') formErrors.push(...messages);
    else fieldErrors[key] = messages;
  }
  if (!formErrors.length && !Object.keys(fieldErrors).length) formErrors.push(error.message);
  return json(
    { ...options.extra, lastResult: submission.reply({ formErrors, fieldErrors, hideFields: options.hideFields }) },
    { status: error.status, headers: error.headers },
  );
}
