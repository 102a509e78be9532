import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FeedFailure,
  type FeedPage,
  type FeedSettings,
  walkFeed,
} from "../../../src/sources/bazaar/fetch-feed";
import { feedItems } from "../../fixtures/bazaar/feed-items";
import { testFeedSettings } from "../../support/crawl";
import { FixtureFeed } from "../../support/fixture-feed";

const SETTINGS = testFeedSettings();

describe("walking a discovery feed", () => {
  let feed: FixtureFeed;
  let pages: FeedPage[];
  let failures: FeedFailure[];
  beforeEach(async () => {
    feed = await new FixtureFeed().start();
    feed.items = feedItems(8);
    pages = [];
    failures = [];
  });
  afterEach(() => feed.stop());

  const walk = (overrides: Partial<FeedSettings> = {}, url = feed.url, signal?: AbortSignal) =>
    walkFeed(
      url,
      { ...SETTINGS, ...overrides },
      { onPage: (p) => pages.push(p), onFailure: (f) => failures.push(f) },
      signal,
    );
  const resourcesRead = () => pages.flatMap((p) => p.page.items.map((i) => i.resourceUrl));

  it("when the server serves fewer items than asked, then the walk steps by what it served and misses nothing", async () => {
    feed.maxPageSize = 2;
    const result = await walk();
    expect(result).toMatchObject({ complete: true, pagesRead: 4 });
    expect(feed.offsetsRequested()).toEqual([0, 2, 4, 6]);
    expect(new Set(resourcesRead()).size).toBe(8);
  });

  it("when the feed names its array resources, then every page is read and a bad item is handed on as received", async () => {
    feed.itemsKey = "resources";
    feed.items = [...feedItems(4), { resource: "/relative" }];
    const result = await walk();
    expect(result).toMatchObject({ complete: true, pagesRead: 2 });
    expect(new Set(resourcesRead()).size).toBe(4);
    expect(pages[1]?.page.problems).toEqual([
      { index: 1, reason: "resource is not an absolute URL: /relative" },
    ]);
    expect(pages[1]?.rawItems[1]).toEqual({ resource: "/relative" });
  });

  it("when the configured URL has a query, then it is kept and its limit is the page size", async () => {
    const result = await walk({}, `${feed.url}?type=http&limit=4`);
    expect(result.complete).toBe(true);
    expect(feed.requests.map((r) => r.query)).toEqual([
      "?type=http&limit=4&offset=0",
      "?type=http&limit=4&offset=4",
    ]);
  });

  it("when pages are paced, then request starts are at least the delay apart", async () => {
    const started = Date.now();
    await walk({ delayMs: 150 });
    expect(feed.requests).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it("when several pages may be in flight, then every page is still read once", async () => {
    feed.items = feedItems(20);
    const result = await walk({ concurrency: 3 });
    expect(result).toMatchObject({ complete: true, pagesRead: 7 });
    expect(feed.offsetsRequested().sort((a, b) => a - b)).toEqual([0, 3, 6, 9, 12, 15, 18]);
  });

  it("when the feed states no total, then a short page is the whole feed and a full one is not", async () => {
    feed.omitPagination = true;
    feed.items = feedItems(2);
    expect(await walk()).toMatchObject({ complete: true, pagesRead: 1 });
    feed.items = feedItems(8);
    const full = await walk();
    expect(full).toMatchObject({ complete: false, pagesRead: 1 });
    expect(full.reasons.join()).toMatch(/states no total/);
  });

  it("when the stated total is larger than the items, then the walk stops at the first empty page", async () => {
    feed.statedTotal = 30;
    const result = await walk();
    expect(feed.offsetsRequested()).toEqual([0, 3, 6, 9]);
    expect(result.complete).toBe(false);
    expect(result.reasons.join()).toMatch(/offset 9 was empty/);
  });

  it("when the first page is empty though a total is stated, then nothing more is asked and the walk is incomplete", async () => {
    feed.items = [];
    feed.statedTotal = 9;
    const result = await walk();
    expect(feed.offsetsRequested()).toEqual([0]);
    expect(result.complete).toBe(false);
    expect(result.reasons.join()).toMatch(/offset 0 was empty/);
  });

  it("when the stated total takes more pages than the guard, then the feed's own count is followed to its end", async () => {
    const result = await walk({ maxPages: 2 });
    expect(feed.offsetsRequested()).toEqual([0, 3, 6]);
    expect(result).toMatchObject({ complete: true, cutUrl: null });
  });

  it("when the total grows during the walk past the guard, then the walk stops there, incomplete, and names the page", async () => {
    const result = await walkFeed(
      feed.url,
      { ...SETTINGS, maxPages: 2 },
      {
        onPage: (page) => {
          if (page.offset === 0) feed.items = feedItems(20);
        },
        onFailure: () => {},
      },
    );
    expect(feed.offsetsRequested()).toEqual([0, 3, 6]);
    expect(result.complete).toBe(false);
    expect(result.reasons.join()).toMatch(/CRAWL_MAX_LISTING_PAGES=2/);
    expect(result.cutUrl).toMatch(/offset=9/);
  });

  it("when the total changes during the walk, then new items are still read but the walk is incomplete", async () => {
    const result = await walkFeed(feed.url, SETTINGS, {
      // Two items are added once the first page is in.
      onPage: (page) => {
        if (page.offset === 0) feed.items = feedItems(10);
      },
      onFailure: () => {},
    });
    expect(feed.offsetsRequested()).toEqual([0, 3, 6, 9]);
    expect(result.complete).toBe(false);
    expect(result.reasons.join()).toMatch(/changed during the walk \(total 8 → 10\)/);
  });

  it("when a request hangs past the timeout, then it is retried", async () => {
    feed.faults.set(0, { status: 503, times: 1, delayMs: 2_000 });
    const result = await walk({ requestTimeoutMs: 200 });
    expect(result).toMatchObject({ complete: true, pagesFailed: 0 });
    expect(feed.offsetsRequested().filter((o) => o === 0)).toHaveLength(2);
  });

  it("when a page is larger than allowed, then it fails at once, without retries", async () => {
    const result = await walk({ maxBytes: 300 });
    expect(result).toMatchObject({ complete: false, pagesRead: 0, pagesFailed: 1 });
    expect(feed.requests).toHaveLength(1);
    expect(failures[0]?.message).toMatch(/too large/);
  });

  it("when a page is not a feed answer, then it fails without retries", async () => {
    feed.faults.set(3, { status: 200, times: Number.POSITIVE_INFINITY, body: '{"data":[]}' });
    const result = await walk();
    expect(result).toMatchObject({ complete: false, pagesRead: 2, pagesFailed: 1 });
    expect(feed.offsetsRequested()).toEqual([0, 3, 6]);
    expect(failures[0]?.message).toMatch(/not a discovery feed page/);
  });

  it("when a 404 comes back, then it is not retried", async () => {
    const result = await walk({}, `${feed.origin}/elsewhere`);
    expect(result).toMatchObject({ pagesFailed: 1 });
    expect(feed.requests).toHaveLength(1);
    expect(failures[0]).toMatchObject({ status: 404, message: "HTTP 404" });
  });

  it("when the walk is stopped, then no further page is asked for and the walk says so", async () => {
    const controller = new AbortController();
    const result = await walkFeed(
      feed.url,
      SETTINGS,
      { onPage: () => controller.abort(), onFailure: () => {} },
      controller.signal,
    );
    expect(result).toMatchObject({ aborted: true, complete: false });
    expect(feed.requests).toHaveLength(1);
  });
});
