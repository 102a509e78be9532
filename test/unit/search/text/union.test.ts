import { describe, expect, it } from "vitest";
import { union } from "../../../../src/search/text/text-postings";

/** An ascending list without repeats, of about `size` documents drawn from 0..range. */
function postingOf(seed: number, size: number, range: number): Int32Array {
  const docs = new Set<number>();
  let state = seed;
  for (let k = 0; k < size; k += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    docs.add(state % range);
  }
  return Int32Array.from([...docs].sort((a, b) => a - b));
}

describe("union of two postings (an OR's candidates)", () => {
  it("when the lists overlap, interleave or repeat each other, then the union is ascending, complete and without repeats", () => {
    for (const [seed, sizes, range] of [
      [1, [50, 60], 100],
      [2, [500, 5], 10_000],
      [3, [1, 1_000], 1_200],
      [4, [300, 300], 300],
    ] as const) {
      const left = postingOf(seed, sizes[0], range);
      const right = postingOf(seed + 100, sizes[1], range);
      const expected = [...new Set([...left, ...right])].sort((a, b) => a - b);
      expect([...union(left, right)]).toEqual(expected);
      expect([...union(right, left)]).toEqual(expected);
    }
  });

  it("when a side is empty or both are the same list, then the union is the other list", () => {
    const list = Int32Array.from([2, 3, 5, 8]);
    expect([...union(list, new Int32Array(0))]).toEqual([2, 3, 5, 8]);
    expect([...union(new Int32Array(0), list)]).toEqual([2, 3, 5, 8]);
    expect([...union(list, list)]).toEqual([2, 3, 5, 8]);
    expect([...union(Int32Array.from([0]), Int32Array.from([2_000_000]))]).toEqual([0, 2_000_000]);
  });
});
