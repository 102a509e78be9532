import { describe, expect, it } from "vitest";
import { ordinals, pageByKeys } from "../../../src/search/page-order";

describe("pageByKeys", () => {
  const values = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000); // a permutation
  const keys = Float64Array.from(values);
  const noTies = new Int32Array(values.length);
  const sortedPage = (offset: number, limit: number) =>
    Array.from(values.keys())
      .sort((a, b) => (values[a] ?? 0) - (values[b] ?? 0))
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
      expect(pageByKeys(keys, noTies, offset, limit)).toEqual(sortedPage(offset, limit));
    }
  });

  it("when keys tie, then the ties decide, whatever the path", () => {
    // Keys in groups of ten, and within a group the higher index first (ties descending).
    const groups = Float64Array.from({ length: 100 }, (_, i) => Math.floor(i / 10));
    const reversed = Int32Array.from({ length: 100 }, (_, i) => -i);
    const expected = Array.from({ length: 100 }, (_, i) => i).sort(
      (a, b) => Math.floor(a / 10) - Math.floor(b / 10) || b - a,
    );
    expect(pageByKeys(groups, reversed, 0, 5)).toEqual(expected.slice(0, 5));
    expect(pageByKeys(groups, reversed, 20, 5)).toEqual(expected.slice(20, 25));
    expect(pageByKeys(groups, reversed, 0, 100)).toEqual(expected);
  });

  it("when keys are negative or fractional (ranks, descending), then they order as numbers", () => {
    const ranks = [0.5, 0.25, 0.75, 0.25, 0.1, 0.9, 0.6, 0.3, 0.45, 0.05, 0.8, 0.7, 0.2, 0.15, 0.35, 0.4];
    const negated = Float64Array.from(ranks, (rank) => -rank);
    const expected = Array.from(ranks.keys()).sort((a, b) => (ranks[b] ?? 0) - (ranks[a] ?? 0) || a - b);
    expect(pageByKeys(negated, Int32Array.from(ranks.keys()), 0, 3)).toEqual(expected.slice(0, 3));
  });
});

describe("ordinals", () => {
  it("when keys are strings, then each item gets its place in ascending key order", () => {
    expect(Array.from(ordinals(4, (i) => ["c", "a", "d", "b"][i] ?? ""))).toEqual([2, 0, 3, 1]);
  });
});
