// The detail check on the second core. A photo's match is one chain of work on the main thread, and
// Node runs it on one core while the other waits. The strongest candidate's full-resolution detail
// check (about 30 ms) does not depend on the colour comparison that runs before it (about 35 ms), so
// it is started in a worker thread with its own OpenCV while the colours are compared; look-alikes
// read letter by letter are likewise checked two at a time. The worker runs the same code
// (`runDetail` in detail.server.ts) on the same data, so the answers are the same as on one thread.
//
// The worker is a file of its own, bundled by `npm run build` (app/cli/build-worker.js) next to
// the server build. Where it is missing (tests and tools run from the sources) or fails, the engine
// checks on the main thread as before.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { DetailOutcome, DetailTask, ReferenceDetail } from "./detail.server";

/** The file name of the bundled worker, beside the server build. */
export const DETAIL_WORKER_FILE = "detail-worker.js";

/** A check as sent: its reference goes without the blurred copies made on this thread (the worker keeps its own). */
export interface DetailRequest {
  id: number;
  imageId: string;
  task: DetailTask;
}

export type DetailReply = { id: number; outcome: DetailOutcome } | { id: number; error: string };

/** After this many crashes the worker is not started again (the main thread does the work). */
const MAX_FAILURES = 3;

/** A reference without its blurred copies. */
function plain({ width, height, gray, pin, shape, parts, glyphs }: ReferenceDetail): ReferenceDetail {
  return { width, height, gray, pin, shape, parts, glyphs, blurred: [] };
}

export class DetailWorker {
  private worker: Worker | null = null;
  private pending = new Map<number, { resolve: (o: DetailOutcome) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private failures = 0;
  /** checks the worker has answered (the tests read it) */
  completed = 0;

  constructor(private readonly file: string) {}

  /** The worker at `url`, or null when that file does not exist (not built). */
  static at(url: URL): DetailWorker | null {
    const file = fileURLToPath(url);
    return existsSync(file) ? new DetailWorker(file) : null;
  }

  /** Runs one detail check in the worker; rejects when the worker cannot (the caller does it itself). */
  run(imageId: string, task: DetailTask): Promise<DetailOutcome> {
    const w = this.start();
    if (!w) return Promise.reject(new Error("the detail worker is not available"));
    const id = this.nextId++;
    return new Promise<DetailOutcome>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.ref(); // a check in flight keeps the process alive; an idle worker does not
      w.postMessage({ id, imageId, task: { ...task, ref: plain(task.ref) } } satisfies DetailRequest);
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
    const w = new Worker(this.file);
    w.unref();
    w.on("message", (reply: DetailReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) w.unref();
      if ("outcome" in reply) {
        this.completed++;
        p.resolve(reply.outcome);
      } else p.reject(new Error(reply.error));
    });
    w.on("error", (error) => {
      this.failures++;
      console.error("The detail worker failed; checking on the main thread", error);
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
