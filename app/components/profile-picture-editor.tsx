import * as Dialog from '@radix-ui/react-dialog';
import { Form, useFetcher, useNavigation } from '@remix-run/react';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import ReactCrop, { centerCrop, makeAspectCrop, type Crop, type PixelCrop } from 'react-image-crop';
import 'react-image-crop/dist/ReactCrop.css';
import { useToast } from '~/components/toaster';
import { MAX_IMAGE_BYTES } from '~/utils/constants';

const OUTPUT_SIZE = 200;
const JPEG_QUALITY = 0.9;
const MIN_ZOOM = 50;
const MAX_ZOOM = 200;
const ZOOM_STEP = 10;

class CropError extends Error {}

/** Draws the chosen square (with the zoom applied around the image centre) onto a 200x200 canvas. */
function cropToJpeg(image: HTMLImageElement | null, crop: PixelCrop | undefined, scale: number): Promise<Blob> {
  if (!image || !image.naturalWidth) throw new CropError('No image loaded');
  if (!crop || crop.width < 1 || crop.height < 1) throw new CropError('Invalid crop area');
  const canvas = document.createElement('canvas');
  canvas.width = OUTPUT_SIZE;
  canvas.height = OUTPUT_SIZE;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new CropError('Failed to crop the image. Please try again.');
  const scaleX = image.naturalWidth / image.width;
  const scaleY = image.naturalHeight / image.height;
  const centerX = image.naturalWidth / 2;
  const centerY = image.naturalHeight / 2;
  ctx.imageSmoothingQuality = 'high';
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, OUTPUT_SIZE, OUTPUT_SIZE);
  ctx.scale(OUTPUT_SIZE / (crop.width * scaleX), OUTPUT_SIZE / (crop.height * scaleY));
  ctx.translate(-crop.x * scaleX, -crop.y * scaleY);
  ctx.translate(centerX, centerY);
  ctx.scale(scale, scale);
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
  const [crop, setCrop] = useState<Crop>();
  const [completed, setCompleted] = useState<PixelCrop>();
  const [zoom, setZoom] = useState(100);
  const imgRef = useRef<HTMLImageElement>(null);
  const submitted = useRef(false);

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
      setCompleted(undefined);
      setSrc(typeof reader.result === 'string' ? reader.result : null);
    };
    reader.onerror = () => toast({ title: 'Upload failed', description: 'Failed to upload profile picture', variant: 'destructive' });
    reader.readAsDataURL(file);
    event.target.value = '';
  }

  function close() {
    setSrc(null);
    setCrop(undefined);
    setCompleted(undefined);
  }

  function onImageLoad(e: React.SyntheticEvent<HTMLImageElement>) {
    const { width, height } = e.currentTarget;
    const initial = centerCrop(makeAspectCrop({ unit: '%', width: 80 }, 1, width, height), width, height);
    setCrop(initial);
    setCompleted({
      unit: 'px',
      x: (initial.x / 100) * width,
      y: (initial.y / 100) * height,
      width: (initial.width / 100) * width,
      height: (initial.height / 100) * height,
    });
  }

  async function save() {
    try {
      const blob = await cropToJpeg(imgRef.current, completed, zoom / 100);
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
    <Dialog.Root open={!!src} onOpenChange={(open) => (open ? undefined : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-slate-900">Crop your picture</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-600">Drag the square to choose what shows, and zoom in or out.</Dialog.Description>
          <div className="mt-4 flex max-h-[300px] justify-center overflow-hidden rounded-md bg-slate-100">
            {src ? (
              <ReactCrop crop={crop} aspect={1} keepSelection minWidth={20} onChange={(_, percent) => setCrop(percent)} onComplete={(c) => setCompleted(c)}>
                <img
                  ref={imgRef}
                  src={src}
                  alt="Picture to crop"
                  onLoad={onImageLoad}
                  style={{ maxWidth: 400, maxHeight: 300, transform: `scale(${zoom / 100})` }}
                />
              </ReactCrop>
            ) : null}
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
            <Dialog.Close asChild>
              <button type="button" className="btn-secondary">
                Cancel
              </button>
            </Dialog.Close>
            <button type="button" className="btn-primary" onClick={save} disabled={uploading}>
              {uploading ? 'Uploading...' : 'Save Picture'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
    </>
  );
}
