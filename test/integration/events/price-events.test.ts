import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_USDC, PAY_TO, v2Item } from "../../fixtures/bazaar/feed-items";
import { crawlFeedOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";

/** endpoint.price_changed from refreshes of a discovery feed (the source that lists prices). */
describe("price change events from feed refreshes", () => {
  let database: TestDatabase;
  let feed: FixtureFeed;
  let seen = 0n;

  beforeAll(async () => {
    database = await createTestDatabase();
    feed = await new FixtureFeed().start();
    feed.items = [
      v2Item("https://alpha.example/quote", { serviceName: "Alpha" }),
      v2Item("https://alpha.example/history", { serviceName: "Alpha" }),
      v2Item("https://beta.example/run", { amount: "10000" }),
    ];
  });
  afterAll(async () => {
    await feed.stop();
    await database.drop();
  });

  const crawl = () => crawlFeedOnce(database.db, database.url, feed.url);

  async function newEvents() {
    const rows = await database.db.event.findMany({ where: { seq: { gt: seen } }, orderBy: { seq: "asc" } });
    seen = rows.at(-1)?.seq ?? seen;
    return rows;
  }

  it("when a feed is read the first time, then its endpoints are added without price changes", async () => {
    await crawl();
    const types = (await newEvents()).map((e) => e.type);
    expect(types.filter((t) => t === "endpoint.added")).toHaveLength(3);
    expect(types).not.toContain("endpoint.price_changed");
  });

  it("when it is read again unchanged, then no price or endpoint event is emitted", async () => {
    await crawl();
    expect((await newEvents()).map((e) => e.type)).toEqual(["crawl.completed"]);
  });

  it("when one endpoint's amount changes, then exactly one endpoint.price_changed carries old and new", async () => {
    feed.items[1] = v2Item("https://alpha.example/history", { serviceName: "Alpha", amount: "5000" });
    await crawl();
    const events = await newEvents();
    expect(events.map((e) => e.type).sort()).toEqual(["crawl.completed", "endpoint.price_changed"]);
    const changed = events.find((e) => e.type === "endpoint.price_changed");
    const endpoint = await database.db.endpoint.findFirstOrThrow({
      where: { url: "https://alpha.example/history" },
    });
    const price = (amount: string, usdc: string) => ({
      scheme: "exact",
      network: "eip155:8453",
      asset: BASE_USDC,
      asset_symbol: "USDC",
      amount_atomic: amount,
      price_usdc: usdc,
      pay_to: PAY_TO,
    });
    expect(changed?.serviceId).toBe(endpoint.serviceId);
    expect(changed?.data).toEqual({
      service_id: endpoint.serviceId,
      endpoint: { id: endpoint.id, method: "GET", url: "https://alpha.example/history" },
      old_prices: [price("2500", "0.0025")],
      new_prices: [price("5000", "0.005")],
    });
  });

  it("when an endpoint's network changes at the same amount, then that is a price change too", async () => {
    feed.items[2] = v2Item("https://beta.example/run", { amount: "10000", network: "eip155:84532" });
    await crawl();
    const changed = (await newEvents()).filter((e) => e.type === "endpoint.price_changed");
    expect(changed.map((e) => (e.data as { endpoint: { url: string } }).endpoint.url)).toEqual([
      "https://beta.example/run",
    ]);
  });
});
