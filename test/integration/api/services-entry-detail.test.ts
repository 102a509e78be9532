import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { firstEndpointId, seedBazaarMember, seedPaymentOptions } from "../../support/payments";

const MINUTE = 60 * 1000;
const OBSERVED = new Date("2026-02-01T10:00:00Z");

describe("GET /v1/services/{id} of a catalogue entry: payment options, probes, sources", () => {
  let database: TestDatabase;
  let api: TestApp;
  let primaryId: string;
  let memberId: string;
  let plainId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    const db = database.db;
    [primaryId, plainId] = await seedServices(db, [
      {
        name: "Quotes",
        domain: "quotes.test",
        endpoints: [{ method: "GET", url: "https://quotes.test/q", description: "Quote" }],
        history: [{ observedFrom: OBSERVED, observedTo: OBSERVED, txCount30d: 42 }],
      },
      { name: "Plain", domain: "plain.test", endpoints: [{ method: "GET", url: "https://plain.test/a" }] },
    ]);
    memberId = await seedBazaarMember(db, primaryId, [
      { method: "GET", url: "https://quotes.test/q" },
      { method: "POST", url: "https://quotes.test/batch" },
    ]);
    const directory = await db.source.findFirstOrThrow({ where: { kind: "html_directory" } });
    const bazaar = await db.source.findFirstOrThrow({ where: { kind: "bazaar" } });
    const quote = await firstEndpointId(db, primaryId);
    await seedPaymentOptions(db, quote, [
      {
        sourceId: directory.id,
        network: "eip155:8453",
        networkName: "base",
        priceUsdc: "0.010000",
        observedAt: OBSERVED,
      },
      {
        origin: "probe",
        network: "eip155:8453",
        networkName: "base",
        assetSymbol: "USDC",
        amountAtomic: "10000",
        priceUsdc: "0.01",
        payTo: "0xPay",
        warnings: ["amount differs from listing"],
        observedAt: OBSERVED,
      },
    ]);
    const [memberQuote, memberBatch] = await db.endpoint.findMany({
      where: { serviceId: memberId },
      orderBy: { position: "asc" },
    });
    if (!memberQuote || !memberBatch) throw new Error("seeded member endpoints are missing");
    await seedPaymentOptions(db, memberQuote.id, [
      {
        sourceId: bazaar.id,
        network: "eip155:137",
        networkName: "polygon",
        priceUsdc: "0.005",
        observedAt: OBSERVED,
      },
    ]);
    const now = Date.now();
    await db.endpoint.update({ where: { id: quote }, data: { lastVerifiedAt: new Date(now - 30 * MINUTE) } });
    await db.endpointProbe.createMany({
      data: [
        {
          endpointId: quote,
          probedAt: new Date(now - 60 * MINUTE),
          outcome: "challenge",
          statusCode: 402,
          latencyMs: 100,
          challengeValid: true,
        },
        {
          endpointId: quote,
          probedAt: new Date(now - 30 * MINUTE),
          outcome: "http_error",
          statusCode: 500,
          latencyMs: 300,
        },
        {
          endpointId: memberBatch.id,
          probedAt: new Date(now - 10 * MINUTE),
          outcome: "challenge",
          statusCode: 402,
          latencyMs: 50,
          challengeValid: true,
        },
      ],
    });
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  const detail = async (id: string) => {
    const response = await request(api.app).get(`/v1/services/${id}`);
    expect(response.status).toBe(200);
    return response.body;
  };

  it("when the history of a merged row is asked, then the entry's history answers", async () => {
    const byMember = await request(api.app).get(`/v1/services/${memberId}/history`);
    const byPrimary = await request(api.app).get(`/v1/services/${primaryId}/history`);
    expect(byMember.status).toBe(200);
    expect(byMember.body.items.map((h: { tx_count_30d: number }) => h.tx_count_30d)).toEqual([42]);
    expect(byMember.body).toEqual(byPrimary.body);
  });

  it("when the entry is read, then the endpoints of all its rows are listed once each, primary's first", async () => {
    const body = await detail(primaryId);
    expect(body.endpoints.map((e: { method: string; url: string }) => `${e.method} ${e.url}`)).toEqual([
      "GET https://quotes.test/q",
      "POST https://quotes.test/batch",
    ]);
    expect(body.endpoints[0].description).toBe("Quote");
  });

  it("when an endpoint is listed by two sources and probed, then it carries every option with its provenance", async () => {
    const body = await detail(primaryId);
    expect(body.endpoints[0].payment_options).toEqual([
      expect.objectContaining({
        origin: "listing",
        source: "http://directory.test/",
        source_url: body.source_url,
        price_usdc: "0.01",
      }),
      {
        origin: "probe",
        source: null,
        source_url: null,
        scheme: "exact",
        price_kind: "exact",
        network: "eip155:8453",
        network_name: "base",
        asset: null,
        asset_symbol: "USDC",
        amount_atomic: "10000",
        price_usdc: "0.01",
        pay_to: "0xPay",
        max_timeout_seconds: 60,
        warnings: ["amount differs from listing"],
        payable: null,
        unpayable_reasons: [],
        observed_at: OBSERVED.toISOString(),
      },
      expect.objectContaining({
        origin: "listing",
        source: "https://bazaar.test/",
        source_url: "https://bazaar.test/items/quotes.test",
        network: "eip155:137",
      }),
    ]);
    expect(body.endpoints[1].payment_options).toEqual([]);
  });

  it("when an endpoint was probed, then its probe block has the window figures and the last probe", async () => {
    const probe = (await detail(primaryId)).endpoints[0].probe;
    expect(probe.verified).toBe(true);
    expect(probe.last_probe).toMatchObject({
      status_code: 500,
      outcome: "http_error",
      challenge_valid: false,
    });
    expect(probe.windows["24h"]).toEqual({ probes: 2, uptime_pct: 50, p50_ms: 200, p99_ms: 298 });
    expect(probe.windows["30d"].probes).toBe(2);
  });

  it("when the entry was probed through several rows, then the service probe block counts all of them", async () => {
    const probe = (await detail(primaryId)).probe;
    expect(probe.windows["24h"].probes).toBe(3);
    expect(probe.last_probe).toMatchObject({ status_code: 402, outcome: "challenge" });
    expect(probe.verified).toBe(true);
  });

  it("when the entry is read, then its sources say which source listed it where and when", async () => {
    const body = await detail(primaryId);
    expect(body.sources).toEqual([
      expect.objectContaining({
        kind: "html_directory",
        source: "http://directory.test/",
        status: "listed",
      }),
      {
        kind: "bazaar",
        source: "https://bazaar.test/",
        source_url: "https://bazaar.test/items/quotes.test",
        status: "listed",
        first_seen_at: "2026-01-05T00:00:00.000Z",
        last_seen_at: "2026-02-05T00:00:00.000Z",
      },
    ]);
    // source_url means one thing everywhere: the primary source's page of the service.
    expect(body.sources[0].source_url).toBe(body.source_url);
  });

  it("when the entry is read, then the lowest price and the networks of all rows are summarised", async () => {
    const body = await detail(primaryId);
    expect(body.price_usdc_min).toBe("0.005");
    expect(body.networks).toEqual(["eip155:137", "eip155:8453"]);
  });

  it("when a non-primary row's id is asked, then the whole entry is answered under the primary's id", async () => {
    const body = await detail(memberId);
    expect(body.id).toBe(primaryId);
    expect(body.sources).toHaveLength(2);
  });

  it("when a service has no options nor probes, then they are empty rather than missing", async () => {
    const body = await detail(plainId);
    expect(body.price_usdc_min).toBeNull();
    expect(body.networks).toEqual([]);
    expect(body.endpoints[0].payment_options).toEqual([]);
    expect(body.endpoints[0].probe).toMatchObject({ verified: false, last_probe: null });
    expect(body.endpoints[0].probe.windows["24h"]).toEqual({
      probes: 0,
      uptime_pct: null,
      p50_ms: null,
      p99_ms: null,
    });
    expect(body.sources).toHaveLength(1);
  });

  it("when the list is read, then it has one item per entry with its price and networks", async () => {
    const response = await request(api.app).get("/v1/services?sort=name");
    expect(response.body.items.map((item: { id: string }) => item.id)).toEqual([plainId, primaryId]);
    expect(response.body.items[1]).toMatchObject({
      price_usdc_min: "0.005",
      networks: ["eip155:137", "eip155:8453"],
    });
    expect(response.body.items[1]).not.toHaveProperty("sources");
  });

  it("when endpoints are listed, then each has its verification and payment options, under the entry's id", async () => {
    const response = await request(api.app).get("/v1/endpoints?limit=10");
    expect(response.status).toBe(200);
    const batch = response.body.items.find((item: { method: string }) => item.method === "POST");
    expect(batch).toMatchObject({
      service_id: primaryId,
      verified: false,
      last_verified_at: null,
      payment_options: [],
    });
    const verified = response.body.items.filter((item: { verified: boolean }) => item.verified);
    expect(verified).toHaveLength(1);
    expect(verified[0].payment_options.map((o: { origin: string }) => o.origin)).toEqual([
      "listing",
      "probe",
    ]);
  });
});
