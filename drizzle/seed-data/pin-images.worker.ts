/** A worker thread of the seed's photo pool (pin-images.ts): makes the photo of each artwork it is sent. */
import { serveJobs } from '../../app/cli/worker-pool';
import { renderPinImage } from './pin-images';

serveJobs(renderPinImage);
