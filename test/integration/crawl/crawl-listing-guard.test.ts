import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { v2Item } from "../../fixtures/bazaar/feed-items";
import { crawlFeedOnce, crawlOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";
import { FixtureSite } from "../../support/fixture-site";
import { miniDetail, miniListing } from "../../support/mini-directory";

const PAGES = 6;
const slugOf = (page: number) => `svc${page}`;

/** A directory of PAGES listing pages, one service each, paged by `pager(page)`. */
async function pagedSite(pager: (page: number) => string): Promise<FixtureSite> {
  const site = await new FixtureSite().start();
  for (let page = 1; page <= PAGES; page++) {
    site.set(`/dir?page=${page}`, miniListing([slugOf(page)], pager(page)));
    site.set(`/s/${slugOf(page)}`, miniDetail(slugOf(page)));
  }
  return site;
}

const nextOnly = (page: number) =>
  page < PAGES ? `<a rel="next" href="/dir?page=${page + 1}">Next</a>` : "";

describe("the listing-page guard", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    await database.db.source.deleteMany();
  });

  async function skippedErrors(runId: string) {
    return database.db.crawlError.findMany({ where: { crawlRunId: runId, kind: "skipped" } });
  }

  it("when the listing links onwards past the limit and states no count, then the run is partial, says why, and delists nothing", async () => {
    const site = await pagedSite(nextOnly);
    try {
      const whole = await crawlOnce(database.db, database.url, site.url("/dir?page=1"));
      expect(whole).toMatchObject({ status: "completed", counts: { servicesSeen: PAGES } });

      const cut = await crawlOnce(database.db, database.url, site.url("/dir?page=1"), { maxListingPages: 3 });
      expect(cut).toMatchObject({
        status: "partial",
        counts: { servicesDelisted: 0, listingComplete: false, servicesSeen: 3 },
      });
      if (cut.status === "skipped") throw new Error("unexpected skip");
      expect(cut.message).toMatch(/listing cut by the listing-page limit: 3 pages followed, 1 more/);
      expect(site.countRequests("/dir?page=4")).toBe(1); // only the whole crawl read it
      const errors = await skippedErrors(cut.runId);
      expect(errors).toEqual([
        expect.objectContaining({
          url: site.url("/dir?page=4"),
          message: expect.stringMatching(/CRAWL_MAX_LISTING_PAGES=3/),
        }),
      ]);
      const listed = await database.db.service.count({ where: { status: "listed" } });
      expect(listed).toBe(PAGES);
    } finally {
      await site.stop();
    }
  });

  it.each([
    ["'Page N of M' text", (page: number) => `${nextOnly(page)} <span>Page ${page} of ${PAGES}</span>`],
    ["a last-page link", (page: number) => `${nextOnly(page)} <a href="/dir?page=${PAGES}">Last »</a>`],
  ])(
    "when the listing states its page count with %s beyond the limit, then every stated page is followed and the run completes",
    async (_, pager) => {
      const site = await pagedSite(pager);
      try {
        const outcome = await crawlOnce(database.db, database.url, site.url("/dir?page=1"), {
          maxListingPages: 2,
        });
        expect(outcome).toMatchObject({
          status: "completed",
          counts: { servicesSeen: PAGES, listingComplete: true },
        });
        for (let page = 1; page <= PAGES; page++) expect(site.countRequests(`/dir?page=${page}`)).toBe(1);
      } finally {
        await site.stop();
      }
    },
  );

  it("when a feed's stated total needs more pages than the limit, then the whole feed is read and the run completes", async () => {
    const feed = await new FixtureFeed().start();
    try {
      feed.items = Array.from({ length: 10 }, (_, i) => v2Item(`https://s${i}.example/r`));
      const outcome = await crawlFeedOnce(database.db, database.url, feed.url, {}, { maxListingPages: 2 });
      expect(outcome).toMatchObject({ status: "completed", counts: { servicesSeen: 10 } });
      expect(feed.offsetsRequested()).toEqual([0, 3, 6, 9]);
    } finally {
      await feed.stop();
    }
  });

  it("when a feed's total grows past the limit during the walk, then the run is partial with an error row and delists nothing", async () => {
    const feed = await new FixtureFeed().start();
    try {
      feed.items = Array.from({ length: 6 }, (_, i) => v2Item(`https://s${i}.example/r`));
      await crawlFeedOnce(database.db, database.url, feed.url);
      // The first page states 6 items (two pages); by the next request the feed holds 30.
      feed.beforeAnswer = (offset) => {
        if (offset > 0) feed.items = Array.from({ length: 30 }, (_, i) => v2Item(`https://s${i}.example/r`));
      };
      const outcome = await crawlFeedOnce(database.db, database.url, feed.url, {}, { maxListingPages: 3 });
      expect(outcome).toMatchObject({ status: "partial", counts: { servicesDelisted: 0 } });
      if (outcome.status === "skipped") throw new Error("unexpected skip");
      expect(await skippedErrors(outcome.runId)).toEqual([
        expect.objectContaining({ message: expect.stringMatching(/CRAWL_MAX_LISTING_PAGES=3/) }),
      ]);
    } finally {
      await feed.stop();
    }
  });
});
