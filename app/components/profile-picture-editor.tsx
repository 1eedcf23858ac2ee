import { Form, useFetcher, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import ReactCrop, { type PixelCrop } from 'react-image-crop';
import 'react-image-crop/dist/ReactCrop.css';
import { useToast } from '~/components/toaster';
import { MAX_IMAGE_BYTES } from '~/utils/constants';

const OUTPUT_SIZE = 200;
const JPEG_QUALITY = 0.9;
const MIN_ZOOM = 50;
const MAX_ZOOM = 200;
const ZOOM_STEP = 10;

class CropError extends Error {}

/** The crop canvas is at most 400x300 (spec) and never wider than the dialog's content. */
const MAX_CANVAS_WIDTH = 400;
const MAX_CANVAS_HEIGHT = 300;

/** How the picture is drawn in the dialog: one scale for both axes, so it is never distorted. */
export interface CanvasFit {
  width: number;
  height: number;
  /** display pixels per picture pixel */
  scale: number;
}

export function fitCanvas(naturalWidth: number, naturalHeight: number, availableWidth: number): CanvasFit {
  const maxWidth = Math.max(1, Math.min(MAX_CANVAS_WIDTH, availableWidth));
  const scale = Math.min(maxWidth / naturalWidth, MAX_CANVAS_HEIGHT / naturalHeight, 1);
  return { width: naturalWidth * scale, height: naturalHeight * scale, scale };
}

/** The starting selection: a centred square of 80% of the picture's shorter side. */
function initialSquare(fit: CanvasFit): PixelCrop {
  const side = Math.min(fit.width, fit.height) * 0.8;
  return { unit: 'px', x: (fit.width - side) / 2, y: (fit.height - side) / 2, width: side, height: side };
}

/**
 * Draws the chosen square (with the zoom applied around the picture's centre, as the dialog shows
 * it) onto a 200x200 canvas. The selection is in display pixels; one factor maps both axes to the
 * picture's pixels, and the square's side is used for both, so the output is never stretched.
 */
function cropToJpeg(image: HTMLImageElement | null, crop: PixelCrop | undefined, fit: CanvasFit | null, zoom: number): Promise<Blob> {
  if (!image || !image.naturalWidth || !fit) throw new CropError('No image loaded');
  if (!crop || crop.width < 1 || crop.height < 1) throw new CropError('Invalid crop area');
  const canvas = document.createElement('canvas');
  canvas.width = OUTPUT_SIZE;
  canvas.height = OUTPUT_SIZE;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new CropError('Failed to crop the image. Please try again.');
  const toNatural = 1 / fit.scale;
  const side = Math.min(crop.width, crop.height) * toNatural;
  const centerX = image.naturalWidth / 2;
  const centerY = image.naturalHeight / 2;
  ctx.imageSmoothingQuality = 'high';
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, OUTPUT_SIZE, OUTPUT_SIZE);
  ctx.scale(OUTPUT_SIZE / side, OUTPUT_SIZE / side);
  ctx.translate(-crop.x * toNatural, -crop.y * toNatural);
  ctx.translate(centerX, centerY);
  ctx.scale(zoom, zoom);
  ctx.translate(-centerX, -centerY);
  ctx.drawImage(image, 0, 0);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new CropError('Failed to crop the image. Please try again.'))), 'image/jpeg', JPEG_QUALITY),
  );
}

/**
 * Profile picture with JavaScript: pick a file, crop it in a dialog (zoom 50-200 % in steps of 10,
 * the picture shown at most 400x300), upload the 200x200 JPEG to POST /api/user/profile-picture.
 * The server-rendered form around it (profile.tsx) is the no-JavaScript path.
 */
export function ProfilePictureEditor({ error }: { error?: string | null }) {
  const toast = useToast();
  const fetcher = useFetcher<{ profileImageUrl?: string | null; error?: string }>();
  const [src, setSrc] = useState<string | null>(null);
  const [crop, setCrop] = useState<PixelCrop>();
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [available, setAvailable] = useState(MAX_CANVAS_WIDTH);
  const [zoom, setZoom] = useState(100);
  const imgRef = useRef<HTMLImageElement>(null);
  const frameRef = useRef<HTMLDivElement | null>(null);
  const fit = natural ? fitCanvas(natural.width, natural.height, available) : null;
  const submitted = useRef(false);
  // the browser's modal <dialog>: the rest of the page inert, focus moved in and given back after
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (src && !dialog.open) dialog.showModal();
    else if (!src && dialog.open) dialog.close();
  }, [src]);

  useEffect(() => {
    if (fetcher.state !== 'idle' || !submitted.current || !fetcher.data) return;
    submitted.current = false;
    if (fetcher.data.error) {
      toast({ title: 'Upload failed', description: fetcher.data.error || 'Failed to upload profile picture', variant: 'destructive' });
    } else {
      toast({ title: 'Profile picture updated', description: 'Your new picture is saved.', variant: 'success' });
      close();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    // SVG is an image type the server does not take (it is a document that can carry scripts)
    if (!file.type.startsWith('image/') || file.type === 'image/svg+xml') {
      toast({ title: 'Invalid file type', description: 'Please select an image file.', variant: 'destructive' });
      event.target.value = '';
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      toast({ title: 'File too large', description: 'Please select an image smaller than 5MB.', variant: 'destructive' });
      event.target.value = '';
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      setZoom(100);
      setCrop(undefined);
      setNatural(null);
      setSrc(typeof reader.result === 'string' ? reader.result : null);
    };
    reader.onerror = () => toast({ title: 'Upload failed', description: 'Failed to upload profile picture', variant: 'destructive' });
    reader.readAsDataURL(file);
    event.target.value = '';
  }

  function close() {
    setSrc(null);
    setCrop(undefined);
    setNatural(null);
  }

  // The frame's width decides the canvas size: measured when the dialog opens and whenever it
  // changes (a phone turned sideways); the selection keeps its place and stays square.
  const measure = useCallback((node: HTMLDivElement | null) => {
    frameRef.current = node;
    if (node) setAvailable(node.clientWidth || MAX_CANVAS_WIDTH);
  }, []);
  useEffect(() => {
    const node = frameRef.current;
    if (!node || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setAvailable(node.clientWidth || MAX_CANVAS_WIDTH));
    observer.observe(node);
    return () => observer.disconnect();
  }, [src]);
  const lastFit = useRef<CanvasFit | null>(null);
  useEffect(() => {
    const before = lastFit.current;
    lastFit.current = fit;
    if (!fit) return;
    if (!before || !crop) {
      setCrop(initialSquare(fit));
    } else if (before.scale !== fit.scale) {
      const k = fit.scale / before.scale;
      setCrop({ unit: 'px', x: crop.x * k, y: crop.y * k, width: crop.width * k, height: crop.width * k });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the fit only
  }, [fit?.scale]);

  function onImageLoad(e: React.SyntheticEvent<HTMLImageElement>) {
    const { naturalWidth, naturalHeight } = e.currentTarget;
    lastFit.current = null;
    setNatural({ width: naturalWidth, height: naturalHeight });
  }

  async function save() {
    try {
      const blob = await cropToJpeg(imgRef.current, crop, fit, zoom / 100);
      const form = new FormData();
      form.append('profilePicture', new File([blob], 'profile.jpg', { type: 'image/jpeg' }));
      submitted.current = true;
      fetcher.submit(form, { method: 'post', action: '/api/user/profile-picture', encType: 'multipart/form-data' });
    } catch (error) {
      const message = error instanceof CropError ? error.message : 'Failed to crop the image. Please try again.';
      toast({ title: 'Crop failed', description: message, variant: 'destructive' });
    }
  }

  const uploading = fetcher.state !== 'idle';
  const navigation = useNavigation();
  const posting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'picture';
  return (
    <>
      {/* Without JavaScript this form posts the file and the server centre-crops it to 200x200. */}
      <Form method="post" encType="multipart/form-data" className="space-y-3">
        <input type="hidden" name="intent" value="picture" />
        <div>
          <label htmlFor="profilePicture" className="label">
            Profile picture
          </label>
          <input
            id="profilePicture"
            name="profilePicture"
            type="file"
            accept="image/*"
            required
            onChange={onFile}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'profilePicture-error' : 'profilePicture-hint'}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-700"
          />
          <p id="profilePicture-hint" className="mt-1 text-xs text-slate-500">
            JPG, PNG, WebP or GIF (max 5MB). It is cropped to a 200x200 square.
          </p>
          {error ? (
            <p id="profilePicture-error" className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn-secondary" disabled={posting}>
          {posting ? 'Uploading...' : 'Upload Picture'}
        </button>
      </Form>
      <dialog
        ref={dialogRef}
        aria-labelledby="crop-title"
        aria-describedby="crop-description"
        // Escape (and any other way the browser closes it) ends here
        onClose={close}
        // a click on the backdrop reaches the <dialog> itself; the content fills it
        onClick={(event) => {
          if (event.target === event.currentTarget) event.currentTarget.close();
        }}
        className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-lg bg-white p-0 shadow-xl backdrop:bg-slate-900/50"
      >
        {src ? (
          <div className="p-4 sm:p-6">
            <h2 id="crop-title" className="text-lg font-semibold text-slate-900">
              Crop your picture
            </h2>
            <p id="crop-description" className="mt-1 text-sm text-slate-600">
              Drag the square to choose what shows, and zoom in or out.
            </p>
            <div ref={measure} className="mt-4 flex w-full justify-center overflow-hidden rounded-md bg-slate-100" data-testid="crop-frame">
              <ReactCrop
                crop={crop}
                aspect={1}
                keepSelection
                minWidth={20}
                onChange={(pixels) => setCrop({ ...pixels, height: pixels.width })}
                style={fit ? { width: fit.width, height: fit.height } : undefined}
              >
                <img
                  ref={imgRef}
                  src={src}
                  alt="Picture to crop"
                  onLoad={onImageLoad}
                  // until its size is known the picture is drawn small, never wider than the frame
                  style={
                    fit
                      ? { width: fit.width, height: fit.height, maxWidth: 'none', transform: `scale(${zoom / 100})` }
                      : { maxWidth: '100%', maxHeight: MAX_CANVAS_HEIGHT }
                  }
                />
              </ReactCrop>
            </div>
            <label htmlFor="crop-zoom" className="label mt-4">
              Zoom: {zoom}%
            </label>
            <input
              id="crop-zoom"
              type="range"
              min={MIN_ZOOM}
              max={MAX_ZOOM}
              step={ZOOM_STEP}
              value={zoom}
              onChange={(e) => setZoom(Number(e.target.value))}
              className="w-full"
            />
            <div className="mt-6 flex justify-end gap-3">
              <button type="button" className="btn-secondary" onClick={close}>
                Cancel
              </button>
              <button type="button" className="btn-primary" onClick={save} disabled={uploading}>
                {uploading ? 'Uploading...' : 'Save Picture'}
              </button>
            </div>
          </div>
        ) : null}
      </dialog>
    </>
  );
}
