import { describe, expect, it } from "vitest";
import { IdLookup } from "../../../src/search/id-lookup";

describe("IdLookup", () => {
  const ids = [
    "c0a80121-0000-4000-8000-000000000003",
    "0f000000-0000-4000-8000-000000000001",
    "ffffffff-0000-4000-8000-000000000009",
    "1a000000-0000-4000-8000-000000000002",
  ];
  // Places in id order, as Postgres gives them (uuid order is the order of their text).
  const idPlace = Int32Array.from([2, 0, 3, 1]);
  const lookup = new IdLookup(idPlace, (i) => ids[i] ?? "");

  it("when an id is held, then its entry's index is found", () => {
    ids.forEach((id, i) => {
      expect(lookup.find(id)).toBe(i);
    });
  });

  it("when an id is not held, then nothing is found", () => {
    expect(lookup.find("00000000-0000-4000-8000-000000000000")).toBeUndefined();
    expect(lookup.find("c0a80121-0000-4000-8000-000000000004")).toBeUndefined();
  });
});
