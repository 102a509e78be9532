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

/**
 * Work over a table's items as passes, each over the items [0, size) in ascending ranges, and a
 * result read once every pass has run. A small catalogue runs each pass over every item at once
 * (runPasses); the catalogue is given a runner for the orders it computes ahead of requests (see
 * scale/scale-parts.ts), which may run them a range at a time.
 */
export interface ItemPasses<T> {
  size: number;
  passes: ReadonlyArray<(from: number, to: number) => void>;
  result: () => T;
}

/** Runs the work now: each pass over every item. */
export function runPasses<T>({ size, passes, result }: ItemPasses<T>): T {
  for (const pass of passes) pass(0, size);
  return result();
}

/** How work computed ahead of requests is run. */
export type PassRunner = <T>(work: ItemPasses<T>) => Promise<T>;

/** The runner of a catalogue given none: each pass at once. */
export const runPassesNow: PassRunner = async (work) => runPasses(work);

/** An order of items and each item's place in it. */
export interface ItemOrder {
  sorted: Int32Array;
  place: Int32Array;
}

/**
 * Every item in the order of its dense rank (ascending, or descending), rank 0 (no value) last in
 * both directions, equal ranks by place in id order; and each item's place in that order. A
 * counting sort over the items in id order, linear (a comparison sort of 100,000 entries takes
 * ~100 ms). `ranks` is read by the passes, so a pass put before them may fill it.
 */
export function rankOrder(
  ranks: Int32Array,
  idPlace: Int32Array,
  descending: boolean,
): ItemPasses<ItemOrder> {
  const size = ranks.length;
  const byId = new Int32Array(size);
  const sorted = new Int32Array(size);
  const place = new Int32Array(size);
  let highest = 0;
  let starts = new Int32Array(0);
  const bucketOf = (rank: number) => (rank === 0 ? highest + 1 : descending ? highest + 1 - rank : rank);
  const idOrder = (from: number, to: number) => {
    for (let i = from; i < to; i += 1) {
      byId[idPlace[i] as number] = i;
      highest = Math.max(highest, ranks[i] as number);
    }
  };
  const bucketSizes = (from: number, to: number) => {
    if (from === 0) starts = new Int32Array(highest + 3);
    for (let i = from; i < to; i += 1) {
      const next = bucketOf(ranks[i] as number) + 1;
      starts[next] = (starts[next] as number) + 1;
    }
    if (to === size)
      for (let b = 1; b < starts.length; b += 1)
        starts[b] = (starts[b] as number) + (starts[b - 1] as number);
  };
  const placeItems = (from: number, to: number) => {
    for (let k = from; k < to; k += 1) {
      const i = byId[k] as number;
      const bucket = bucketOf(ranks[i] as number);
      const at = starts[bucket] as number;
      sorted[at] = i;
      place[i] = at;
      starts[bucket] = at + 1;
    }
  };
  return { size, passes: [idOrder, bucketSizes, placeItems], result: () => ({ sorted, place }) };
}

/** The order of items ranked by a pass that fills `ranks` (`rankItems`), then by rankOrder. */
export function rankedOrder(
  rankItems: (ranks: Int32Array, from: number, to: number) => void,
  idPlace: Int32Array,
  descending: boolean,
): ItemPasses<ItemOrder> {
  const ranks = new Int32Array(idPlace.length);
  const order = rankOrder(ranks, idPlace, descending);
  return { ...order, passes: [(from, to) => rankItems(ranks, from, to), ...order.passes] };
}
