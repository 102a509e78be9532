import type { Steps } from "../scale/event-loop-slices";

/**
 * How a page orders its candidates: candidate m is item items[m] with key keys[m] (ascending, or
 * descending), equal keys by the item's place in id order, tiePlace[items[m]], ascending.
 */
interface Order {
  items: Int32Array;
  keys: Float32Array;
  /** 1 ascending, -1 descending. */
  sign: number;
  tiePlace: Int32Array;
}

/** Whether candidate a comes after candidate b. */
function isAfter({ items, keys, sign, tiePlace }: Order, a: number, b: number): boolean {
  const keyA = sign * (keys[a] as number);
  const keyB = sign * (keys[b] as number);
  return (
    keyA > keyB ||
    (keyA === keyB && (tiePlace[items[a] as number] as number) > (tiePlace[items[b] as number] as number))
  );
}

/** Puts `candidate` at heap[0] of a max-heap of `size` candidates and restores the heap. */
function replaceTop(heap: Int32Array, size: number, order: Order, candidate: number): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) break;
    const right = left + 1;
    const larger = right < size && isAfter(order, heap[right] as number, heap[left] as number) ? right : left;
    const child = heap[larger] as number;
    if (!isAfter(order, child, candidate)) break;
    heap[i] = child;
    i = larger;
  }
  heap[i] = candidate;
}

/**
 * The items [offset, offset + limit) of `items` ordered by `keys` (keys[m] is items[m]'s;
 * `descending` for ranks), equal keys by tiePlace[item] ascending (the place in id order, so
 * paging is stable), without sorting them all: a bounded max-heap keeps the offset + limit first
 * ones (most candidates cost one comparison with its top) and is emptied in order at the end.
 * Nothing is copied or written per candidate (a search for a common word has thousands), and
 * comparisons are inline rather than a callback, which Array.sort calls at a few tens of ns each.
 */
export function pageByKeys(
  items: Int32Array,
  keys: Float32Array,
  descending: boolean,
  tiePlace: Int32Array,
  offset: number,
  limit: number,
): number[] {
  const order: Order = { items, keys, sign: descending ? -1 : 1, tiePlace };
  const keep = Math.min(offset + limit, items.length);
  const heap = new Int32Array(keep);
  for (let m = 0; m < keep; m += 1) {
    // Sift up from the end.
    let i = m;
    while (i > 0 && isAfter(order, m, heap[(i - 1) >> 1] as number)) {
      heap[i] = heap[(i - 1) >> 1] as number;
      i = (i - 1) >> 1;
    }
    heap[i] = m;
  }
  if (keep > 0) {
    // Kept only if before the top (the last of those kept), which it replaces. Most candidates
    // fall behind the top on their key alone: one load and compare with the top's key, held here.
    const { sign } = order;
    let topKey = sign * (keys[heap[0] as number] as number);
    for (let m = keep; m < items.length; m += 1) {
      const key = sign * (keys[m] as number);
      if (key > topKey || (key === topKey && !isAfter(order, heap[0] as number, m))) continue;
      replaceTop(heap, keep, order, m);
      topKey = sign * (keys[heap[0] as number] as number);
    }
  }
  // Emptied from the last kept to the first.
  const page = new Array<number>(keep);
  for (let size = keep; size > 0; size -= 1) {
    page[size - 1] = items[heap[0] as number] as number;
    replaceTop(heap, size - 1, order, heap[size - 1] as number);
  }
  return page.slice(offset);
}

/** Items walked between two slices of an order's steps (~1-3 ms of a pass over typed arrays). */
export const ITEMS_PER_SLICE = 16_384;

/** [from, to) of each slice of `size` items. */
export function* slices(size: number): Generator<[number, number]> {
  for (let from = 0; from < size; from += ITEMS_PER_SLICE)
    yield [from, Math.min(size, from + ITEMS_PER_SLICE)];
}

/** An order of items and each item's place in it. */
export interface ItemOrder {
  sorted: Int32Array;
  place: Int32Array;
}

/**
 * Every item in the order of its dense rank (ascending, or descending), rank 0 (no value) last in
 * both directions, equal ranks by place in id order; and each item's place in that order. A
 * counting sort over the items in id order: linear (a comparison sort of 100,000 entries took
 * ~100 ms), and written as steps (see event-loop-slices.ts) so it can also be prepared a slice per turn.
 */
export function* orderByRanksSteps(
  ranks: Int32Array,
  idPlace: Int32Array,
  descending: boolean,
): Steps<ItemOrder> {
  const size = ranks.length;
  const byId = new Int32Array(size);
  let highest = 0;
  for (const [from, to] of slices(size)) {
    for (let i = from; i < to; i += 1) {
      byId[idPlace[i] as number] = i;
      highest = Math.max(highest, ranks[i] as number);
    }
    yield;
  }
  const bucketOf = (rank: number) => (rank === 0 ? highest + 1 : descending ? highest + 1 - rank : rank);
  const starts = new Int32Array(highest + 3);
  for (const [from, to] of slices(size)) {
    for (let i = from; i < to; i += 1) {
      const next = bucketOf(ranks[i] as number) + 1;
      starts[next] = (starts[next] as number) + 1;
    }
    yield;
  }
  for (let b = 1; b < starts.length; b += 1) starts[b] = (starts[b] as number) + (starts[b - 1] as number);
  const sorted = new Int32Array(size);
  const place = new Int32Array(size);
  for (const [from, to] of slices(size)) {
    for (let k = from; k < to; k += 1) {
      const i = byId[k] as number;
      const bucket = bucketOf(ranks[i] as number);
      const at = starts[bucket] as number;
      sorted[at] = i;
      place[i] = at;
      starts[bucket] = at + 1;
    }
    yield;
  }
  return { sorted, place };
}
