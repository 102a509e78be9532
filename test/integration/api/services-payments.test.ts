import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceListSchema } from "../../../src/http/schemas/services";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { firstEndpointId, seedBazaarMember, seedPaymentOptions } from "../../support/payments";

const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAY_TO = "0xAbCdEf0000000000000000000000000000000001";
const HOUR = 3600 * 1000;

const names = (body: { items: Array<{ name: string }> }) => body.items.map((item) => item.name);

describe("GET /v1/services payment, source and verification filters, sort=price", () => {
  let database: TestDatabase;
  let api: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    const db = database.db;
    const [alpha, bravo, , delta] = await seedServices(db, [
      { name: "Alpha", domain: "alpha.test", endpoints: [{ method: "GET", url: "https://alpha.test/a" }] },
      { name: "Bravo", domain: "bravo.test", endpoints: [{ method: "GET", url: "https://bravo.test/a" }] },
      {
        name: "Charlie",
        domain: "charlie.test",
        endpoints: [{ method: "GET", url: "https://charlie.test/a" }],
      },
      { name: "Delta", domain: "delta.test", endpoints: [{ method: "GET", url: "https://delta.test/a" }] },
    ]);
    const alphaEndpoint = await firstEndpointId(db, alpha);
    await seedPaymentOptions(db, alphaEndpoint, [
      {
        network: "eip155:8453",
        networkName: "base",
        asset: USDC_BASE,
        assetSymbol: "USDC",
        priceUsdc: "0.01",
        payTo: PAY_TO,
      },
      { network: "eip155:137", networkName: "polygon", assetSymbol: "USDC", priceUsdc: "0.001" },
    ]);
    await db.endpoint.update({
      where: { id: alphaEndpoint },
      data: { lastVerifiedAt: new Date(Date.now() - HOUR) },
    });
    const bravoEndpoint = await firstEndpointId(db, bravo);
    await seedPaymentOptions(db, bravoEndpoint, [
      { network: "eip155:84532", networkName: "base-sepolia", assetSymbol: "USDC", priceUsdc: "0.5" },
    ]);
    // Verified two days ago: no longer counts.
    await db.endpoint.update({
      where: { id: bravoEndpoint },
      data: { lastVerifiedAt: new Date(Date.now() - 48 * HOUR) },
    });
    // Delta's directory row says nothing of payments; its Bazaar row (same entry) does.
    const member = await seedBazaarMember(db, delta, [{ method: "POST", url: "https://delta.test/paid" }]);
    const memberEndpoint = await firstEndpointId(db, member);
    await seedPaymentOptions(db, memberEndpoint, [
      { network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", networkName: "solana", priceUsdc: "0.002" },
    ]);
    await db.endpoint.update({ where: { id: memberEndpoint }, data: { lastVerifiedAt: new Date() } });
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  const cases: Array<[string, string[]]> = [
    ["", ["Alpha", "Bravo", "Charlie", "Delta"]],
    ["network=base", ["Alpha"]],
    ["network=BASE", ["Alpha"]],
    ["network=eip155:8453", ["Alpha"]],
    ["network=EIP155:84532", ["Bravo"]],
    ["network=solana", ["Delta"]],
    ["network=ethereum", []],
    ["asset=usdc", ["Alpha", "Bravo"]],
    [`asset=${USDC_BASE.toLowerCase()}`, ["Alpha"]],
    ["max_price=0.5", ["Alpha", "Bravo", "Delta"]],
    ["max_price=0.002", ["Alpha", "Delta"]],
    ["max_price=0.0019", ["Alpha"]],
    ["max_price=0.0009", []],
    // No price is known for Charlie (no payment option at all): kept only when asked.
    ["max_price=0.0009&include_unpriced=true", ["Charlie"]],
    ["max_price=0.002&include_unpriced=true", ["Alpha", "Charlie", "Delta"]],
    ["max_price=0.002&include_unpriced=false", ["Alpha", "Delta"]],
    ["network=base&max_price=0.005&include_unpriced=true", []],
    ["include_unpriced=true", ["Alpha", "Bravo", "Charlie", "Delta"]],
    [`pay_to=${PAY_TO.toUpperCase()}`, ["Alpha"]],
    ["pay_to=0x0", []],
    // One option must meet every payment filter: Alpha's cheap option is not on Base.
    ["network=base&max_price=0.005", []],
    ["network=polygon&max_price=0.005", ["Alpha"]],
    ["source=bazaar", ["Delta"]],
    ["source=html_directory", ["Alpha", "Bravo", "Charlie", "Delta"]],
    ["source=https://bazaar.test", ["Delta"]],
    ["source=http://directory.test/", ["Alpha", "Bravo", "Charlie", "Delta"]],
    ["source=https://elsewhere.test/", []],
    ["verified=true", ["Alpha", "Delta"]],
    ["verified=false", ["Bravo", "Charlie"]],
    ["method=POST", ["Delta"]],
  ];

  it.each(cases)(
    "when filtered by %s, then exactly the matching entries are listed",
    async (query, expected) => {
      const response = await request(api.app).get(`/v1/services?${query}&sort=name`);
      expect(response.status).toBe(200);
      expect(names(response.body)).toEqual(expected);
      expect(response.body.total).toBe(expected.length);
    },
  );

  it("when max_price leaves nothing, then the empty answer hints that include_unpriced=true shows unpriced entries", async () => {
    const HINT = "max_price hides entries with no known price: add include_unpriced=true to see them";
    const empty = await request(api.app).get("/v1/services?max_price=0.0009");
    expect(empty.body).toMatchObject({ items: [], total: 0, hint: HINT });
    expect(serviceListSchema.safeParse(empty.body).success).toBe(true);
    const endpoints = await request(api.app).get("/v1/endpoints?max_price=0.0009");
    expect(endpoints.body).toMatchObject({ items: [], total: 0, hint: HINT });
    // No hint when entries came, when unpriced ones were asked for, or when no max_price emptied it.
    expect((await request(api.app).get("/v1/services?max_price=0.002")).body).not.toHaveProperty("hint");
    expect(
      (await request(api.app).get("/v1/services?max_price=0.0009&include_unpriced=true&network=solana")).body,
    ).not.toHaveProperty("hint");
    expect((await request(api.app).get("/v1/services?pay_to=0x0")).body).not.toHaveProperty("hint");
  });

  it("when sorted by price, then the cheapest entry comes first and entries without prices last", async () => {
    const response = await request(api.app).get("/v1/services?sort=price");
    expect(names(response.body)).toEqual(["Alpha", "Delta", "Bravo", "Charlie"]);
  });

  it("when sorted by price descending, then entries without prices are still last", async () => {
    const response = await request(api.app).get("/v1/services?sort=price&order=desc");
    expect(names(response.body)).toEqual(["Bravo", "Delta", "Alpha", "Charlie"]);
  });

  it("when the CSV export is filtered by network, then it holds the same entries as the list", async () => {
    const response = await request(api.app).get("/v1/services.csv?network=solana");
    expect(response.status).toBe(200);
    const lines = response.text.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("Delta");
  });

  const invalid: Array<[string, string, RegExp]> = [
    ["max_price=abc", "max_price", /decimal number/],
    ["max_price=-1", "max_price", /decimal number/],
    ["verified=yes", "verified", /true, false/],
    [
      "source=ftp://x.test",
      "source",
      /html_directory, bazaar, origin_manifest, registered or a source's base URL/,
    ],
    ["network=", "network", /must not be empty/],
    ["sort=cheapest", "sort", /price/],
  ];

  it.each(invalid)("when %s is given, then 400 names the parameter", async (query, parameter, message) => {
    const response = await request(api.app).get(`/v1/services?${query}`);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain(parameter);
    expect(JSON.stringify(response.body)).toMatch(message);
  });
});
