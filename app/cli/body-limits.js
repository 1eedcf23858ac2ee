/**
 * Request body limits, enforced before anything reads a body: a write whose Content-Length is
 * over its route's limit gets 413 at once (a 50 MB JSON body is not read to be refused), and a
 * write that streams a body without a length gets 411.
 *
 * - forms and JSON: 1 MB;
 * - multipart uploads: five photos of 5 MB (the most any form takes) plus form overhead;
 * - JSON that carries photos as base64 (/api/identify, the pin creation calls): the same, as base64.
 * Routes still check their own smaller limits (one 5 MB photo, a 100 KB roster file) themselves.
 */
const MB = 1024 * 1024;
export const SMALL_BODY_BYTES = 1 * MB;
export const UPLOAD_BODY_BYTES = 5 * 5 * MB + 1 * MB;
export const BASE64_UPLOAD_BODY_BYTES = Math.ceil((UPLOAD_BODY_BYTES * 4) / 3);

/** JSON calls whose body may carry photos as base64 (data URLs). */
const BASE64_IMAGE_ROUTES = [/^\/api\/identify\/?$/, /^\/api\/pins\/?$/, /^\/api\/pins\/[^/]+\/?$/, /^\/api\/admin\/pins(\/[^/]+)?\/?$/, /^\/api\/teams\/[^/]+\/pins\/?$/, /^\/api\/marketplace\/pins(\/[^/]+)?\/?$/, /^\/api\/user\/profile-picture\/?$/];

/**
 * @param {string} path
 * @param {string | undefined} contentType
 */
export function bodyLimit(path, contentType = '') {
  if (contentType.includes('multipart/form-data')) return UPLOAD_BODY_BYTES;
  if (BASE64_IMAGE_ROUTES.some((re) => re.test(path))) return BASE64_UPLOAD_BODY_BYTES;
  return SMALL_BODY_BYTES;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Express middleware: 413 over the limit, 411 for a streamed body of unknown length. */
export function bodyLimits() {
  /**
   * @param {import('express').Request} req
   * @param {import('express').Response} res
   * @param {import('express').NextFunction} next
   */
  return (req, res, next) => {
    if (!WRITES.has(req.method)) return next();
    const lengthHeader = req.get('Content-Length');
    const chunked = (req.get('Transfer-Encoding') ?? '').toLowerCase().includes('chunked');
    const refuse = (status, message) => {
      // answered at once; Node discards whatever the client still sends (it is never buffered)
      if (req.path.startsWith('/api/')) res.status(status).type('application/json').send(JSON.stringify({ error: message }));
      else res.status(status).type('text/plain').send(message);
    };
    if (lengthHeader === undefined) {
      if (chunked) return refuse(411, 'Send the request body with a Content-Length');
      return next();
    }
    const length = Number(lengthHeader);
    if (!Number.isFinite(length) || length < 0) return refuse(400, 'Bad Content-Length');
    const limit = bodyLimit(req.path, req.get('Content-Type'));
    if (length > limit) return refuse(413, `Request body too large (max ${Math.round(limit / MB)} MB)`);
    next();
  };
}
