import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { v2Item } from "../../fixtures/bazaar/feed-items";
import { createTestApp, type TestApp } from "../../support/app";
import { crawlFeedOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";

/** A feed where some items declare no payment requirements, in the shapes feeds send them. */
function items(): unknown[] {
  const { accepts: _, ...withoutAccepts } = v2Item("https://free.example/docs");
  return [
    v2Item("https://paid.example/quote"),
    withoutAccepts,
    { ...v2Item("https://empty.example/run"), accepts: [] },
    { ...v2Item("https://broken.example/run"), accepts: ["exact"] },
  ];
}

describe("crawling a feed with items that declare no payment requirements", () => {
  let database: TestDatabase;
  let api: TestApp;
  let feed: FixtureFeed;
  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    feed = await new FixtureFeed().start();
    feed.items = items();
    await crawlFeedOnce(database.db, database.url, feed.url);
  });
  afterAll(async () => {
    await feed.stop();
    await api.close();
    await database.drop();
  });

  it("when an item has no accepts (missing, empty or unreadable), then it is not a service", async () => {
    const response = await request(api.app).get("/v1/services");
    expect(response.body.items.map((s: { domain: string }) => s.domain)).toEqual(["paid.example"]);
    const endpoints = await request(api.app).get("/v1/endpoints");
    expect(endpoints.body.total).toBe(1);
  });

  it("when such items are skipped, then each is recorded as a broken item of the crawl", async () => {
    const response = await request(api.app).get("/v1/crawls");
    const [run] = response.body.items;
    expect(run.value_problems).toBe(3);
    expect(run.errors.map((e: { message: string }) => e.message).sort()).toEqual([
      "no payment requirements: accepts is empty",
      "no payment requirements: accepts is missing",
      "no payment requirements: no readable accepts entry (accepts[0] skipped: not an object (string))",
    ]);
  });
});
