/**
 * Typed errors thrown by services. One helper (utils/http.server.ts) maps them to HTTP:
 * pages render them in the error boundary, /api routes answer `{ error, issues? }`.
 */
export type FieldIssues = Record<string, string[]>;

export class AppError extends Error {
  readonly status: number;
  readonly issues?: FieldIssues;
  readonly headers?: Record<string, string>;
  constructor(status: number, message: string, issues?: FieldIssues, headers?: Record<string, string>) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.issues = issues;
    this.headers = headers;
  }
}

export class Invalid extends AppError {
  constructor(message = 'Invalid input', issues?: FieldIssues) {
    super(400, message, issues);
  }
}
export class Unauthorized extends AppError {
  constructor(message = 'Please sign in to continue') {
    super(401, message);
  }
}
export class Forbidden extends AppError {
  constructor(message = 'You do not have permission to do that') {
    super(403, message);
  }
}
export class NotFound extends AppError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}
export class Conflict extends AppError {
  constructor(message = 'Conflict', issues?: FieldIssues) {
    super(409, message, issues);
  }
}
/** A link or offer that existed and is no longer usable (an expired or revoked invite). */
export class Gone extends AppError {
  constructor(message = 'This link is no longer valid') {
    super(410, message);
  }
}
export class TooLarge extends AppError {
  constructor(message = 'File too large') {
    super(413, message);
  }
}
export class UnsupportedMediaType extends AppError {
  constructor(message = 'Invalid file type') {
    super(415, message);
  }
}
export class TooManyRequests extends AppError {
  constructor(message = 'Too many requests. Please wait a moment and try again.', retryAfterSeconds = 60) {
    super(429, message, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** A part of the service that is not ready yet (the identification index warming up at start). */
export class ServiceUnavailable extends AppError {
  constructor(message = 'This service is temporarily unavailable. Please try again in a few seconds.', retryAfterSeconds = 5) {
    super(503, message, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
