import { setImmediate as yieldToEventLoop } from "node:timers/promises";

/**
 * Sorting that gives the event loop a turn every few milliseconds: sorting 100,000-200,000
 * lexemes with a comparator takes 300-500 ms in one turn. A large catalogue's lexicons are packed
 * on build workers, where that only delays the worker (a worker's turns never hold the answering
 * thread's loop), but a catalogue built in place (below BUILD_OFF_THREAD_FROM) packs its lexicon on the
 * answering thread when its image is written.
 */

/** Values sorted per run before merging (~10 ms of comparator calls). */
const RUN = 8_192;
/** Values merged between two turns of the event loop. */
const MERGED_PER_TURN = 32_768;

/**
 * The values sorted by `compare`: runs sorted one per turn, then merged pairwise, a slice per
 * turn. `values` is reordered in place and may be returned.
 */
export async function sortInSlices(
  values: Int32Array,
  compare: (a: number, b: number) => number,
): Promise<Int32Array> {
  for (let from = 0; from < values.length; from += RUN) {
    values.subarray(from, from + RUN).sort(compare);
    await yieldToEventLoop();
  }
  let source: Int32Array = values;
  let target: Int32Array = new Int32Array(values.length);
  let merged = 0;
  for (let width = RUN; width < values.length; width *= 2) {
    for (let left = 0; left < values.length; left += 2 * width) {
      const middle = Math.min(left + width, values.length);
      const right = Math.min(left + 2 * width, values.length);
      let i = left;
      let j = middle;
      for (let k = left; k < right; k += 1) {
        const takeLeft = j >= right || (i < middle && compare(source[i] as number, source[j] as number) <= 0);
        target[k] = takeLeft ? (source[i++] as number) : (source[j++] as number);
        merged += 1;
        if (merged % MERGED_PER_TURN === 0) await yieldToEventLoop();
      }
    }
    [source, target] = [target, source];
  }
  return source;
}

/** The strings joined, a slice per turn of the event loop. */
export async function joinInSlices(count: number, piece: (k: number) => string): Promise<string> {
  const parts: string[] = [];
  for (let from = 0; from < count; from += RUN) {
    const to = Math.min(from + RUN, count);
    parts.push(Array.from({ length: to - from }, (_, k) => piece(from + k)).join(""));
    await yieldToEventLoop();
  }
  return parts.join("");
}
