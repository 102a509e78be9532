/** A growing list of 32-bit integers in one typed array (doubling), for building the flat arrays. */
export class IntList {
  private values = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
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
  done(): Int32Array {
    return this.values.slice(0, this.length);
  }
}
