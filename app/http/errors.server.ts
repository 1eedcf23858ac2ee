/**
 * Errors thrown by libraries on the route side (remix-utils' CSRF and honeypot checks, multipart
 * parsing), named as the typed errors of app/services/errors.ts so they answer 4xx, not 500.
 */
import { AppError, TooLarge } from '~/services/errors';

export function mapLibraryError(error: unknown): AppError | null {
  if (!(error instanceof Error)) return null;
  if (error.name === 'CSRFError') return new AppError(403, 'This form has expired or came from another site. Reload the page and try again.');
  if (error.name === 'SpamError') return new AppError(400, 'Form not submitted properly');
  if (error.name === 'MaxPartSizeExceededError' || /exceeded upload size|maxPartSize|MaxFileSize/i.test(error.message)) {
    return new TooLarge('File too large');
  }
  return null;
}
