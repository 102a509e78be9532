import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { seedPaymentOptions } from "../../support/payments";

const MINUTE = 60_000;

/**
 * Four endpoints: one whose live challenge asks more than its listing (drift), one whose server
 * fails (a 500 with its error text), one verified and cheap on Base, one never priced.
 */
describe("endpoints: price drift, the last probe's error, and the filters agents need", () => {
  let database: TestDatabase;
  let api: TestApp;
  let serviceId: string;
  const now = Date.now();

  const urls = async (query: string): Promise<string[]> => {
    const response = await request(api.app).get(`/v1/endpoints?${query}`);
    expect(response.status).toBe(200);
    return response.body.items.map((item: { url: string }) => item.url);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    const db = database.db;
    [serviceId] = await seedServices(db, [
      {
        name: "Oracle",
        domain: "oracle.test",
        volumeUsdc30d: "100",
        endpoints: [
          { method: "GET", url: "https://oracle.test/drifting", description: "Spot price" },
          { method: "GET", url: "https://oracle.test/broken", description: "Price history" },
          { method: "GET", url: "https://oracle.test/cheap", description: "Price ticks" },
          { method: "GET", url: "https://oracle.test/unpriced", description: "Price news" },
        ],
      },
    ]);
    const endpoints = await db.endpoint.findMany({ where: { serviceId }, orderBy: { position: "asc" } });
    const [drifting, broken, cheap] = endpoints.map((e) => e.id) as [string, string, string];
    await seedPaymentOptions(db, drifting, [
      { network: "eip155:8453", networkName: "base", priceUsdc: "0.01" },
    ]);
    await seedPaymentOptions(db, broken, [
      { network: "eip155:137", networkName: "polygon", priceUsdc: "0.02" },
    ]);
    await seedPaymentOptions(db, cheap, [
      { network: "eip155:8453", networkName: "base", priceUsdc: "0.001" },
    ]);
    const difference = {
      kind: "price",
      network: "eip155:8453",
      claimed: "0.01 USDC",
      observed: "0.05 USDC",
      message: "price on eip155:8453 is 0.05 USDC, listing says 0.01 USDC",
    };
    await db.endpointProbe.createMany({
      data: [
        // An older challenge that matched, then the latest one that asks five times the price.
        {
          endpointId: drifting,
          probedAt: new Date(now - 20 * MINUTE),
          outcome: "challenge",
          statusCode: 402,
          latencyMs: 10,
          challengeValid: true,
          drift: [],
        },
        {
          endpointId: drifting,
          probedAt: new Date(now - 10 * MINUTE),
          outcome: "challenge",
          statusCode: 402,
          latencyMs: 10,
          challengeValid: true,
          drift: [difference],
        },
        {
          endpointId: broken,
          probedAt: new Date(now - 5 * MINUTE),
          outcome: "http_error",
          statusCode: 500,
          latencyMs: 4,
          error: "HTTP 500 Internal Server Error",
        },
        {
          endpointId: cheap,
          probedAt: new Date(now - 5 * MINUTE),
          outcome: "challenge",
          statusCode: 402,
          latencyMs: 8,
          challengeValid: true,
          drift: [],
        },
      ],
    });
    await db.endpoint.update({ where: { id: cheap }, data: { lastVerifiedAt: new Date(now - 5 * MINUTE) } });
    await db.endpoint.update({
      where: { id: drifting },
      data: { lastVerifiedAt: new Date(now - 10 * MINUTE) },
    });
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  it("when a live challenge asked a different price than the listing, then the endpoint shows both and when", async () => {
    const detail = await request(api.app).get(`/v1/services/${serviceId}`);
    const drifting = detail.body.endpoints.find((e: { url: string }) => e.url.endsWith("/drifting"));
    expect(drifting.drift).toEqual({
      seen_at: new Date(now - 10 * MINUTE).toISOString(),
      differences: [expect.objectContaining({ kind: "price", claimed: "0.01 USDC", observed: "0.05 USDC" })],
    });
    const listed = await request(api.app).get("/v1/endpoints?drift=true");
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0]).toMatchObject({
      url: "https://oracle.test/drifting",
      drift: drifting.drift,
    });
    expect(await urls("drift=false&sort=price")).toEqual([
      "https://oracle.test/cheap",
      "https://oracle.test/broken",
      "https://oracle.test/unpriced",
    ]);
  });

  it("when the last probe failed, then its error text is shown on the endpoint in the detail and the list", async () => {
    const detail = await request(api.app).get(`/v1/services/${serviceId}`);
    const broken = detail.body.endpoints.find((e: { url: string }) => e.url.endsWith("/broken"));
    expect(broken.probe.last_probe).toMatchObject({
      status_code: 500,
      error: "HTTP 500 Internal Server Error",
    });
    const listed = await request(api.app).get("/v1/endpoints?q=history");
    expect(listed.body.items[0].last_probe).toEqual({
      at: new Date(now - 5 * MINUTE).toISOString(),
      status_code: 500,
      outcome: "http_error",
      error: "HTTP 500 Internal Server Error",
    });
  });

  it.each([
    ["max_price=0.01", ["cheap", "drifting"]],
    ["max_price=0.01&include_unpriced=true", ["cheap", "drifting", "unpriced"]],
    ["network=base", ["cheap", "drifting"]],
    ["network=EIP155:137", ["broken"]],
    ["verified=true", ["cheap", "drifting"]],
    ["verified=false", ["broken", "unpriced"]],
    ["network=base&max_price=0.005", ["cheap"]],
  ])("when endpoints are filtered by %s, then exactly those match", async (query, expected) => {
    const found = await urls(`${query}&sort=price`);
    expect(found.map((url) => url.replace("https://oracle.test/", "")).sort()).toEqual(expected);
  });

  it("when endpoints are sorted by price, then the cheapest come first and unpriced last, with or without q", async () => {
    const order = ["cheap", "drifting", "broken", "unpriced"].map((p) => `https://oracle.test/${p}`);
    expect(await urls("sort=price")).toEqual(order);
    expect(await urls("q=price&sort=price")).toEqual(order);
    const relevance = await request(api.app).get("/v1/endpoints?sort=relevance");
    expect(relevance.status).toBe(400);
  });
});
