import { describe, expect, it } from "vitest";
import { Interned } from "../../../../src/search/load/interned";
import { compareAmounts } from "../../../../src/search/tables/amounts";

describe("Interned", () => {
  it("when equal lists are given, then one shared list is returned, with its strings shared", () => {
    const shared = new Interned();
    const first = shared.list(["ai", "weather"]);
    const second = shared.list(["ai", "weather"].map((tag) => `${tag}`));
    expect(second).toBe(first);
    expect(shared.list(["weather", "ai"])).not.toBe(first); // order is kept as given
    expect(shared.of("ai")).toBe(first[0]);
  });

  it("when an empty list and a list of one empty string are given, then each keeps its own length", () => {
    const shared = new Interned();
    expect(shared.list([])).toEqual([]);
    expect(shared.list([""])).toEqual([""]);
    expect(shared.list([])).toEqual([]);
  });

  it("when the same decimal text is given twice, then one amount is returned, equal to the exact value", () => {
    const shared = new Interned();
    const price = shared.amount("0.001");
    expect(shared.amount("0.001")).toBe(price);
    expect(compareAmounts(price, shared.amount("0.0010"))).toBe(0);
    expect(compareAmounts(price, shared.amount("0.01"))).toBeLessThan(0);
  });
});
