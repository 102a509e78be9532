import { describe, expect, it } from "vitest";
import { ordinals, pageInOrder } from "../../../src/search/page-order";

describe("pageInOrder", () => {
  const values = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000); // a permutation
  const byValue = (a: number, b: number) => (values[a] ?? 0) - (values[b] ?? 0);
  const sortedPage = (offset: number, limit: number) =>
    Array.from(values.keys())
      .sort(byValue)
      .slice(offset, offset + limit);

  it("when the page is near the top (heap) or deep (full sort), then it equals a slice of the full sort", () => {
    for (const [offset, limit] of [
      [0, 50],
      [50, 50],
      [0, 1],
      [900, 50],
      [990, 50],
      [0, 1000],
      [1000, 10],
    ] as const) {
      expect(pageInOrder(values.length, offset, limit, byValue)).toEqual(sortedPage(offset, limit));
    }
  });

  it("when items tie, then the comparison's own tie-break decides, whatever the path", () => {
    const ties = (a: number, b: number) => Math.floor(a / 10) - Math.floor(b / 10) || b - a;
    const expected = Array.from({ length: 100 }, (_, i) => i).sort(ties);
    expect(pageInOrder(100, 0, 5, ties)).toEqual(expected.slice(0, 5));
    expect(pageInOrder(100, 0, 100, ties)).toEqual(expected);
  });
});

describe("ordinals", () => {
  it("when keys are strings, then each item gets its place in ascending key order", () => {
    expect(Array.from(ordinals(4, (i) => ["c", "a", "d", "b"][i] ?? ""))).toEqual([2, 0, 3, 1]);
  });
});
