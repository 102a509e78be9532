import { describe, expect, it } from "vitest";
import { IdLookup, packedIdAt, packIds, UUID_LENGTH } from "../../../../src/search/tables/id-lookup";

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

describe("packed ids", () => {
  const ids = ["0f000000-0000-4000-8000-000000000001", "c0a80121-0000-4000-8000-00000000000a"];

  it("when ids are packed, then each reads back as it was, from bytes of its own buffer", () => {
    const packed = packIds(ids);
    expect(packed.byteLength).toBe(ids.length * UUID_LENGTH);
    expect(packed.buffer.byteLength).toBe(packed.byteLength); // movable to another thread whole
    expect(ids.map((_, k) => packedIdAt(packed, k))).toEqual(ids);
  });

  it("when an id is not an uuid's text, then packing refuses it", () => {
    expect(() => packIds(["not-an-id"])).toThrow(/not an uuid/);
    expect(() => packIds(["0f000000-0000-4000-8000-00000000000é"])).toThrow(/not an uuid/);
  });
});
