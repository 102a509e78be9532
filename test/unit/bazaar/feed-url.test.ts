import { describe, expect, it } from "vitest";
import {
  cursorPageUrl,
  feedBaseUrl,
  feedPageUrl,
  pageKey,
  pageSizeOf,
} from "../../../src/sources/bazaar/feed-url";

describe("feed URLs", () => {
  it("when a page is asked for, then the configured query is kept and offset and limit are set", () => {
    expect(feedPageUrl("https://f.example/discovery/resources?type=http", 200, 100)).toBe(
      "https://f.example/discovery/resources?type=http&offset=200&limit=100",
    );
    expect(feedPageUrl("https://f.example/r?limit=50&offset=7", 50, 50)).toBe(
      "https://f.example/r?limit=50&offset=50",
    );
  });

  it("when the configured URL names a limit, then it is the page size; otherwise the default is", () => {
    expect(pageSizeOf("https://f.example/r?limit=25", 100)).toBe(25);
    expect(pageSizeOf("https://f.example/r", 100)).toBe(100);
    expect(pageSizeOf("https://f.example/r?limit=lots", 100)).toBe(100);
    expect(pageSizeOf("https://f.example/r?limit=0", 100)).toBe(100);
  });

  it("when the feed is identified, then a fragment and a walk position do not make another source", () => {
    expect(feedBaseUrl("https://f.example/r?type=http&offset=300#top")).toBe("https://f.example/r?type=http");
  });

  it("when a cursor page is asked for, then the configured query is kept, the offset dropped and the cursor set", () => {
    expect(cursorPageUrl("https://f.example/r?type=http&offset=0", "pageToken", "t=2", 50)).toBe(
      "https://f.example/r?type=http&limit=50&pageToken=t%3D2",
    );
  });

  it("when two URLs differ only in query order or fragment, then they are the same page", () => {
    expect(pageKey("https://f.example/r?limit=100&offset=0#x")).toBe(
      pageKey("https://f.example/r?offset=0&limit=100"),
    );
    expect(pageKey("https://f.example/r?offset=0")).not.toBe(pageKey("https://f.example/r?offset=100"));
  });
});
