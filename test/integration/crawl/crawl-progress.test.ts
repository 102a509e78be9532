import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawlDirectory } from "../../../src/sources/html-directory/crawl-directory";
import { testCrawlSettings } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureSite } from "../../support/fixture-site";
import { miniDetail, miniListing } from "../../support/mini-directory";

describe("progress of a crawl", () => {
  let database: TestDatabase;
  let site: FixtureSite;
  beforeAll(async () => {
    database = await createTestDatabase();
    site = await new FixtureSite().start();
  });
  afterAll(async () => {
    await site.stop();
    await database.drop();
  });

  it("when the listing states its size, then progress lines say listing page N of M, pages left, rate, ETA and services stored", async () => {
    const pager = `<p>Page 1 of 2 <a rel="next" href="/dir?page=2">Next</a></p>`;
    site.set("/dir", miniListing(["one", "two"], pager));
    // The second listing page is slow, so progress is reported while the crawl waits for it.
    site.set("/dir?page=2", { body: miniListing(["three"], "<p>Page 2 of 2</p>"), delayMs: 1_500 });
    for (const slug of ["one", "two", "three"]) site.set(`/s/${slug}`, miniDetail(slug));
    const lines: { msg: string; progress?: Record<string, number | null> }[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });

    const outcome = await crawlDirectory(
      {
        db: database.db,
        databaseUrl: database.url,
        logger,
        settings: testCrawlSettings({ progressIntervalMs: 200, respectRobotsTxt: false }),
      },
      { url: site.url("/dir"), trigger: "manual" },
    );

    expect(outcome.status).toBe("completed");
    const progress = lines.filter((line) => line.msg.startsWith("crawl progress:"));
    // The lines written while the crawl waited for the slow page (a loaded machine may also
    // report once more after it arrived). The whole listing is read before any detail page.
    const waiting = progress.findLast((line) => line.msg.startsWith("crawl progress: listing page 1 of 2"));
    expect(waiting?.msg).toMatch(
      /^crawl progress: listing page 1 of 2, 1 of ~6 pages, \d+\.\d pages\/s, ETA \d+s; 0 services stored$/,
    );
    expect(waiting?.progress).toMatchObject({
      pagesDone: 1,
      pagesTotal: 6,
      pagesRemaining: 5,
      servicesStored: 0,
    });
  });
});
