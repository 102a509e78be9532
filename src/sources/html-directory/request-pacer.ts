/**
 * Spaces the starts of a crawl's requests to honour its requests-per-minute ceiling. Crawlee's own
 * limit counts its queue's tasks; revalidation batches send several requests from one task, so
 * every request (each navigation and each revalidation) takes its turn here instead.
 */
export class RequestPacer {
  private readonly gapMs: number;
  private nextStartAt = 0;

  constructor(requestsPerMinute: number) {
    this.gapMs = 60_000 / requestsPerMinute;
  }

  /** Resolves when the next request may start. */
  async take(): Promise<void> {
    const now = performance.now();
    const startAt = Math.max(now, this.nextStartAt);
    this.nextStartAt = startAt + this.gapMs;
    if (startAt > now) await new Promise((resolve) => setTimeout(resolve, startAt - now));
  }
}
