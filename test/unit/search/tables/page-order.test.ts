import { describe, expect, it } from "vitest";
import { runPassesInSlices } from "../../../../src/search/scale/event-loop-slices";
import { ITEMS_PER_SLICE } from "../../../../src/search/scale/thresholds";
import { pageByKeys, rankOrder, runPasses } from "../../../../src/search/tables/page-order";

const orderByRanks = (ranks: Int32Array, idPlace: Int32Array, descending: boolean) =>
  runPasses(rankOrder(ranks, idPlace, descending));

describe("pageByKeys", () => {
  const values = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000); // a permutation
  const keys = Float32Array.from(values);
  const identity = (n: number) => Int32Array.from({ length: n }, (_, i) => i);
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
      expect(pageByKeys(identity(1000), keys, false, identity(1000), offset, limit)).toEqual(
        sortedPage(offset, limit),
      );
    }
  });

  it("when keys tie, then the items' tie places decide, whatever the path", () => {
    // Keys in groups of ten, and within a group the higher index first (tie places descending).
    const groups = Float32Array.from({ length: 100 }, (_, i) => Math.floor(i / 10));
    const reversed = Int32Array.from({ length: 100 }, (_, i) => 99 - i);
    const expected = Array.from({ length: 100 }, (_, i) => i).sort(
      (a, b) => Math.floor(a / 10) - Math.floor(b / 10) || b - a,
    );
    expect(pageByKeys(identity(100), groups, false, reversed, 0, 5)).toEqual(expected.slice(0, 5));
    expect(pageByKeys(identity(100), groups, false, reversed, 20, 5)).toEqual(expected.slice(20, 25));
    expect(pageByKeys(identity(100), groups, false, reversed, 0, 100)).toEqual(expected);
  });

  it("when many candidates tie with the kept ones, in either direction, then every page equals the full sort's", () => {
    // A seeded generator: ranks take few distinct values, as ts_rank's do, so most candidates meet
    // the heap's top with an equal key and the tie place decides.
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let round = 0; round < 20; round += 1) {
      const count = 200 + Math.floor(random() * 800);
      const items = Int32Array.from({ length: count }, (_, i) => 3 * i + 1);
      const ranks = Float32Array.from({ length: count }, () => Math.floor(random() * 6) / 10);
      // Tie places are places in id order: a permutation, shuffled (Fisher-Yates).
      const tiePlace = Int32Array.from({ length: 3 * count + 1 }, (_, i) => i);
      for (let i = tiePlace.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [tiePlace[i], tiePlace[j]] = [tiePlace[j] ?? 0, tiePlace[i] ?? 0];
      }
      for (const descending of [true, false]) {
        const sign = descending ? -1 : 1;
        const expected = Array.from(items.keys())
          .sort(
            (a, b) =>
              sign * ((ranks[a] ?? 0) - (ranks[b] ?? 0)) ||
              (tiePlace[items[a] ?? 0] ?? 0) - (tiePlace[items[b] ?? 0] ?? 0),
          )
          .map((m) => items[m]);
        for (const [offset, limit] of [
          [0, 50],
          [50, 50],
          [0, 1],
          [count - 10, 50],
        ] as const) {
          expect(pageByKeys(items, ranks, descending, tiePlace, offset, limit)).toEqual(
            expected.slice(offset, offset + limit),
          );
        }
      }
    }
  });

  it("when descending (ranks), then the highest keys come first, equal ones by tie place", () => {
    const ranks = [0.5, 0.25, 0.75, 0.25, 0.1, 0.9, 0.6, 0.3, 0.45, 0.05, 0.8, 0.7, 0.2, 0.15, 0.35, 0.4];
    const expected = Array.from(ranks.keys()).sort((a, b) => (ranks[b] ?? 0) - (ranks[a] ?? 0) || a - b);
    const page = pageByKeys(
      identity(ranks.length),
      Float32Array.from(ranks),
      true,
      identity(ranks.length),
      0,
      4,
    );
    expect(page).toEqual(expected.slice(0, 4));
    expect(page.slice(2)).toEqual([2, 11]); // 0.75 then 0.7
  });

  it("when candidates stand for other items, then the page is of those items, tied by their own places", () => {
    // Candidates 0..3 are items 40, 10, 30, 20 with equal keys: item order by tie place.
    const items = Int32Array.from([40, 10, 30, 20]);
    const tiePlace = new Int32Array(50);
    for (const [item, place] of [
      [40, 0],
      [10, 3],
      [30, 1],
      [20, 2],
    ] as const)
      tiePlace[item] = place;
    expect(pageByKeys(items, new Float32Array(4), true, tiePlace, 0, 3)).toEqual([40, 30, 20]);
    expect(pageByKeys(items, Float32Array.from([4, 3, 2, 1]), false, tiePlace, 1, 2)).toEqual([30, 10]);
  });
});

describe("orderByRanks", () => {
  // Entries 0…4 with ranks (0: no value) and places in id order.
  const ranks = Int32Array.from([2, 0, 1, 2, 3]);
  const idPlace = Int32Array.from([3, 0, 4, 1, 2]);

  it("when ascending, then lower ranks come first, equal ranks by id, no value last", () => {
    const { sorted, place } = orderByRanks(ranks, idPlace, false);
    expect(Array.from(sorted)).toEqual([2, 3, 0, 4, 1]);
    expect(Array.from(place)).toEqual([2, 4, 0, 1, 3]);
  });

  it("when descending, then higher ranks come first, equal ranks still by id, no value still last", () => {
    expect(Array.from(orderByRanks(ranks, idPlace, true).sorted)).toEqual([4, 3, 0, 2, 1]);
  });

  it("when every rank is 0, then the order is the id order", () => {
    expect(Array.from(orderByRanks(new Int32Array(5), idPlace, true).sorted)).toEqual([1, 3, 4, 0, 2]);
  });

  it("when an order of many items is computed in slices, then it is the order computed at once, and requests get turns between slices", async () => {
    const size = 3 * ITEMS_PER_SLICE + 5;
    const manyRanks = Int32Array.from({ length: size }, (_, i) => (i * 7_919) % 97);
    const manyPlaces = Int32Array.from({ length: size }, (_, i) => (i * 104_729) % size);
    let turns = 0;
    const counting = setInterval(() => {
      turns += 1;
    }, 0);
    let slices = 0;
    const work = rankOrder(manyRanks, manyPlaces, true);
    const counted = {
      ...work,
      passes: work.passes.map((pass) => (from: number, to: number) => {
        slices += 1;
        pass(from, to);
      }),
    };
    const sliced = await runPassesInSlices(counted);
    clearInterval(counting);
    const atOnce = orderByRanks(manyRanks, manyPlaces, true);
    expect(Array.from(sliced.sorted)).toEqual(Array.from(atOnce.sorted));
    expect(Array.from(sliced.place)).toEqual(Array.from(atOnce.place));
    // Three passes of four slices each, with the event loop free between them.
    expect(slices).toBe(12);
    expect(turns).toBeGreaterThan(0);
  });

  it("when there are no items, then an order computed in slices is empty, as one computed at once", async () => {
    const none = new Int32Array(0);
    const sliced = await runPassesInSlices(rankOrder(none, none, false));
    expect(Array.from(sliced.sorted)).toEqual([]);
    expect(orderByRanks(none, none, false).sorted.length).toBe(0);
  });
});
