import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { v1Item, v2Item } from "../../fixtures/bazaar/feed-items";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";
import { startEntryPoint } from "../../support/processes";

describe("npm run crawl with a discovery feed", () => {
  let database: TestDatabase;
  let feed: FixtureFeed;
  beforeAll(async () => {
    database = await createTestDatabase();
    feed = await new FixtureFeed().start();
    feed.items = [v2Item("https://alpha.example/a"), v1Item("https://beta.example/b")];
  });
  afterAll(async () => {
    await feed.stop();
    await database.drop();
  });

  const run = (args: string[], env: Record<string, string> = {}) =>
    startEntryPoint("jobs/crawl.ts", args, {
      DATABASE_URL: database.url,
      LOG_LEVEL: "info",
      CRAWL_MAX_REQUESTS_PER_MINUTE: "100000",
      CRAWL_MAX_RETRIES: "0",
      ...env,
    });

  it("when given a URL ending in /discovery/resources, then it is crawled as a feed and exits 0", async () => {
    const proc = run([feed.url]);
    expect(await proc.exited).toBe(0);
    const source = await database.db.source.findFirstOrThrow({ include: { services: true } });
    expect(source.kind).toBe("bazaar");
    expect(source.services.map((s) => s.detailUrl).sort()).toEqual([
      "https://alpha.example",
      "https://beta.example",
    ]);
  });

  it("when no URL is given, then the sources in SOURCES are crawled one after another", async () => {
    await database.db.source.deleteMany();
    const gone = await new FixtureFeed().start();
    await gone.stop();
    const sources = JSON.stringify([
      { kind: "bazaar", url: gone.url },
      { kind: "bazaar", url: feed.url },
    ]);
    const proc = run([], { SOURCES: sources });
    // The unreachable feed fails (exit 1), but the reachable one is still crawled.
    expect(await proc.exited).toBe(1);
    const runs = await database.db.crawlRun.findMany({
      include: { source: true },
      orderBy: { startedAt: "asc" },
    });
    expect(runs.map((r) => [r.source.baseUrl, r.status])).toEqual([
      [gone.url, "failed"],
      [feed.url, "completed"],
    ]);
  });

  it("when --kind is not a known kind, then it exits 2 with the usage", async () => {
    const proc = run(["--kind", "rss", feed.url]);
    expect(await proc.exited).toBe(2);
    expect(proc.stderr()).toMatch(
      /--kind must be bazaar, html_directory or origin_manifest, not rss\nusage: npm run crawl/,
    );
  });
});
