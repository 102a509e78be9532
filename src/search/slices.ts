import { setImmediate as yieldToEventLoop } from "node:timers/promises";

/**
 * `items.map(map)` in slices with the event loop free in between: building a large catalogue's
 * entries (each serialised to JSON) in one go held every request for hundreds of milliseconds.
 */
export async function mapInSlices<T, U>(
  items: readonly T[],
  map: (item: T) => U,
  sliceSize = 1_000,
): Promise<U[]> {
  const mapped: U[] = [];
  for (let start = 0; start < items.length; start += sliceSize) {
    if (start > 0) await yieldToEventLoop();
    for (const item of items.slice(start, start + sliceSize)) mapped.push(map(item));
  }
  return mapped;
}
