/** Whether item a comes after item b: a larger key, or an equal key and a larger tie. */
function isAfter(keys: Float64Array, ties: Int32Array, a: number, b: number): boolean {
  const keyA = keys[a] as number;
  const keyB = keys[b] as number;
  return keyA > keyB || (keyA === keyB && (ties[a] as number) > (ties[b] as number));
}

/** Puts `item` at heap[0] of a max-heap of `size` items and restores the heap. */
function replaceTop(
  heap: Int32Array,
  size: number,
  keys: Float64Array,
  ties: Int32Array,
  item: number,
): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) break;
    const right = left + 1;
    const larger =
      right < size && isAfter(keys, ties, heap[right] as number, heap[left] as number) ? right : left;
    const child = heap[larger] as number;
    if (!isAfter(keys, ties, child, item)) break;
    heap[i] = child;
    i = larger;
  }
  heap[i] = item;
}

/**
 * The items [offset, offset + limit) of items 0…count-1 ordered by `keys` ascending, ties by
 * `ties` ascending, without sorting them all: a bounded max-heap keeps the offset + limit first
 * ones (most items cost one comparison with its top) and is emptied in order at the end. Keys in
 * typed arrays and comparisons inline rather than a comparison callback, which Array.sort calls
 * at a few tens of ns each.
 */
export function pageByKeys(keys: Float64Array, ties: Int32Array, offset: number, limit: number): number[] {
  const keep = Math.min(offset + limit, keys.length);
  const heap = new Int32Array(keep);
  for (let item = 0; item < keep; item += 1) {
    // Sift up from the end.
    let i = item;
    while (i > 0 && isAfter(keys, ties, item, heap[(i - 1) >> 1] as number)) {
      heap[i] = heap[(i - 1) >> 1] as number;
      i = (i - 1) >> 1;
    }
    heap[i] = item;
  }
  for (let item = keep; item < keys.length; item += 1) {
    // Kept only if before the top (the last of those kept), which it replaces.
    if (keep > 0 && isAfter(keys, ties, heap[0] as number, item)) replaceTop(heap, keep, keys, ties, item);
  }
  // Emptied from the last kept to the first.
  const ordered = new Array<number>(keep);
  for (let size = keep; size > 0; size -= 1) {
    ordered[size - 1] = heap[0] as number;
    replaceTop(heap, size - 1, keys, ties, heap[size - 1] as number);
  }
  return ordered.slice(offset);
}

/**
 * The page of ranked matches, highest rank first (lowest with `ascending`), equal ranks in id
 * order (`idPlace`: each entry's place in it). The ranks become the keys in place.
 */
export function pageByRank(
  matches: Int32Array,
  ranks: Float64Array,
  idPlace: Int32Array,
  offset: number,
  limit: number,
  ascending = false,
): number[] {
  const ties = new Int32Array(matches.length);
  for (let m = 0; m < matches.length; m += 1) {
    if (!ascending) ranks[m] = -(ranks[m] as number);
    ties[m] = idPlace[matches[m] as number] as number;
  }
  return pageByKeys(ranks, ties, offset, limit).map((m) => matches[m] as number);
}

/** Each item's rank by `key` ascending (ties by index): an integer tie-break for string ids. */
export function ordinals(count: number, key: (i: number) => string): Int32Array {
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  const result = new Int32Array(count);
  order.forEach((item, rank) => {
    result[item] = rank;
  });
  return result;
}
