/**
 * A value computed once per catalogue version: the search's snapshot names the version, so
 * figures every page shows (counts by category and network, price bands) are computed on the
 * first request after a change and read from memory until the next one.
 */
export class PerSnapshot<T> {
  private snapshot: string | undefined;
  private value: Promise<T> | undefined;

  get(snapshot: string, compute: () => Promise<T>): Promise<T> {
    if (this.value === undefined || this.snapshot !== snapshot) {
      const value = compute();
      this.snapshot = snapshot;
      this.value = value;
      // A failed computation is not kept: the next request tries again.
      value.catch(() => {
        if (this.value === value) this.value = undefined;
      });
    }
    return this.value;
  }
}

/**
 * A PerSnapshot key that also changes every `periodMs`: for values that read tables the catalogue
 * version does not follow (probes, chain activity), so they are at most one period old.
 */
export function snapshotWithin(snapshot: string, periodMs: number, now = Date.now()): string {
  return `${snapshot}@${Math.floor(now / periodMs)}`;
}
