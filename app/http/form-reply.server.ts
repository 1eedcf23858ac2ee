/**
 * The one way an action answers a form that the service refused: a conform reply with the field
 * issues under their fields and anything else as the form's own error, with the error's status.
 * Errors of 500 and above are not the user's to fix: they are thrown on to the error boundary.
 */
import { json } from '@remix-run/node';
import type { Submission, SubmissionResult } from '@conform-to/react';
import { isAppError, type AppError } from '~/services/errors';
import { mapLibraryError } from './errors.server';

export interface ReplyOptions {
  /** fields whose submitted values are not sent back (passwords) */
  hideFields?: string[];
  /**
   * Also show the message as the form's error when the service refused for a reason other than
   * bad input (status other than 400), even though it named a field: e.g. 'Error completing setup'.
   */
  refusalAsFormError?: boolean;
  /** an issue key of the service that is a different field name in this form */
  renameFields?: Record<string, string>;
  /** the field a 404 that names no field belongs to (e.g. `pinId`: the pin chosen is gone) */
  notFoundField?: string;
}

/** The conform reply for a service error (field issues under their fields, the rest as the form error). */
export function serviceErrorResult<T>(submission: Submission<T>, error: AppError, options: ReplyOptions = {}): SubmissionResult<string[]> {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const [key, messages] of Object.entries(error.issues ?? {})) {
    if (key === 'form') formErrors.push(...messages);
    else fieldErrors[options.renameFields?.[key] ?? key] = messages;
  }
  if (error.status === 404 && options.notFoundField && !error.issues) fieldErrors[options.notFoundField] = [error.message];
  const named = formErrors.length > 0 || Object.keys(fieldErrors).length > 0;
  if (!named || (options.refusalAsFormError && error.status !== 400 && !formErrors.length)) formErrors.push(error.message);
  return submission.reply({ formErrors, fieldErrors, hideFields: options.hideFields });
}

/** Answers the action with the conform reply for `error` (rethrowing what is not a client error). */
export function replyWithServiceError<T, E extends object = Record<never, never>>(
  submission: Submission<T>,
  error: unknown,
  options: ReplyOptions & { /** more keys of the action data beside `lastResult` (e.g. `intent`) */ extra?: E } = {},
) {
  const known = isAppError(error) ? error : mapLibraryError(error);
  if (!known || known.status >= 500) throw error;
  const body = { ...(options.extra as E), lastResult: serviceErrorResult(submission, known, options) };
  return json(body, { status: known.status, headers: known.headers });
}

/** Answers the action with conform's own reply for input that failed the form's schema (400). */
export function replyWithInvalid<T, E extends object = Record<never, never>>(submission: Submission<T>, options: Pick<ReplyOptions, 'hideFields'> & { extra?: E } = {}) {
  const body = { ...(options.extra as E), lastResult: submission.reply({ hideFields: options.hideFields }) };
  return json(body, { status: 400 });
}
