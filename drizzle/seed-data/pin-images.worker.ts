/** A worker thread of the seed's photo pool (pin-images.ts): makes the photo of each artwork it is sent. */
import { parentPort } from 'node:worker_threads';
import type { PinArt } from './pin-art';
import { renderPinImage } from './pin-images';

const port = parentPort;
if (!port) throw new Error('pin-images.worker.ts runs as a worker thread');
port.on('message', (art: PinArt) => {
  renderPinImage(art).then(
    (image) => port.postMessage({ image }),
    (error: unknown) => port.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
