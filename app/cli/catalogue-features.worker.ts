/** A worker thread of the catalogue import (catalogue-import.ts): computes the identification features of each image it is sent. */
import { computeImageFeatures } from '../services/identification/index.server';
import { serveJobs } from './worker-pool';

// a Buffer arrives as a plain Uint8Array
serveJobs((master: Uint8Array) => computeImageFeatures(Buffer.from(master.buffer, master.byteOffset, master.byteLength)));
