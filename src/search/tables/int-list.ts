/**
 * A growing list of integers in one typed array (doubling), for building flat arrays: 32-bit by
 * default, or 16-bit (`new IntList(Uint16Array)`) where values are known to fit, which halves
 * what a build holds while it grows.
 */
export class IntList<A extends Int32Array | Uint16Array = Int32Array> {
  private values: A;
  length = 0;

  constructor(
    private readonly kind: { new (length: number): A } = Int32Array as unknown as { new (length: number): A },
  ) {
    this.values = new kind(1024);
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new this.kind(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length] = value;
    this.length += 1;
  }

  at(i: number): number {
    return this.values[i] as number;
  }

  /** Adds `by` to the value at i. */
  addAt(i: number, by: number): void {
    this.values[i] = (this.values[i] as number) + by;
  }

  /** The values as an array of exactly their length. */
  done(): A {
    return this.values.slice(0, this.length) as A;
  }
}
