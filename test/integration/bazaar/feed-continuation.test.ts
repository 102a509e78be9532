import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FeedFailure,
  type FeedPage,
  type FeedSettings,
  walkFeed,
} from "../../../src/sources/bazaar/fetch-feed";
import { feedItems } from "../../fixtures/bazaar/feed-items";
import { crawlFeedOnce, ran, testFeedSettings } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FEED_PATH, type FeedContinuation, FixtureFeed, feedToken } from "../../support/fixture-feed";

/**
 * Feeds that state no total but name their next page: a link, a cursor, or hasMore. 250 items
 * in pages of 100, one service per item.
 */

const SETTINGS = testFeedSettings({ pageSize: 100, maxRetries: 1, maxBytes: 5_000_000 });

const CURSOR: FeedContinuation = { style: "cursor", field: "nextCursor", where: "top" };

const byCursor = (offset: number) => `?limit=100&cursor=${feedToken(offset)}`;
const byLink = (offset: number) => `?after=${feedToken(offset)}&limit=100`;
const byOffset = (offset: number) => `?offset=${offset}&limit=100`;

describe("walking a discovery feed that states no total but names its next page", () => {
  let feed: FixtureFeed;
  let pages: FeedPage[];
  let failures: FeedFailure[];
  beforeEach(async () => {
    feed = await new FixtureFeed().start();
    feed.items = feedItems(250);
    pages = [];
    failures = [];
  });
  afterEach(() => feed.stop());

  const walk = (overrides: Partial<FeedSettings> = {}, signal?: AbortSignal) =>
    walkFeed(
      feed.url,
      { ...SETTINGS, ...overrides },
      { onPage: (p) => pages.push(p), onFailure: (f) => failures.push(f) },
      signal,
    );
  const resourcesRead = () => pages.flatMap((p) => p.page.items.map((i) => i.resourceUrl));

  it.each<[string, FeedContinuation, (offset: number) => string]>([
    ["an absolute next link", { style: "next", where: "top", absolute: true }, byLink],
    [
      "a relative next link in the pagination block",
      { style: "next", where: "pagination", absolute: false },
      byLink,
    ],
    ["a relative links.next", { style: "next", where: "links", absolute: false }, byLink],
    ["nextCursor", CURSOR, byCursor],
    [
      "next_cursor in the pagination block",
      { style: "cursor", field: "next_cursor", where: "pagination" },
      byCursor,
    ],
    ["cursor in the pagination block", { style: "cursor", field: "cursor", where: "pagination" }, byCursor],
    [
      "hasMore in the pagination block",
      { style: "hasMore", field: "hasMore", where: "pagination" },
      byOffset,
    ],
    ["has_more beside the items", { style: "hasMore", field: "has_more", where: "top" }, byOffset],
  ])(
    "when each page names the next by %s, then all 250 items are read, one page after another, and the walk is complete",
    async (_style, continuation, query) => {
      feed.continuation = continuation;
      const result = await walk();
      expect(result).toEqual({
        complete: true,
        aborted: false,
        pagesRead: 3,
        pagesFailed: 0,
        reasons: [],
        cutUrl: null,
      });
      expect(feed.requests.map((r) => r.query)).toEqual([byOffset(0), query(100), query(200)]);
      expect(feed.offsetsRequested()).toEqual([0, 100, 200]);
      expect(new Set(resourcesRead()).size).toBe(250);
      expect(pages.map((p) => p.rawItems.length)).toEqual([100, 100, 50]);
    },
  );

  it("when a cursor feed names a next page after every full page, then the empty last page ends the walk, complete", async () => {
    feed.continuation = CURSOR;
    feed.continueWhenFull = true;
    feed.items = feedItems(200);
    const result = await walk();
    expect(result).toMatchObject({ complete: true, pagesRead: 3, reasons: [] });
    expect(feed.offsetsRequested()).toEqual([0, 100, 200]);
    expect(pages.map((p) => p.rawItems.length)).toEqual([100, 100, 0]);
  });

  it("when a full first page says has_more: false, then it is the whole feed", async () => {
    feed.continuation = { style: "hasMore", field: "has_more", where: "top" };
    feed.items = feedItems(100);
    const result = await walk();
    expect(result).toMatchObject({ complete: true, pagesRead: 1, reasons: [] });
    expect(feed.offsetsRequested()).toEqual([0]);
  });

  it("when the server serves fewer items than asked and says hasMore, then the walk steps by what it served", async () => {
    feed.continuation = { style: "hasMore", field: "hasMore", where: "pagination" };
    feed.maxPageSize = 80;
    const result = await walk();
    expect(result).toMatchObject({ complete: true, pagesRead: 4 });
    expect(feed.offsetsRequested()).toEqual([0, 80, 160, 240]);
    expect(new Set(resourcesRead()).size).toBe(250);
  });

  it("when a cursor comes back a second time, then the walk stops there, incomplete, and says it looped", async () => {
    feed.continuation = CURSOR;
    feed.loop = { at: 200, to: 100 };
    const result = await walk();
    expect(feed.offsetsRequested()).toEqual([0, 100, 200]);
    expect(result).toMatchObject({ complete: false, pagesRead: 3, pagesFailed: 0 });
    expect(result.reasons).toEqual([
      `the feed named cursor "${feedToken(100)}" a second time (a loop) after 3 pages`,
    ]);
  });

  it("when a next link leads back to a page already read, then the walk stops there, incomplete", async () => {
    feed.continuation = { style: "next", where: "top", absolute: false };
    feed.loop = { at: 100, to: 0 };
    const result = await walk();
    // The link to position 0 is a new URL (the first page was asked for by offset); the link it
    // then gives, to position 100, is not.
    expect(feed.offsetsRequested()).toEqual([0, 100, 0]);
    expect(result).toMatchObject({ complete: false, pagesRead: 3 });
    expect(result.reasons).toEqual([
      `the feed named ${feed.url}${byLink(100)} a second time (a loop) after 3 pages`,
    ]);
  });

  it("when a middle page keeps failing, then the walk stops there and is incomplete", async () => {
    feed.continuation = CURSOR;
    feed.faults.set(100, { status: 500, times: Number.POSITIVE_INFINITY });
    const result = await walk();
    // One retry, then nothing after it: only the failed page could have named the next one.
    expect(feed.offsetsRequested()).toEqual([0, 100, 100]);
    expect(result).toMatchObject({ complete: false, pagesRead: 1, pagesFailed: 1 });
    expect(result.reasons).toEqual([
      `${feed.url}${byCursor(100)} could not be read, so the pages after it are unknown`,
    ]);
    expect(failures).toEqual([
      { url: `${feed.url}${byCursor(100)}`, offset: null, status: 500, message: "HTTP 500" },
    ]);
  });

  it("when the page guard is reached while the feed still names a next page, then the walk is incomplete and names the page", async () => {
    feed.continuation = CURSOR;
    const result = await walk({ maxPages: 2 });
    expect(feed.offsetsRequested()).toEqual([0, 100]);
    expect(result).toMatchObject({ complete: false, pagesRead: 2, cutUrl: `${feed.url}${byCursor(200)}` });
    expect(result.reasons).toEqual([
      "the feed states no total and still named a next page after 2 pages (CRAWL_MAX_LISTING_PAGES=2)",
    ]);
  });

  it("when the last page the guard allows is the feed's last, then the walk is complete", async () => {
    feed.continuation = CURSOR;
    expect(await walk({ maxPages: 3 })).toMatchObject({ complete: true, pagesRead: 3, cutUrl: null });
  });

  it("when the next link leads to another origin, then it is not followed and the walk says why", async () => {
    feed.continuation = { style: "next", where: "top", absolute: true };
    feed.linkOrigin = feed.origin.replace("127.0.0.1", "localhost");
    const result = await walk();
    expect(feed.requests).toHaveLength(1);
    expect(result).toMatchObject({ complete: false, pagesRead: 1 });
    expect(result.reasons).toEqual([
      `the next link leads to another origin (${feed.linkOrigin}${FEED_PATH}${byLink(100)}); not followed`,
    ]);
  });

  it("when a page's hasMore is not a boolean, then the walk stops there, incomplete, and names the value", async () => {
    feed.faults.set(0, {
      status: 200,
      times: 1,
      body: JSON.stringify({ x402Version: 2, items: feedItems(100), hasMore: "yes" }),
    });
    const result = await walk();
    expect(feed.requests).toHaveLength(1);
    expect(result).toMatchObject({ complete: false, pagesRead: 1 });
    expect(result.reasons).toEqual([
      `the page ${feed.url}${byOffset(0)} names its next page unreadably: hasMore is not true or false: "yes"`,
    ]);
  });

  it("when the walk is stopped after the first page, then no further page is asked for", async () => {
    feed.continuation = CURSOR;
    const controller = new AbortController();
    const result = await walkFeed(
      feed.url,
      SETTINGS,
      { onPage: () => controller.abort(), onFailure: () => {} },
      controller.signal,
    );
    expect(result).toMatchObject({ aborted: true, complete: false, pagesRead: 1 });
    expect(feed.requests).toHaveLength(1);
  });
});

describe("crawling a cursor feed into the catalogue", () => {
  let database: TestDatabase;
  let feed: FixtureFeed;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    feed = await new FixtureFeed().start();
    feed.items = feedItems(250);
    feed.continuation = CURSOR;
    await database.db.source.deleteMany();
  });
  afterEach(() => feed.stop());

  const crawl = (settings = {}) =>
    crawlFeedOnce(
      database.db,
      database.url,
      feed.url,
      { pageSize: 100 },
      { maxRetries: 1, ...settings },
    ).then(ran);
  const listed = () => database.db.service.count({ where: { status: "listed" } });

  it("when a middle page fails, then the run is partial and delists nothing; once it is read again, the gone services are delisted", async () => {
    expect(await crawl()).toMatchObject({
      status: "completed",
      counts: { pagesFetched: 3, pagesFailed: 0, servicesSeen: 250, servicesNew: 250, listingComplete: true },
    });

    feed.items = feedItems(240);
    feed.faults.set(100, { status: 500, times: Number.POSITIVE_INFINITY });
    const partial = await crawl();
    expect(partial).toMatchObject({
      status: "partial",
      counts: { pagesFetched: 1, pagesFailed: 1, servicesDelisted: 0, listingComplete: false },
    });
    expect(partial.message).toMatch(
      /could not be read, so the pages after it are unknown; nothing was delisted/,
    );
    expect(await listed()).toBe(250);

    feed.faults.clear();
    const complete = await crawl();
    expect(complete).toMatchObject({
      status: "completed",
      counts: { pagesFetched: 3, servicesDelisted: 10, listingComplete: true },
    });
    expect(await listed()).toBe(240);
  });

  it("when the page guard is reached, then the run is partial, delists nothing and records the page not read", async () => {
    await crawl();
    feed.items = feedItems(240);
    const outcome = await crawl({ maxListingPages: 2 });
    expect(outcome).toMatchObject({
      status: "partial",
      counts: { pagesFetched: 2, servicesDelisted: 0, listingComplete: false },
    });
    expect(await listed()).toBe(250);
    const skipped = await database.db.crawlError.findMany({
      where: { crawlRunId: outcome.runId, kind: "skipped" },
    });
    expect(skipped).toEqual([
      expect.objectContaining({
        url: `${feed.url}${byCursor(200)}`,
        message: expect.stringMatching(/^feed page limit reached \(CRAWL_MAX_LISTING_PAGES=2;/),
      }),
    ]);
  });
});
