import { describe, expect, it } from "vitest";
import { nextOffsets } from "../../../src/sources/bazaar/parse";

describe("nextOffsets", () => {
  it("lists every remaining page up to total", () => {
    expect(nextOffsets({ limit: 100, offset: 0, total: 250 })).toEqual([100, 200]);
  });

  it("does not add an empty page when total is a multiple of limit", () => {
    expect(nextOffsets({ limit: 100, offset: 0, total: 200 })).toEqual([100]);
  });

  it("returns nothing when the first page holds everything", () => {
    expect(nextOffsets({ limit: 100, offset: 0, total: 42 })).toEqual([]);
  });

  it("continues from a page that is not the first", () => {
    expect(nextOffsets({ limit: 50, offset: 100, total: 260 })).toEqual([150, 200, 250]);
  });

  it("steps by the items received when the server served fewer than the echoed limit", () => {
    expect(nextOffsets({ limit: 1000, offset: 0, total: 250 }, 100)).toEqual([100, 200]);
  });

  it("ignores an empty received count and steps by limit", () => {
    expect(nextOffsets({ limit: 100, offset: 0, total: 250 }, 0)).toEqual([100, 200]);
  });

  it("returns nothing for a zero limit instead of looping forever", () => {
    expect(nextOffsets({ limit: 0, offset: 0, total: 250 })).toEqual([]);
  });
});
