import type { LoaderFunctionArgs } from '@remix-run/node';
import { getImageVariant } from '~/services/images.server';
import { isAppError } from '~/services/errors';
import type { ImageFormat, ImageVariant } from '~/utils/constants';

/**
 * Image bytes: /images/{id} (full, 1024 px), ?s=thumb (320 px), ?s=master (normalised original).
 * WebP for browsers that accept it, JPEG otherwise (?f=jpeg|webp forces one). Content-addressed,
 * so cached for a year as immutable, with an ETag for revalidation.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = params.id ?? '';
  if (!/^[a-f0-9]{32}$/.test(id)) return new Response('Not found', { status: 404 });
  const url = new URL(request.url);
  const s = url.searchParams.get('s');
  const variant: ImageVariant | 'master' = s === 'thumb' ? 'thumb' : s === 'master' ? 'master' : 'full';
  const f = url.searchParams.get('f');
  const accepts = request.headers.get('Accept') ?? '';
  const format: ImageFormat = f === 'jpeg' || f === 'webp' ? f : accepts.includes('image/webp') ? 'webp' : 'jpeg';
  const etag = `"${id}-${variant}-${variant === 'master' ? 'jpeg' : format}"`;
  const headers = {
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: etag,
    Vary: 'Accept',
  };
  if (request.headers.get('If-None-Match') === etag) return new Response(null, { status: 304, headers });
  try {
    const image = await getImageVariant(id, variant, format);
    return new Response(new Uint8Array(image.bytes), {
      headers: { ...headers, 'Content-Type': `image/${image.format}`, 'Content-Length': String(image.bytes.byteLength) },
    });
  } catch (error) {
    if (isAppError(error) && error.status === 404) return new Response('Not found', { status: 404 });
    throw error;
  }
}
