import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { v2Item } from "../../fixtures/bazaar/feed-items";
import { createTestApp, type TestApp } from "../../support/app";
import { crawlFeedOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";

describe("what feeds say about themselves, beside the catalogue's evidence", () => {
  let database: TestDatabase;
  let api: TestApp;
  let feed: FixtureFeed;

  const endpointOf = async (domain: string) => {
    const list = await request(api.app).get(`/v1/services?domain=${domain}`);
    const detail = await request(api.app).get(`/v1/services/${list.body.items[0].id}`);
    expect(detail.status).toBe(200);
    return detail.body.endpoints[0];
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    feed = await new FixtureFeed().start();
    const alpha = v2Item("https://alpha.example/quote", {
      serviceName: "Alpha Quotes",
      tags: ["Finance"],
      quality: { l30DaysTotalCalls: 1200, l30DaysUniquePayers: 3 },
    });
    const metadata: Record<string, unknown> = {
      ...(alpha.metadata as Record<string, unknown>),
      iconUrl: "https://alpha.example/icon.png",
    };
    (metadata.quality as Record<string, unknown>).lastCalledAt = "2026-11-20T08:00:00Z";
    // Three origins, one payee (the fixtures' PAY_TO): each shares its pay_to with two others.
    feed.items = [
      { ...alpha, metadata },
      v2Item("https://beta.example/run"),
      v2Item("https://gamma.example/x"),
    ];
    await crawlFeedOnce(database.db, database.url, feed.url);
  });
  afterAll(async () => {
    await api.close();
    await feed.stop();
    await database.drop();
  });

  it("when a feed item carries serviceName, tags, iconUrl and quality, then they are served as self-reported", async () => {
    expect((await endpointOf("alpha.example")).self_reported).toEqual({
      service_name: "Alpha Quotes",
      tags: ["finance"],
      icon_url: "https://alpha.example/icon.png",
      quality: { total_calls_30d: 1200, unique_payers_30d: 3, last_called_at: "2026-11-20T08:00:00.000Z" },
    });
  });

  it("when a feed item says nothing about itself, then self_reported is null", async () => {
    expect((await endpointOf("beta.example")).self_reported).toBeNull();
  });

  it("when other origins share the pay_to, then the evidence counts them; unprobed answers null", async () => {
    const evidence = (await endpointOf("alpha.example")).evidence;
    expect(evidence).toMatchObject({
      pay_to_shared_with_origins: 2,
      answers_our_probes: null,
      listing_age_days: 0,
    });
    expect(Date.parse(evidence.listed_since)).toBeLessThanOrEqual(Date.now());
  });
});
