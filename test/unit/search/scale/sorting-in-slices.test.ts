import { describe, expect, it } from "vitest";
import { joinInSlices, sortInSlices } from "../../../../src/search/scale/sorting-in-slices";

const byValue = (a: number, b: number) => a - b;

describe("sorting and joining in slices", () => {
  it("when values of any count are sorted in slices, then the order is a plain sort's", async () => {
    for (const count of [0, 1, 2, 8_191, 8_192, 8_193, 24_577, 70_001]) {
      const values = Int32Array.from({ length: count }, (_, i) => (i * 104_729) % 99_991);
      const expected = Int32Array.from(values).sort(byValue);
      expect(Array.from(await sortInSlices(values, byValue)), `count ${count}`).toEqual(Array.from(expected));
    }
  });

  it("when the comparator orders by something else (strings by id), then the ids come in that order", async () => {
    const words = ["pear", "apple", "fig", "banana", "cherry"];
    const order = await sortInSlices(Int32Array.from(words.keys()), (a, b) =>
      (words[a] as string) < (words[b] as string) ? -1 : 1,
    );
    expect(Array.from(order, (id) => words[id])).toEqual(["apple", "banana", "cherry", "fig", "pear"]);
  });

  it("when pieces are joined in slices, then the text is a plain join's", async () => {
    for (const count of [0, 1, 8_193, 20_000]) {
      const piece = (k: number) => `${k.toString(36)},`;
      expect(await joinInSlices(count, piece)).toBe(
        Array.from({ length: count }, (_, k) => piece(k)).join(""),
      );
    }
  });
});
