// The second core. A photo's match is one chain of work on the main thread, and Node runs it on one
// core while the other waits. Five parts of it are shared with a worker thread that has its own
// OpenCV:
//  - the vote of the photo's descriptors through the visual words: the worker searches the posting
//    lists (in the main thread's shared memory, never written once built) for the last descriptors,
//    about half of the postings, while the main thread searches them for the first (`vote`);
//  - the query photo's ORB: the worker finds the keypoints of the pyramid's smaller levels while the
//    main thread finds those of the two largest (about half the work each; `runOrbLevels`); when the
//    photo shows a motion blur, the worker makes the spectrum of its segment while the main thread
//    transforms the photo (`kernelSpectrum`, `deblurGray`);
//  - the shortlist's geometry: every other candidate's inliers are counted in the worker
//    (`quickFit`), and every other reference cut out of a photo matched exhaustively with the
//    photo's descriptors (`ratioMatches`); the homographies are fitted there too, every other one
//    (`fitPinHomography`), when the detail check below could not be sent early;
//  - the strongest candidate's full-resolution detail check (about 33 ms there), which does not
//    depend on the colour comparison that runs before it (about 24 ms): the likely strongest
//    candidate's is sent as soon as its homography is fitted, and runs while the other homographies
//    are fitted and the colours compared; look-alikes read letter by letter are likewise checked
//    two at a time;
//  - aligning the references of the candidates that duel, pair by pair (`referencePairHomography`,
//    about 5 ms a pair, cached once done): the worker takes pairs from one end of the list while
//    the main thread takes them from the other.
// The worker runs the same code on the same data, so the answers are the same as on one thread.
//
// The worker is a file of its own, bundled by `npm run build` (app/cli/build-worker.js) next to
// the server build. Where it is missing (tests and tools run from the sources) or fails, the engine
// does all the work on the main thread as before.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { MotionBlur } from "./blur.server";
import type { DetailOutcome, DetailTask, ReferenceDetail } from "./detail.server";
import type { OrbParams, OrbResult } from "./features.server";
import type { Correspondences, PinFit, QuickFit, ReferencePair } from "./geometry.server";
import type { VoteTask } from "./vocab.server";

/** The file name of the bundled worker, beside the server build. */
export const DETAIL_WORKER_FILE = "detail-worker.js";

/** Some levels of a photo's ORB pyramid (`runOrbLevels`). */
export interface OrbTask {
  gray: Uint8Array;
  width: number;
  height: number;
  params: OrbParams;
  levels: number[];
}

/**
 * A task as sent: a detail check, whose reference goes without the blurred copies made on this thread
 * (the worker keeps its own), some levels of an ORB pyramid, or candidates' inliers to count or
 * homographies to fit.
 */
export type WorkerRequest =
  | { id: number; kind: "detail"; imageId: string; task: DetailTask }
  | { id: number; kind: "orb"; task: OrbTask }
  | { id: number; kind: "quick"; task: QuickTask[] }
  | { id: number; kind: "fit"; task: Correspondences[] }
  | { id: number; kind: "match"; task: MatchTask }
  | { id: number; kind: "pair"; task: ReferencePair }
  | { id: number; kind: "vote"; task: VoteTask }
  | { id: number; kind: "kernel"; task: KernelTask }
  | { id: number; kind: "warm" };

export type WorkerReply =
  | { id: number; outcome: DetailOutcome }
  | { id: number; orb: OrbResult }
  | { id: number; geometry: QuickFit[] | PinFit[] | number[][] }
  | { id: number; homography: number[] | null }
  | { id: number; votes: Int32Array }
  | { id: number; spectrum: Float32Array }
  | { id: number; warm: true }
  | { id: number; error: string };

/** A candidate's inliers to count with at most `iters` RANSAC iterations (`quickFit`). */
export interface QuickTask extends Correspondences {
  iters: number;
}

/** The spectrum of a motion blur's segment at a deblur's size (`kernelSpectrum`). */
export interface KernelTask {
  blur: MotionBlur;
  W: number;
  H: number;
}

/** The photo's descriptors matched exhaustively with each reference's (`ratioMatches`). */
export interface MatchTask {
  query: Uint32Array;
  refs: Uint32Array[];
  acceptHamming: number;
  ratio: number;
}

/** The worker's V8 young generation, MB. */
const WORKER_YOUNG_MB = 8;

/** After this many crashes the worker is not started again (the main thread does the work). */
const MAX_FAILURES = 3;

/** A reference without its blurred copies (all else goes: its layout, whether it was cut out of a photo). */
function plain(ref: ReferenceDetail): ReferenceDetail {
  return { ...ref, half: undefined, blurred: [] };
}

export class DetailWorker {
  private worker: Worker | null = null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each pending task resolves with its own reply's type
  private pending = new Map<number, { resolve: (o: any) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private failures = 0;
  /** detail checks the worker has answered (the tests read it) */
  completed = 0;
  /** ORB tasks the worker has answered (likewise) */
  orbsCompleted = 0;
  /** candidates whose inliers the worker has counted, whose homography it has fitted or whose descriptors it has matched (likewise) */
  geometryCompleted = 0;
  /** pairs of references the worker has aligned (likewise) */
  pairsCompleted = 0;
  /** parts of a photo's vote the worker has searched (likewise) */
  votesCompleted = 0;
  /** motion blurs' spectra the worker has made (likewise) */
  kernelsCompleted = 0;
  /** whether the worker has loaded its OpenCV for `warmUp` (likewise) */
  warmed = false;

  constructor(private readonly file: string) {}

  /** The worker at `url`, or null when that file does not exist (not built). */
  static at(url: URL): DetailWorker | null {
    const file = fileURLToPath(url);
    return existsSync(file) ? new DetailWorker(file) : null;
  }

  /** Runs one detail check in the worker; rejects when the worker cannot (the caller does it itself). */
  run(imageId: string, task: DetailTask): Promise<DetailOutcome> {
    return this.send<DetailOutcome>((id) => ({ id, kind: "detail", imageId, task: { ...task, ref: plain(task.ref) } }));
  }

  /** Finds some levels of a photo's ORB pyramid in the worker; rejects when the worker cannot. */
  orb(task: OrbTask): Promise<OrbResult> {
    return this.send<OrbResult>((id) => ({ id, kind: "orb", task }));
  }

  /** Counts the inliers of candidates in the worker (`quickFit`); rejects when the worker cannot. */
  quickFits(task: QuickTask[]): Promise<QuickFit[]> {
    return this.send<QuickFit[]>((id) => ({ id, kind: "quick", task }));
  }

  /** Fits the pin's homography of candidates in the worker (`fitPinHomography`); rejects when the worker cannot. */
  fitPins(task: Correspondences[]): Promise<PinFit[]> {
    return this.send<PinFit[]>((id) => ({ id, kind: "fit", task }));
  }

  /** Matches the photo's descriptors with each reference's in the worker (`ratioMatches`); rejects when the worker cannot. */
  ratioMatches(task: MatchTask): Promise<number[][]> {
    return this.send<number[][]>((id) => ({ id, kind: "match", task }));
  }

  /** Aligns reference B onto reference A in the worker (`referencePairHomography`); rejects when the worker cannot. */
  pairHomography(task: ReferencePair): Promise<number[] | null> {
    return this.send<number[] | null>((id) => ({ id, kind: "pair", task }));
  }

  /** Searches the posting lists for part of a photo's descriptors in the worker (`voteRemote`); rejects when the worker cannot. */
  vote(task: VoteTask): Promise<Int32Array> {
    return this.send<Int32Array>((id) => ({ id, kind: "vote", task }));
  }

  /** Makes the spectrum of a motion blur's segment in the worker (`kernelSpectrum`); rejects when the worker cannot. */
  kernelSpectrum(task: KernelTask): Promise<Float32Array> {
    return this.send<Float32Array>((id) => ({ id, kind: "kernel", task }));
  }

  /**
   * Starts the worker and waits for its OpenCV (the server's warm-up): otherwise the first photo
   * starts it, and waits seconds on a busy machine for the worker to compile its WebAssembly.
   * Rejects when the worker cannot start.
   */
  warmUp(): Promise<void> {
    return this.send<true>((id) => ({ id, kind: "warm" })).then(() => undefined);
  }

  private send<T>(request: (id: number) => WorkerRequest): Promise<T> {
    const w = this.start();
    if (!w) return Promise.reject(new Error("the detail worker is not available"));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.ref(); // a task in flight keeps the process alive; an idle worker does not
      w.postMessage(request(id)); // copied now: the caller may go on using its buffers
    });
  }

  /** Stops the worker (tests, tools). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.failures = MAX_FAILURES;
    if (w) await w.terminate();
  }

  private start(): Worker | null {
    if (this.worker) return this.worker;
    if (this.failures >= MAX_FAILURES) return null;
    // a small young generation: the worker's garbage is a few buffers per photo, and the default lets
    // its heap grow by tens of MB before it is collected (the memory counts at 5,000 pins)
    const w = new Worker(this.file, { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
    w.unref();
    w.on("message", (reply: WorkerReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) w.unref();
      if ("outcome" in reply) {
        this.completed++;
        p.resolve(reply.outcome);
      } else if ("orb" in reply) {
        this.orbsCompleted++;
        p.resolve(reply.orb);
      } else if ("geometry" in reply) {
        this.geometryCompleted += reply.geometry.length;
        p.resolve(reply.geometry);
      } else if ("homography" in reply) {
        this.pairsCompleted++;
        p.resolve(reply.homography);
      } else if ("votes" in reply) {
        this.votesCompleted++;
        p.resolve(reply.votes);
      } else if ("spectrum" in reply) {
        this.kernelsCompleted++;
        p.resolve(reply.spectrum);
      } else if ("warm" in reply) {
        this.warmed = true;
        p.resolve(true);
      } else p.reject(new Error(reply.error));
    });
    w.on("error", (error) => {
      this.failures++;
      console.error("The identification worker failed; working on the main thread", error);
      this.fail(w, error);
    });
    w.on("exit", (code) => this.fail(w, new Error(`the detail worker exited (${code})`)));
    this.worker = w;
    return w;
  }

  private fail(w: Worker, error: Error): void {
    if (this.worker === w) this.worker = null;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }
}
