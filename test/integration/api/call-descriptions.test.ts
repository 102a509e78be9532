import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_USDC, PAY_TO, v1Item, v2Item } from "../../fixtures/bazaar/feed-items";
import { createTestApp, type TestApp } from "../../support/app";
import { crawlFeedOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";
import { probeNow } from "../../support/probe";
import { X402Fixture } from "../../support/x402-fixture";

const ACCEPTS = [
  {
    scheme: "exact",
    network: "eip155:8453",
    amount: "1000",
    asset: BASE_USDC,
    payTo: PAY_TO,
    maxTimeoutSeconds: 60,
  },
];

/** The bazaar extension as a v2 seller declares it for `GET /weather/:city`. */
const weatherExtension = (example: Record<string, unknown>) => ({
  bazaar: {
    info: {
      input: { type: "http", method: "GET", pathParams: { city: "Paris" } },
      output: { type: "json", example },
    },
    schema: { type: "object", properties: { input: { type: "object" } }, required: ["input"] },
    routeTemplate: "/weather/:city",
  },
});

interface Call {
  source: string;
  format: string;
  route_template: string | null;
  input: Record<string, unknown> | null;
  output: Record<string, unknown> | null;
}

describe("how to call an endpoint: stored from feeds and challenges, served in detail and search", () => {
  let database: TestDatabase;
  let api: TestApp;
  let feed: FixtureFeed;
  let seller: X402Fixture;
  let calls: Map<string, Call | null>;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    seller = await new X402Fixture().start();
    const challenge = {
      x402Version: 2,
      resource: { url: seller.url("/live") },
      accepts: ACCEPTS,
      extensions: weatherExtension({ tempC: 22, source: "live" }),
    };
    seller.set("/live", {
      status: 402,
      headers: { "PAYMENT-REQUIRED": Buffer.from(JSON.stringify(challenge)).toString("base64") },
      body: "",
    });
    feed = await new FixtureFeed().start();
    feed.items = [
      {
        resource: { url: seller.url("/weather/paris") },
        type: "http",
        x402Version: 2,
        accepts: ACCEPTS,
        extensions: weatherExtension({ tempC: 21 }),
        metadata: { description: "Weather now for a city" },
      },
      v1Item(seller.url("/v1-history"), { method: "POST" }),
      { resource: seller.url("/bare"), type: "http", x402Version: 2, accepts: ACCEPTS },
      v2Item(seller.url("/live"), { description: "Live weather" }),
    ];
    await crawlFeedOnce(database.db, database.url, feed.url);
    const live = await database.db.endpoint.findFirstOrThrow({ where: { url: seller.url("/live") } });
    await probeNow(database.db, [live.id]);

    const list = await request(api.app).get("/v1/services");
    const detail = await request(api.app).get(`/v1/services/${list.body.items[0].id}`);
    expect(detail.status).toBe(200);
    calls = new Map(
      detail.body.endpoints.map((e: { url: string; call: Call | null }) => [new URL(e.url).pathname, e.call]),
    );
  });
  afterAll(async () => {
    await api.close();
    await feed.stop();
    await seller.stop();
    await database.drop();
  });

  it("when a feed item carries the v2 bazaar extension, then its input, output, schema and route come back", () => {
    expect(calls.get("/weather/paris")).toEqual({
      source: "listing",
      format: "bazaar_extension",
      input: { type: "http", method: "GET", pathParams: { city: "Paris" } },
      output: { type: "json", example: { tempC: 21 } },
      input_schema: { type: "object", properties: { input: { type: "object" } }, required: ["input"] },
      route_template: "/weather/:city",
    });
  });

  it("when a v1 item has an outputSchema, then that is the description", () => {
    expect(calls.get("/v1-history")).toMatchObject({
      source: "listing",
      format: "v1_output_schema",
      input: { type: "http", method: "POST" },
      output: null,
    });
  });

  it("when nothing describes the call, then it is null", () => {
    expect(calls.get("/bare")).toBeNull();
  });

  it("when the live challenge describes the call, then it is shown instead of the feed's", () => {
    expect(calls.get("/live")).toMatchObject({
      source: "live_challenge",
      format: "bazaar_extension",
      output: { type: "json", example: { tempC: 22, source: "live" } },
    });
  });

  it("when endpoints are searched, then each hit carries its call description", async () => {
    const response = await request(api.app).get("/v1/endpoints?q=weather city");
    expect(response.status).toBe(200);
    const hit = response.body.items.find((e: { url: string }) => e.url.endsWith("/weather/paris"));
    expect(hit.call).toMatchObject({ format: "bazaar_extension", route_template: "/weather/:city" });
  });

  it("when endpoints are filtered by callable, then those with a call description come apart from those without", async () => {
    const paths = async (callable: string) => {
      const response = await request(api.app).get(`/v1/endpoints?callable=${callable}`);
      expect(response.status).toBe(200);
      return response.body.items.map((e: { url: string }) => new URL(e.url).pathname).sort();
    };
    // /live is described by its live challenge alone (a probe's refresh sets it).
    expect(await paths("true")).toEqual(["/live", "/v1-history", "/weather/paris"]);
    expect(await paths("false")).toEqual(["/bare"]);
  });

  it("when callable is neither true nor false, then 400 says what is allowed", async () => {
    const response = await request(api.app).get("/v1/endpoints?callable=yes");
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/callable: must be one of true, false/);
  });
});
