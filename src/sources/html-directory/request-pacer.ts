import { setTimeout as sleep } from "node:timers/promises";

/**
 * Spaces the starts of a crawl's requests to honour its requests-per-minute ceiling. Crawlee's own
 * limit counts its queue's tasks; revalidation batches send several requests from one task, so
 * every request (each navigation and each revalidation) takes its turn here instead.
 *
 * Turns are spaced from the moment the previous turn actually started, not from when it was due:
 * on a busy machine a timer fires late, and spacing from the due time let the next request start
 * at once behind a late one (two requests together, measured 0.006 ms apart under load).
 */
export class RequestPacer {
  private readonly gapMs: number;
  private lastStartedAt = Number.NEGATIVE_INFINITY;
  private turns: Promise<void> = Promise.resolve();

  constructor(requestsPerMinute: number) {
    this.gapMs = 60_000 / requestsPerMinute;
  }

  /** Resolves when the next request may start. */
  take(): Promise<void> {
    const turn = this.turns.then(async () => {
      // Timers count whole milliseconds and may fire a fraction early: wait until the gap is over.
      for (;;) {
        const wait = this.lastStartedAt + this.gapMs - performance.now();
        if (wait <= 0) break;
        await sleep(Math.ceil(wait));
      }
      this.lastStartedAt = performance.now();
    });
    this.turns = turn;
    return turn;
  }
}
