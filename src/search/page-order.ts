/**
 * The items [offset, offset + limit) of `count` items (numbered 0…count-1) in the order of
 * `compare`, without sorting all of them when the page is near the top: a bounded max-heap keeps
 * the offset + limit first ones, so most items cost one comparison with its top.
 */
export function pageInOrder(
  count: number,
  offset: number,
  limit: number,
  compare: (a: number, b: number) => number,
): number[] {
  const keep = offset + limit;
  if (keep * 4 >= count) {
    return Array.from({ length: count }, (_, i) => i)
      .sort(compare)
      .slice(offset, keep);
  }
  const heap: number[] = [];
  const siftDown = (from: number) => {
    let i = from;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let largest = i;
      if (left < heap.length && compare(heap[left] as number, heap[largest] as number) > 0) largest = left;
      if (right < heap.length && compare(heap[right] as number, heap[largest] as number) > 0) largest = right;
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest] as number, heap[i] as number];
      i = largest;
    }
  };
  for (let item = 0; item < count; item += 1) {
    if (heap.length < keep) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (compare(heap[i] as number, heap[parent] as number) <= 0) break;
        [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
        i = parent;
      }
    } else if (compare(item, heap[0] as number) < 0) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort(compare).slice(offset);
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
