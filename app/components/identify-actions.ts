/**
 * The identifier's work once a photo is chosen or the camera starts: the request, the picture's
 * resizing, the camera's error messages and the toasts of spec §8. The server's /identify action
 * shares the toasts. It loads with the page: loaded later (a dynamic import, 1 KB gzip), it was the
 * only module of the browser build without React, which kept esbuild's runtime helpers in a file of
 * their own on every page (docs/speed.md, "Front end").
 */
import type { IdentificationResult } from '~/types/identification';
import { badgeToasts } from './reward-toasts';

const JPEG_QUALITY = 0.92;

/** Spec §8: the toasts of a finished identification (the result still goes to the parent). */
export function identificationToasts(result: IdentificationResult) {
  const list: { title: string; description?: string; variant?: 'default' | 'success' | 'destructive' }[] = [];
  if (result.serviceUnavailable) {
    list.push({
      title: 'AI Service Temporarily Unavailable',
      description: result.message || 'Our AI identification service is temporarily unavailable. You can still help identify this pin manually!',
      variant: 'destructive',
    });
  } else if (result.error || (result.analysis?.confidence === 0 && /unavailable/i.test(result.message ?? ''))) {
    list.push({
      title: 'Image Analysis Failed',
      description: result.error || result.message || 'Unable to analyze this image. Please try a different image or help us identify it manually.',
      variant: 'destructive',
    });
  } else if (result.identified && result.pin) {
    list.push({ title: 'Pin Identified!', description: `Found ${result.pin.name} with ${result.confidence}% confidence`, variant: 'success' });
  } else {
    list.push({ title: 'Analysis Complete', description: result.message || "No exact match found, but we've analyzed the pin" });
  }
  list.push(...badgeToasts(result.newlyUnlockedBadges ?? [], result.completedChallenges ?? []));
  return list;
}

/** Spec §8: a failed identification request. */
export function requestFailureToast(status: number, errorText: string) {
  if (/image_parse_error/.test(errorText)) {
    return { title: 'Unsupported Image', description: 'This image format is not supported. Please try a different image with a clear view of your pin.', variant: 'destructive' as const };
  }
  if (status === 413) return { title: 'Image Too Large', description: 'Please try a smaller image (max 5MB).', variant: 'destructive' as const };
  if (status === 400) {
    return { title: 'Invalid Image', description: 'Please try a different image format or ensure the image shows a clear view of your pin.', variant: 'destructive' as const };
  }
  // the identification index warming up at start: the server's message says to try again shortly
  if (status === 503 && errorText) return { title: 'AI Service Temporarily Unavailable', description: errorText, variant: 'destructive' as const };
  if (status >= 500) return { title: 'Server Error', description: 'Please try again in a few moments.', variant: 'destructive' as const };
  return { title: 'Identification Failed', description: errorText || 'Unable to analyze the pin image. Please try again.', variant: 'destructive' as const };
}

export async function postIdentify(imageData: string): Promise<{ ok: true; result: IdentificationResult } | { ok: false; status: number; text: string }> {
  let res: Response;
  try {
    res = await fetch('/api/identify', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ imageData }),
    });
  } catch {
    return { ok: false, status: 0, text: '' };
  }
  if (!res.ok) {
    const body = await res.text().catch(() => '');
    let message = body;
    try {
      const parsed = JSON.parse(body) as { error?: unknown };
      if (typeof parsed.error === 'string') message = parsed.error;
    } catch {
      // not JSON: the text as it came
    }
    return { ok: false, status: res.status, text: message || res.statusText };
  }
  return { ok: true, result: (await res.json()) as IdentificationResult };
}

export function cameraErrorMessage(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'PermissionDeniedError' || name === 'SecurityError') {
    return 'Permission denied. Enable camera access in your browser settings.';
  }
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError') return 'No camera found on this device.';
  return error instanceof Error && error.message ? error.message : 'Failed to start camera.';
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/**
 * Longest side of the picture sent for identification. The matcher brings every photo to 1024 px, so
 * a phone's 12-megapixel photo (3-5 MB, a third more as a data URL) is brought to this size first:
 * a few hundred kilobytes to send over a slow connection instead.
 */
const UPLOAD_MAX_SIDE = 1280;

/** A picture (video frame or decoded image) as a JPEG data URL, its longest side at most UPLOAD_MAX_SIDE. */
export function toJpegDataUrl(source: CanvasImageSource, width: number, height: number): string {
  const scale = Math.min(1, UPLOAD_MAX_SIDE / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.imageSmoothingQuality = 'high';
  // a transparent picture lies on white, as the server lays it (a JPEG has no transparency)
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/jpeg', JPEG_QUALITY);
}

/**
 * The chosen file as it is sent: larger than UPLOAD_MAX_SIDE, it is scaled down in the browser (the
 * browser turns it upright by its EXIF orientation as it decodes it); otherwise, or when the browser
 * cannot decode it (the server may: HEIC), the file itself.
 */
export async function photoForUpload(file: File): Promise<string> {
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    if (Math.max(image.naturalWidth, image.naturalHeight) > UPLOAD_MAX_SIDE) {
      return toJpegDataUrl(image, image.naturalWidth, image.naturalHeight);
    }
  } catch {
    // not decodable here: the server says whether it can read it
  } finally {
    URL.revokeObjectURL(url);
  }
  return readAsDataUrl(file);
}
