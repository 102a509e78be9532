import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ResponseCache } from "../../../src/http/response-cache";

describe("ResponseCache", () => {
  it("when an answer is stored, then it is kept as JSON and gzip with a weak ETag", () => {
    const cache = new ResponseCache(10_000, 10);
    const entry = cache.store("/v1/services?q=a", JSON.stringify({ items: [1] }), undefined, 0);
    expect(entry.json.toString()).toBe('{"items":[1]}');
    expect(gunzipSync(entry.gzip).toString()).toBe('{"items":[1]}');
    expect(entry.etag).toMatch(/^W\/"d-[\w-]+"$/);
    expect(cache.get("/v1/services?q=a", 1)).toBe(entry);
  });

  it("when the time to live has passed, then the answer is gone", () => {
    const cache = new ResponseCache(10_000, 10);
    cache.store("/a", JSON.stringify(1), undefined, 0);
    expect(cache.get("/a", 9_999)).toBeDefined();
    expect(cache.get("/a", 10_000)).toBeUndefined();
  });

  it("when the cache is full, then the least recently used answer goes first", () => {
    const cache = new ResponseCache(10_000, 2);
    cache.store("/a", JSON.stringify(1), undefined, 0);
    cache.store("/b", JSON.stringify(2), undefined, 0);
    cache.get("/a", 1);
    cache.store("/c", JSON.stringify(3), undefined, 2);
    expect(cache.get("/a", 3)).toBeDefined();
    expect(cache.get("/b", 3)).toBeUndefined();
    expect(cache.get("/c", 3)).toBeDefined();
  });

  it("when caching is off or an answer is too large, then nothing is kept but the answer is prepared", () => {
    const off = new ResponseCache(0, 10);
    expect(off.store("/a", JSON.stringify({ a: 1 }), undefined, 0).json.length).toBeGreaterThan(0);
    expect(off.get("/a", 0)).toBeUndefined();
    const small = new ResponseCache(10_000, 10, 8);
    small.store("/big", JSON.stringify({ text: "more than eight bytes" }), undefined, 0);
    expect(small.get("/big", 0)).toBeUndefined();
  });
});
