/**
 * Worker threads for the command-line tools' heavy steps (the seed's photos, the catalogue
 * import's identification features): one job function run on `threads` worker threads, one job a
 * worker at a time, in the order asked. Each worker loads its module from this repository's
 * TypeScript through tsx (the tools run under tsx), and serves its function with `serveJobs`.
 * With 0 threads, or once every worker has stopped, the jobs run on this thread instead (a job
 * whose worker stopped under it too); a worker that stops before answering anything is not
 * started again.
 * Replies are copied (structured clone), never transferred.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, parentPort } from 'node:worker_threads';

type Reply<Out> = { out: Out; error?: undefined } | { out?: undefined; error: string };

interface Job<In, Out> {
  input: In;
  resolve: (out: Out) => void;
  reject: (error: unknown) => void;
}

/** The number of threads a tool uses: its environment variable when set (0: none), else one a core. */
export function threadsFrom(value: string | undefined): number {
  const n = Number(value);
  return value != null && value !== '' && Number.isInteger(n) && n >= 0 ? n : availableParallelism();
}

/** The code a worker thread starts with: `entry` (a TypeScript module) loaded through tsx. */
function workerSource(entry: URL): string {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  return `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)}))`;
}

export class WorkerPool<In, Out> {
  private readonly queue: Job<In, Out>[] = [];
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job<In, Out>>();
  private workers: Worker[] = [];
  /** A worker stopped before answering anything (its module cannot run): no more are started. */
  private broken = false;

  /**
   * @param entry the worker's module, which calls `serveJobs` with the same function as `local`
   * @param local the job function on this thread (0 threads, or no worker left)
   * @param revive what a reply needs after the copy between threads (Buffers arrive as Uint8Arrays)
   */
  constructor(
    private readonly entry: URL,
    private readonly local: (input: In) => Promise<Out>,
    readonly threads: number,
    private readonly revive: (out: Out) => Out = (out) => out,
  ) {}

  /** How many worker threads are running. */
  get running(): number {
    return this.workers.length;
  }

  /** Starts every worker now (each takes a second or more of CPU to load its modules). */
  start(): void {
    while (!this.broken && this.workers.length < this.threads) this.spawn();
  }

  run(input: In): Promise<Out> {
    if (this.threads === 0 || (this.broken && this.workers.length === 0)) return this.local(input);
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (!this.broken && this.workers.length < this.threads && this.idle.length === 0) this.spawn();
      this.dispatch();
    });
  }

  private spawn(): void {
    const worker = new Worker(workerSource(this.entry), { eval: true });
    this.workers.push(worker);
    this.idle.push(worker);
    let answered = false;
    worker.on('message', (reply: Reply<Out>) => {
      answered = true;
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      this.idle.push(worker);
      if (job) {
        if (reply.error === undefined) job.resolve(this.revive(reply.out as Out));
        else job.reject(new Error(reply.error));
      }
      this.dispatch();
    });
    const fail = () => {
      if (!this.workers.includes(worker)) return; // its 'error' is followed by its 'exit'
      if (!answered) this.broken = true;
      // the job it had, first, and the jobs still waiting go to the other workers, or to this thread when none is left
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      if (job) this.queue.unshift(job);
      this.workers = this.workers.filter((w) => w !== worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      if (this.workers.length === 0) for (const waiting of this.queue.splice(0)) this.local(waiting.input).then(waiting.resolve, waiting.reject);
      else this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
  }

  private dispatch(): void {
    while (this.idle.length && this.queue.length) {
      const worker = this.idle.shift() as Worker;
      const job = this.queue.shift() as Job<In, Out>;
      this.busy.set(worker, job);
      worker.postMessage(job.input);
    }
  }

  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    for (const worker of workers) worker.removeAllListeners('exit');
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** In a worker's module: answers each job the pool sends with `fn`'s result (or its error). */
export function serveJobs<In, Out>(fn: (input: In) => Promise<Out>): void {
  const port = parentPort;
  if (!port) throw new Error('this module runs as a worker thread of a WorkerPool');
  port.on('message', (input: In) => {
    fn(input).then(
      (out) => port.postMessage({ out }),
      (error: unknown) => port.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
}
