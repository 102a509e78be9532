/** Ascending lists of integers (postings, lists of entries): searching them in step. */

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
