import { Form, useNavigate } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import type { IdentificationResult } from '~/types/identification';
import { cameraErrorMessage, identificationToasts, photoForUpload, postIdentify, requestFailureToast, toJpegDataUrl } from './identify-actions';
import { useToast } from './toaster';

type Phase = 'idle' | 'starting' | 'live' | 'analyzing';

export const RESULT_STORAGE_KEY = 'identificationResult';

/** What the home page's result card (identification-card.tsx) is given. */
export interface ResultCardProps {
  result: IdentificationResult;
  onClose: () => void;
  onViewFull: () => void;
}

/**
 * The identifier. Without JavaScript it is a multipart form whose file input opens the phone
 * camera (capture="environment") and posts to /identify, which renders the result on the server.
 * With JavaScript: the live camera (rear-facing, no audio, JPEG 0.92 frames) and the upload go to
 * POST /api/identify. On the home page (`mode="card"`) a result card replaces the identifier; on
 * /identify (`mode="page"`) the page shows the stored result (/identify?result=<id>). The card is
 * the home page's to give (`ResultCard`): /identify does not load it.
 */
export function Identifier({ mode = 'card', ResultCard }: { mode?: 'card' | 'page'; ResultCard?: ComponentType<ResultCardProps> }) {
  const toast = useToast();
  const navigate = useNavigate();
  const [hydrated, setHydrated] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  const [result, setResult] = useState<IdentificationResult | null>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => setHydrated(true), []);

  const stopCamera = useCallback(() => {
    streamRef.current?.getTracks().forEach((t) => t.stop());
    streamRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
  }, []);
  // the camera light goes off when the identifier leaves the page
  useEffect(() => stopCamera, [stopCamera]);

  const analyze = useCallback(
    async (imageData: string) => {
      setPhase('analyzing');
      const answer = await postIdentify(imageData);
      setPhase('idle');
      if (fileRef.current) fileRef.current.value = '';
      if (!answer.ok) {
        toast(requestFailureToast(answer.status, answer.text));
        return;
      }
      toast(identificationToasts(answer.result));
      if (mode === 'page' && answer.result.identificationId) {
        navigate(`/identify?result=${encodeURIComponent(answer.result.identificationId)}`);
      } else if (ResultCard) {
        setResult(answer.result);
      }
    },
    [mode, navigate, toast, ResultCard],
  );

  const startCamera = useCallback(async () => {
    const localhost = ['localhost', '127.0.0.1', '[::1]'].includes(window.location.hostname);
    if (!window.isSecureContext && !localhost) {
      toast({ title: 'Camera Error', description: 'Camera requires HTTPS. Serve the site over https://', variant: 'destructive' });
      return;
    }
    if (!navigator.mediaDevices?.getUserMedia) {
      toast({ title: 'Camera Error', description: 'Camera not supported in this browser (need HTTPS).', variant: 'destructive' });
      return;
    }
    setPhase('starting');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        // without a size, browsers give 640 x 480 frames: the year and team name of a small pin need more
        video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } },
        audio: false,
      });
    } catch (error) {
      setPhase('idle');
      toast({ title: 'Camera Error', description: cameraErrorMessage(error), variant: 'destructive' });
      return;
    }
    streamRef.current = stream;
    const video = videoRef.current;
    if (!video) {
      stopCamera();
      setPhase('idle');
      return;
    }
    video.srcObject = stream;
    try {
      await video.play();
      setPhase('live');
    } catch {
      stopCamera();
      setPhase('idle');
      toast({ title: 'Camera Error', description: 'Failed to start video playback.', variant: 'destructive' });
    }
  }, [stopCamera, toast]);

  const capture = useCallback(async () => {
    const video = videoRef.current;
    if (!video || !video.videoWidth || !video.videoHeight) {
      toast({ title: 'Camera Error', description: 'Camera not ready yet. Try again in a second.', variant: 'destructive' });
      return;
    }
    const dataUrl = toJpegDataUrl(video, video.videoWidth, video.videoHeight);
    // capturing stops the camera and submits the frame
    stopCamera();
    void analyze(dataUrl);
  }, [analyze, stopCamera, toast]);

  const onFile = useCallback(
    async (files: FileList | null) => {
      const file = files?.[0]; // only the first selected file
      if (!file) return;
      if (!file.type.startsWith('image/')) {
        toast({ title: 'Invalid file type', description: 'Please select an image file.', variant: 'destructive' });
        if (fileRef.current) fileRef.current.value = '';
        return;
      }
      if (file.size > 5 * 1024 * 1024) {
        toast({ title: 'Image Too Large', description: 'Please try a smaller image (max 5MB).', variant: 'destructive' });
        if (fileRef.current) fileRef.current.value = '';
        return;
      }
      stopCamera();
      setPhase('analyzing');
      let imageData: string;
      try {
        imageData = await photoForUpload(file);
      } catch {
        setPhase('idle');
        if (fileRef.current) fileRef.current.value = '';
        toast(requestFailureToast(400, 'image_parse_error: the file could not be read'));
        return;
      }
      await analyze(imageData);
    },
    [analyze, stopCamera, toast],
  );

  if (result && ResultCard) {
    return (
      <ResultCard
        result={result}
        onClose={() => setResult(null)}
        onViewFull={() => {
          try {
            sessionStorage.setItem(RESULT_STORAGE_KEY, JSON.stringify(result));
          } catch {
            // storage full or blocked: the page can still show it by id
          }
          navigate('/identify');
        }}
      />
    );
  }

  const busy = phase === 'starting' || phase === 'analyzing';
  return (
    <Form
      method="post"
      action="/identify"
      encType="multipart/form-data"
      className="card space-y-3 p-4"
      reloadDocument
      data-testid="identifier"
      onSubmit={(event) => {
        if (!hydrated) return;
        event.preventDefault();
        void onFile(fileRef.current?.files ?? null);
      }}
    >
      {hydrated ? (
        <div className="relative overflow-hidden rounded-lg bg-slate-900 text-white" data-testid="camera">
          <video
            ref={videoRef}
            playsInline
            muted
            aria-label="Camera preview"
            className={phase === 'live' || phase === 'analyzing' ? 'block aspect-[4/3] w-full object-cover' : 'hidden'}
          />
          {phase === 'idle' ? (
            <button type="button" onClick={() => void startCamera()} className="flex aspect-[4/3] w-full flex-col items-center justify-center gap-3 hover:bg-slate-800">
              <svg aria-hidden="true" width="48" height="48" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5">
                <path d="M3 8a2 2 0 0 1 2-2h2l2-2h6l2 2h2a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
                <circle cx="12" cy="13" r="4" />
              </svg>
              <span className="text-sm font-medium">Click the camera to start</span>
            </button>
          ) : null}
          {phase === 'starting' ? (
            <div className="flex aspect-[4/3] w-full items-center justify-center" role="status">
              <span className="text-sm">Starting camera...</span>
            </div>
          ) : null}
          {phase === 'live' ? (
            <div className="absolute inset-x-0 bottom-0 flex justify-center gap-3 bg-gradient-to-t from-black/70 p-3">
              <button type="button" className="btn-primary" onClick={() => void capture()}>
                Capture &amp; Identify
              </button>
              <button type="button" className="btn-secondary" onClick={() => { stopCamera(); setPhase('idle'); }}>
                Stop
              </button>
            </div>
          ) : null}
          {phase === 'analyzing' ? (
            <div className="absolute inset-0 flex min-h-[8rem] flex-col items-center justify-center gap-3 bg-slate-900/80" role="status" aria-live="polite">
              <span className="h-8 w-8 animate-spin rounded-full border-4 border-white/30 border-t-white" aria-hidden="true" />
              <span className="text-sm font-medium">Analyzing your pin...</span>
            </div>
          ) : null}
        </div>
      ) : (
        <>
          {/* the camera's 4:3 space, kept before hydration so that nothing below moves when the
              camera block replaces it (CLS 0); without JavaScript there is no camera, and no space */}
          <div className="aspect-[4/3] w-full rounded-lg bg-slate-900" data-camera-space aria-hidden="true" />
          <noscript>
            <style>{'[data-camera-space],[data-with-camera]{display:none}'}</style>
          </noscript>
        </>
      )}
      <div>
        <label htmlFor={`identify-photo-${mode}`} className="label">
          Photo of your pin
        </label>
        <input
          ref={fileRef}
          id={`identify-photo-${mode}`}
          name="image"
          type="file"
          accept="image/*"
          // without JavaScript the input opens the phone camera; with it the live camera is above
          // and the input picks a saved photo
          capture={hydrated ? undefined : 'environment'}
          required
          disabled={busy}
          className="input"
          onChange={(event) => {
            if (hydrated) void onFile(event.currentTarget.files);
          }}
        />
        {/* the same text and button before and after hydration: nothing below moves (CLS 0) */}
        <p className="mt-1 text-xs text-slate-500">
          <span data-with-camera>Or upload a saved photo: </span>JPEG, PNG, WebP or HEIC, max 5MB.
        </p>
      </div>
      {/* with JavaScript, choosing a photo sends it at once; the button sends the chosen one again */}
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        Identify
      </button>
    </Form>
  );
}
