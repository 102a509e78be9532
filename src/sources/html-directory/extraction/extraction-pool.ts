import { Worker } from "node:worker_threads";
import { type ExtractionResult, type ExtractionTask, runExtraction } from "./run-extraction";

/**
 * Run from source (tsx, tests), a worker starts from a plain module that loads its TypeScript;
 * built (`npm run build`, the image), from the bundled worker beside this code in dist/.
 */
const WORKER_URL = import.meta.url.endsWith(".ts")
  ? new URL("./extraction-worker-entry.mjs", import.meta.url)
  : new URL("./extraction-worker.js", import.meta.url);

interface Pending {
  resolve: (result: ExtractionResult) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * Reads pages on worker threads, so extraction and normalisation (CPU work of a few ms a page)
 * run on another core while the crawler's event loop keeps fetching. With 0 threads it reads
 * in-process. Tasks go to the least busy worker; a worker that dies fails its own tasks only
 * (their requests are retried by the crawler) and is replaced.
 */
export class ExtractionPool {
  private readonly workers: PoolWorker[] = [];
  private nextId = 0;
  private closed = false;

  constructor(private readonly threads: number) {
    for (let i = 0; i < threads; i++) this.workers.push(this.spawn());
  }

  run(task: ExtractionTask): Promise<ExtractionResult> {
    if (this.threads === 0) return Promise.resolve().then(() => runExtraction(task));
    const target = this.workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      target.pending.set(id, { resolve, reject });
      target.worker.ref(); // work in flight keeps the process alive; an idle pool does not
      target.worker.postMessage({ id, task });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }

  private spawn(): PoolWorker {
    const worker = new Worker(WORKER_URL);
    const entry: PoolWorker = { worker, pending: new Map() };
    worker.on("message", (message: { id: number; result?: ExtractionResult; error?: string }) => {
      const pending = entry.pending.get(message.id);
      if (!pending) return;
      entry.pending.delete(message.id);
      if (entry.pending.size === 0) worker.unref();
      if (message.result) pending.resolve(message.result);
      else pending.reject(new Error(`extraction failed: ${message.error}`));
    });
    const fail = (error: Error) => {
      for (const pending of entry.pending.values()) pending.reject(error);
      entry.pending.clear();
      const index = this.workers.indexOf(entry);
      // 'error' is followed by 'exit': replace the worker once.
      if (!this.closed && index >= 0) this.workers[index] = this.spawn();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (!this.closed) fail(new Error(`extraction worker exited with code ${code}`));
    });
    worker.unref();
    return entry;
  }
}
