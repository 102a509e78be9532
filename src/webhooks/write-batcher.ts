/**
 * Group commit for settled attempts: while one batch is being written, the attempts that finish
 * meanwhile wait and go together in the next write. An idle batcher writes at once (no timer, so
 * a lone delivery is not delayed); a busy one pays one commit per batch instead of one per
 * delivery. `record` resolves once the write holding the item has committed, so a delivery slot
 * is freed (and a stopping process finishes) only after its outcome was written.
 */
export class WriteBatcher<T> {
  private waiting: { item: T; done: (error?: unknown) => void }[] = [];
  private writing: Promise<void> | null = null;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch: number,
  ) {}

  record(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, done: (error) => (error === undefined ? resolve() : reject(error)) });
      this.writing ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      let failure: unknown;
      try {
        await this.write(batch.map(({ item }) => item));
      } catch (error) {
        // Every item of a failed write fails: nothing of it committed.
        failure = error ?? new Error("batch write failed");
      }
      for (const { done } of batch) done(failure);
    }
    this.writing = null;
  }
}
