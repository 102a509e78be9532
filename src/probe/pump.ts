export interface PumpOptions<J> {
  /** Claims up to `count` jobs; an empty list means none is ready now. */
  fetch(count: number): Promise<J[]>;
  /** Runs one job to the end; its own failures are its business (see onError). */
  run(job: J): Promise<void>;
  concurrency: number;
  /** Pause before asking again when the queue had fewer ready jobs than free slots. */
  pollMs: number;
  onError(error: unknown): void;
}

/**
 * Keeps up to `concurrency` jobs running, claiming a new one as soon as a slot frees. This is
 * used instead of pg-boss 10's work(): its loop sleeps the whole polling interval after every
 * batch even when more jobs wait (at most batchSize jobs per 0.5 s), and a batch waits for its
 * slowest member, so one endpoint at the time limit would idle every other slot.
 */
export class JobPump<J> {
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(private readonly options: PumpOptions<J>) {}

  start(): void {
    this.loop ??= this.pumpUntilStopped();
  }

  /** Ends an idle pause early, e.g. right after this process queued work. */
  notify(): void {
    this.wake?.();
  }

  /** Claims nothing more and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    await Promise.all([...this.inFlight]);
  }

  private async pumpUntilStopped(): Promise<void> {
    while (!this.stopping) {
      const free = this.options.concurrency - this.inFlight.size;
      if (free === 0) {
        await Promise.race(this.inFlight);
        continue;
      }
      let jobs: J[] = [];
      try {
        jobs = await this.options.fetch(free);
      } catch (error) {
        this.options.onError(error);
      }
      // Claimed jobs run even when stopping began meanwhile: they are ours until completed.
      for (const job of jobs) this.launch(job);
      if (jobs.length < free) await this.pause();
    }
  }

  private launch(job: J): void {
    const task: Promise<void> = this.options
      .run(job)
      .catch((error: unknown) => this.options.onError(error))
      .finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
  }

  private pause(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      this.wake = done;
    });
  }
}
