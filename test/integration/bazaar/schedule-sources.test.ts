import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  NOTHING_CRAWLED,
  type SourceCrawls,
  scheduleSourceCrawls,
} from "../../../src/sources/schedule-sources";
import type { SourceSpec } from "../../../src/sources/source-spec";
import { v2Item } from "../../fixtures/bazaar/feed-items";
import { crawlFeedOnce, testCrawlSettings } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";
import { testLogger } from "../../support/logger";

/** Once a year: the cron never fires during a test, so only the start-up crawl runs. */
const NEVER_DURING_TESTS = "0 0 1 1 *";

describe("scheduling the configured sources", () => {
  let database: TestDatabase;
  let feed: FixtureFeed;
  const started: SourceCrawls[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    feed = await new FixtureFeed().start();
    feed.items = [v2Item("https://alpha.example/a"), v2Item("https://beta.example/b")];
  });
  afterAll(async () => {
    await Promise.all(started.map((crawls) => crawls.stop()));
    await feed.stop();
    await database.drop();
  });
  beforeEach(async () => {
    await database.db.source.deleteMany();
  });

  function schedule(sources: SourceSpec[], logger = testLogger): SourceCrawls {
    const deps = {
      db: database.db,
      databaseUrl: database.url,
      logger,
      settings: testCrawlSettings({ maxRetries: 0 }),
    };
    const crawls = scheduleSourceCrawls(deps, sources, NEVER_DURING_TESTS, logger);
    started.push(crawls);
    return crawls;
  }
  const runs = () =>
    database.db.crawlRun.findMany({ include: { source: true }, orderBy: { startedAt: "asc" } });

  it("when a source has no run in the last hour, then it is crawled right away at start-up", async () => {
    const crawls = schedule([{ kind: "bazaar", url: feed.url }]);
    await crawls.startup;
    expect(await runs()).toEqual([
      expect.objectContaining({
        status: "completed",
        trigger: "schedule",
        source: expect.objectContaining({ kind: "bazaar" }),
      }),
    ]);
    expect(await database.db.service.count()).toBe(2);
    expect(crawls.nextRun()?.getUTCMonth()).toBe(0);
  });

  it("when a source was crawled within the hour, then start-up leaves it to the schedule", async () => {
    await crawlFeedOnce(database.db, database.url, feed.url);
    const crawls = schedule([{ kind: "bazaar", url: feed.url }]);
    await crawls.startup;
    expect(await runs()).toHaveLength(1);
  });

  it("when a source cannot be reached, then the failure is recorded, the next source is still crawled, and nothing throws", async () => {
    const gone = await new FixtureFeed().start();
    await gone.stop();
    const crawls = schedule([
      { kind: "bazaar", url: gone.url },
      { kind: "bazaar", url: feed.url },
    ]);
    await expect(crawls.startup).resolves.toBeUndefined();
    expect((await runs()).map((r) => [r.source.baseUrl, r.status])).toEqual([
      [gone.url, "failed"],
      [feed.url, "completed"],
    ]);
  });

  it("when the last crawl within the hour failed, then a restart crawls the source again", async () => {
    const flaky = await new FixtureFeed().start();
    flaky.items = feed.items;
    try {
      flaky.faults.set(0, { status: 503, times: 1 });
      await crawlFeedOnce(database.db, database.url, flaky.url, {}, { maxRetries: 0 });
      expect((await runs()).map((r) => r.status)).toEqual(["failed"]);

      const crawls = schedule([{ kind: "bazaar", url: flaky.url }]);
      await crawls.startup;
      expect((await runs()).map((r) => r.status)).toEqual(["failed", "completed"]);
    } finally {
      await flaky.stop();
    }
  });

  it("when nothing could be crawled at start-up, then a warning says how to point the product at a directory", async () => {
    const gone = await new FixtureFeed().start();
    await gone.stop();
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const crawls = schedule([{ kind: "bazaar", url: gone.url }], logger);
    await crawls.startup;
    const warning = lines.find((line) => line.msg === NOTHING_CRAWLED);
    expect(warning?.level).toBe(40);
    expect(warning?.msg).toContain("`npm run crawl -- URL`");
    expect(warning?.msg).toContain("SOURCES");
  });

  it("when no source is configured, then nothing is scheduled or crawled", async () => {
    const crawls = schedule([]);
    await crawls.startup;
    expect(crawls.nextRun()).toBeNull();
    expect(await runs()).toEqual([]);
  });

  it("when stopped during the start-up crawl, then the crawl is aborted and stop waits for it", async () => {
    const slow = await new FixtureFeed().start();
    slow.items = feed.items;
    slow.faults.set(0, { status: 503, times: 1, delayMs: 5_000 });
    try {
      const crawls = schedule([{ kind: "bazaar", url: slow.url }]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await crawls.stop();
      expect((await runs()).map((r) => r.status)).toEqual(["aborted"]);
    } finally {
      await slow.stop();
    }
  });
});
