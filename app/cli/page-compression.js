/**
 * A rendered page, or a JSON answer, compressed in one call. Pages are rendered to one string
 * (app/entry.server.tsx) and JSON answers are one string too, so there is nothing to stream:
 * compressing the whole body at once, before it is sent, costs about half the CPU of the
 * compression middleware's stream (a 26 KB home page: about 0.5 ms instead of 0.7-0.9 ms of brotli
 * on a busy machine), the same bytes; and an answer under 1 KB is not compressed at all (the
 * middleware could not tell a streamed answer's size and compressed even `/healthz`). The
 * middleware then leaves the answer alone; it still compresses what is streamed (files, CSV).
 */
import zlib from 'node:zlib';

/**
 * Brotli at quality 3 with a 256 KB window instead of the default 4 MB. The window: the same bytes
 * for a page (pages are far smaller) at a quarter of the CPU (a 42 KB browse page: 1.1 -> 0.27 ms
 * at quality 4). Quality 3 instead of 4: about half the CPU for 5% more bytes (the 41 KB browse
 * page: 378 -> 200 us for 6,597 -> 6,945 bytes; the 26 KB home page 306 -> 166 us, 5,388 ->
 * 5,691), about 1.7 ms more on a slow 4G line (1.6 Mbit/s), still smaller than gzip's 6,815.
 * The server's compression middleware uses the same.
 */
export const BROTLI_PAGE_PARAMS = { [zlib.constants.BROTLI_PARAM_QUALITY]: 3, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 };

/** Under this, compression gains nothing (the middleware's threshold). */
const THRESHOLD = 1024;

/** `br` or `gzip` when the Accept-Encoding header takes it (brotli first), else null. */
export function pageEncoding(acceptEncoding) {
  if (!acceptEncoding) return null;
  const accepted = new Map();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const takes = (name) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return takes('br') ? 'br' : takes('gzip') ? 'gzip' : null;
}

/** Answers sent whole: HTML pages and JSON (Remix's `json()`, the loaders' data and /api). */
export function isWholeAnswer(contentType) {
  return /^(text\/html|application\/json)\b/i.test(contentType ?? '');
}

/**
 * Ends `res` with `body` (a Buffer), compressed when it is an HTML page or JSON of 1 KB or more
 * that the request accepts compressed and nothing else encoded. Status and headers are set by the
 * caller.
 */
export function endWhole(req, res, body) {
  if (isWholeAnswer(String(res.getHeader('Content-Type') ?? ''))) {
    res.vary('Accept-Encoding');
    const encoding = req.method === 'HEAD' || body.length < THRESHOLD || res.getHeader('Content-Encoding') || /no-transform/i.test(String(res.getHeader('Cache-Control') ?? '')) ? null : pageEncoding(req.get('Accept-Encoding'));
    if (encoding) {
      body = encoding === 'br' ? zlib.brotliCompressSync(body, { params: { ...BROTLI_PAGE_PARAMS, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }) : zlib.gzipSync(body);
      res.set('Content-Encoding', encoding);
    }
  }
  res.set('Content-Length', String(body.length));
  res.end(body);
}
