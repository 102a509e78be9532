/** Ascending lists of integers (postings, lists of entries): searching them in step, and as bitsets. */

/**
 * The first index at or after `from` whose value is at least `value` (the list ascending).
 * Galloping: the answer is usually a step or two ahead (intersected lists advance together), so
 * steps double from `from` before a binary search narrows the last one.
 */
export function lowerBound(list: Int32Array, value: number, from: number): number {
  let low = from;
  let step = 1;
  while (low + step < list.length && (list[low + step] ?? 0) < value) {
    low += step;
    step *= 2;
  }
  if ((list[low] ?? 0) >= value) return low;
  let high = Math.min(low + step, list.length);
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((list[middle] ?? 0) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The list as a bitset over 0…size-1. */
export function bitset(list: ArrayLike<number>, size: number): Int32Array {
  const bits = new Int32Array(Math.ceil(size / 32));
  for (let k = 0; k < list.length; k += 1) {
    const i = list[k] as number;
    bits[i >> 5] = (bits[i >> 5] as number) | (1 << (i & 31));
  }
  return bits;
}

/** Whether the bitset holds i. */
export function hasBit(bits: Int32Array, i: number): boolean {
  return ((bits[i >> 5] as number) & (1 << (i & 31))) !== 0;
}

/** The index k (0 … count - 1) whose key is `wanted`, the keys ascending in string order; -1 when none. */
export function bisect(count: number, key: (k: number) => string, wanted: string): number {
  let low = 0;
  let high = count - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const found = key(middle);
    if (found === wanted) return middle;
    if (found < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
