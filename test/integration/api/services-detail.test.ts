import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

const noWindow = { probes: 0, uptime_pct: null, p50_ms: null, p99_ms: null };
/** The probe block of something never probed. */
const UNPROBED = {
  verified: false,
  last_verified_at: null,
  last_probe: null,
  windows: { "24h": noWindow, "7d": noWindow, "30d": noWindow },
};

/** Trust verdicts before any probe sweep judged the catalogue. */
const NOT_JUDGED = {
  health: "unknown",
  health_reason: null,
  health_changed_at: null,
  grade: null,
  score: null,
  warnings: [],
};

describe("GET /v1/services/{id} and /history", () => {
  let database: TestDatabase;
  let api: TestApp;
  let fullId: string;
  let sparseId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    [fullId, sparseId] = await seedServices(database.db, [
      {
        name: "Stock Quotes API",
        domain: "quotes.test",
        description: "Real-time quotes",
        category: "Finance",
        tags: ["stocks", "market-data"],
        endpoints: [
          { method: "GET", url: "https://quotes.test/v1/quote", description: "Latest quote" },
          { method: "POST", url: "https://quotes.test/v1/batch", description: null },
        ],
        uptime30d: 99.95,
        avgResponseMs30d: 182.5,
        infoUpdatedAt: new Date("2026-02-03T04:05:06.789Z"),
        volumeUsdc30d: "1250.500000",
        txCount30d: 4200,
        payerCount30d: 37,
        firstSeenAt: new Date("2026-01-01T00:00:00Z"),
        lastSeenAt: new Date("2026-02-10T00:00:00Z"),
        history: [
          {
            observedFrom: new Date("2026-01-20T00:00:00Z"),
            observedTo: new Date("2026-01-31T00:00:00Z"),
            uptime30d: 99,
            volumeUsdc30d: "900.25",
            txCount30d: 3000,
          },
          {
            observedFrom: new Date("2026-01-01T00:00:00Z"),
            observedTo: new Date("2026-01-19T00:00:00Z"),
            uptime30d: 98,
            volumeUsdc30d: "100",
            txCount30d: 10,
          },
          {
            observedFrom: new Date("2026-02-01T00:00:00Z"),
            observedTo: new Date("2026-02-10T00:00:00Z"),
            uptime30d: 99.95,
            volumeUsdc30d: "1250.5",
            txCount30d: 4200,
          },
        ],
      },
      { name: "Bare Service", status: "delisted" },
    ]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  const UNOBSERVED = {
    pay_to_shared_with_origins: null,
    answers_our_probes: null,
    listed_since: "2026-01-01T00:00:00.000Z",
    listing_age_days: expect.any(Number),
  };
  const NOTHING_PUBLISHED = {
    payable: false,
    decided_by: null,
    reasons: ["no payment requirements are published for it"],
  };

  it("when the service exists, then every field is answered in snake_case with exact amounts", async () => {
    const response = await request(api.app).get(`/v1/services/${fullId}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: fullId,
      name: "Stock Quotes API",
      domain: "quotes.test",
      description: "Real-time quotes",
      category: "Finance",
      tags: ["market-data", "stocks"],
      endpoints: [
        {
          method: "GET",
          transport: "http",
          url: "https://quotes.test/v1/quote",
          description: "Latest quote",
          payment_options: [],
          probe: UNPROBED,
          payability: NOTHING_PUBLISHED,
          call: null,
          self_reported: null,
          evidence: UNOBSERVED,
          drift: null,
          ...NOT_JUDGED,
          checks: null,
          observed: null,
        },
        {
          method: "POST",
          transport: "http",
          url: "https://quotes.test/v1/batch",
          description: null,
          payment_options: [],
          probe: UNPROBED,
          payability: NOTHING_PUBLISHED,
          call: null,
          self_reported: null,
          evidence: UNOBSERVED,
          drift: null,
          ...NOT_JUDGED,
          checks: null,
          observed: null,
        },
      ],
      uptime_30d: 99.95,
      avg_response_ms_30d: 182.5,
      info_updated_at: "2026-02-03T04:05:06.789Z",
      volume_usdc_30d: "1250.500000",
      tx_count_30d: 4200,
      payer_count_30d: 37,
      status: "listed",
      delist_reason: null,
      first_seen_at: "2026-01-01T00:00:00.000Z",
      last_seen_at: "2026-02-10T00:00:00.000Z",
      source_url: expect.stringMatching(/^http:\/\/directory\.test\/services\/\d+$/),
      price_usdc_min: null,
      networks: [],
      probe: UNPROBED,
      ...NOT_JUDGED,
      owner_verified: false,
      owner_reported: null,
      sources: [
        {
          kind: "html_directory",
          source: "http://directory.test/",
          source_url: expect.stringMatching(/^http:\/\/directory\.test\/services\/\d+$/),
          status: "listed",
          first_seen_at: "2026-01-01T00:00:00.000Z",
          last_seen_at: "2026-02-10T00:00:00.000Z",
        },
      ],
      observed: null,
    });
  });

  it("when values are missing and the service is delisted, then they are null and it is still answered", async () => {
    const response = await request(api.app).get(`/v1/services/${sparseId}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: "delisted",
      domain: null,
      description: null,
      category: null,
      tags: [],
      endpoints: [],
      uptime_30d: null,
      avg_response_ms_30d: null,
      info_updated_at: null,
      volume_usdc_30d: null,
      tx_count_30d: null,
      payer_count_30d: null,
    });
  });

  it("when the id is unknown, then 404 with the error body", async () => {
    const response = await request(api.app).get(`/v1/services/${UNKNOWN_ID}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      statusCode: 404,
      message: `No service with id ${UNKNOWN_ID}`,
      error: "Not Found",
    });
  });

  it("when the history is asked, then its intervals come oldest first with exact amounts", async () => {
    const response = await request(api.app).get(`/v1/services/${fullId}/history`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      items: [
        {
          observed_from: "2026-01-01T00:00:00.000Z",
          observed_to: "2026-01-19T00:00:00.000Z",
          uptime_30d: 98,
          avg_response_ms_30d: null,
          volume_usdc_30d: "100.000000",
          tx_count_30d: 10,
          payer_count_30d: null,
          info_updated_at: null,
        },
        expect.objectContaining({ observed_from: "2026-01-20T00:00:00.000Z", volume_usdc_30d: "900.250000" }),
        expect.objectContaining({
          observed_from: "2026-02-01T00:00:00.000Z",
          volume_usdc_30d: "1250.500000",
        }),
      ],
      has_more: false,
      total: 3,
    });
  });

  it("when from and to are given, then only intervals overlapping them are returned", async () => {
    const from = async (query: string) =>
      (await request(api.app).get(`/v1/services/${fullId}/history?${query}`)).body.items.map(
        (item: { observed_from: string }) => item.observed_from.slice(0, 10),
      );
    expect(await from("from=2026-01-25")).toEqual(["2026-01-20", "2026-02-01"]);
    expect(await from("to=2026-01-19T23:59:59Z")).toEqual(["2026-01-01"]);
    expect(await from("from=2026-01-19&to=2026-01-20")).toEqual(["2026-01-01", "2026-01-20"]);
    expect(await from("from=2026-03-01")).toEqual([]);
  });

  it("when the history is paged, then pages follow each other", async () => {
    const response = await request(api.app).get(`/v1/services/${fullId}/history?limit=2&offset=1`);
    expect(
      response.body.items.map((item: { observed_from: string }) => item.observed_from.slice(0, 10)),
    ).toEqual(["2026-01-20", "2026-02-01"]);
    expect(response.body).toMatchObject({ has_more: false, total: 3 });
  });

  it("when the service has no history, then the list is empty", async () => {
    const response = await request(api.app).get(`/v1/services/${sparseId}/history`);
    expect(response.body).toEqual({ items: [], has_more: false, total: 0 });
  });

  it("when the history of an unknown service is asked, then 404", async () => {
    const response = await request(api.app).get(`/v1/services/${UNKNOWN_ID}/history`);
    expect(response.status).toBe(404);
    expect(response.body.message).toBe(`No service with id ${UNKNOWN_ID}`);
  });

  it("when a service's search read model was never built, then its tags and endpoints are read directly", async () => {
    const source = await database.db.source.findFirstOrThrow();
    const unindexed = await database.db.service.create({
      data: {
        sourceId: source.id,
        detailUrl: "http://directory.test/unindexed",
        name: "Unindexed",
        firstSeenAt: new Date("2026-01-01T00:00:00Z"),
        lastSeenAt: new Date("2026-01-01T00:00:00Z"),
        tags: { create: [{ tag: "zeta" }, { tag: "alpha" }] },
        endpoints: { create: [{ position: 0, method: "GET", url: "https://u.test/a", description: "A" }] },
      },
    });
    const response = await request(api.app).get(`/v1/services/${unindexed.id}`);
    expect(response.body).toMatchObject({
      tags: ["alpha", "zeta"],
      endpoints: [{ method: "GET", url: "https://u.test/a", description: "A" }],
    });
  });
});
