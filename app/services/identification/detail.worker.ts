// The worker thread of detail-worker.server.ts: finds levels of a photo's ORB pyramid, votes for part
// of its descriptors, makes a motion blur's spectrum, counts inliers,
// fits homographies and matches descriptors of candidates, aligns pairs of references, and runs
// detail checks, with an OpenCV of its own. It keeps the last few references it was sent, so that
// their blurred copies are made once.
// Replies are copied, never transferred: transferring a buffer detaches it, and the first buffer
// detached in a thread makes V8 check every typed array access of that thread from then on (its
// "array buffer detaching" protector). The worker's work is mostly typed array loops, and the copies
// (a warped reference is 0.25 MB) take a fraction of a millisecond (app/services/identification/README.md,
// "Threads and memory"). The main thread cannot keep the protector: every response body the server
// sends detaches a buffer (undici's byte streams).
import { parentPort } from "node:worker_threads";
import { getCV } from "./opencv.server";
import { runDetail, type ReferenceDetail } from "./detail.server";
import { runOrbLevels } from "./features.server";
import { kernelSpectrum } from "./blur.server";
import { orbPattern } from "./brief.server";
import { fitPinHomography, quickFit, referencePairHomography } from "./geometry.server";
import { ratioMatches, voteRemote } from "./vocab.server";
import type { WorkerReply, WorkerRequest } from "./detail-worker.server";

const KEPT = 4;
const refs = new Map<string, ReferenceDetail>();
const port = parentPort;
if (!port) throw new Error("detail.worker runs as a worker thread");
// OpenCV started and its ORB pattern read before the first photo's levels arrive
void getCV().then(orbPattern).catch(() => undefined);

port.on("message", async (request: WorkerRequest) => {
  const { id } = request;
  try {
    const cv = await getCV();
    if (request.kind === "warm") {
      orbPattern(cv);
      port.postMessage({ id, warm: true } satisfies WorkerReply);
      return;
    }
    if (request.kind === "orb") {
      const { gray, width, height, params, levels } = request.task;
      const orb = runOrbLevels(cv, gray, width, height, params, levels);
      port.postMessage({ id, orb } satisfies WorkerReply);
      return;
    }
    if (request.kind === "quick") {
      port.postMessage({ id, geometry: request.task.map((c) => quickFit(c, c.iters)) } satisfies WorkerReply);
      return;
    }
    if (request.kind === "fit") {
      port.postMessage({ id, geometry: request.task.map((c) => fitPinHomography(cv, c)) } satisfies WorkerReply);
      return;
    }
    if (request.kind === "match") {
      const { query, refs: descs, acceptHamming, ratio } = request.task;
      port.postMessage({ id, geometry: descs.map((d) => ratioMatches(query, d, acceptHamming, ratio)) } satisfies WorkerReply);
      return;
    }
    if (request.kind === "vote") {
      port.postMessage({ id, votes: voteRemote(request.task) } satisfies WorkerReply);
      return;
    }
    if (request.kind === "kernel") {
      const { blur, W, H } = request.task;
      port.postMessage({ id, spectrum: kernelSpectrum(cv, blur, W, H) } satisfies WorkerReply);
      return;
    }
    if (request.kind === "pair") {
      port.postMessage({ id, homography: referencePairHomography(cv, request.task) } satisfies WorkerReply);
      return;
    }
    const { imageId, task } = request;
    // a reference is content-addressed: the one kept under this id is the same picture
    let ref = refs.get(imageId);
    refs.delete(imageId);
    if (!ref || ref.width !== task.ref.width || ref.height !== task.ref.height) ref = task.ref;
    refs.set(imageId, ref);
    if (refs.size > KEPT) refs.delete(refs.keys().next().value as string);
    const outcome = runDetail(cv, { ...task, ref });
    port.postMessage({ id, outcome } satisfies WorkerReply);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
  }
});
