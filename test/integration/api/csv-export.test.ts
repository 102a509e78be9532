import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { parseCsv } from "../../support/csv";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { firstEndpointId, seedPaymentOptions } from "../../support/payments";

const SERVICE_HEADER = [
  "id",
  "name",
  "domain",
  "description",
  "category",
  "tags",
  "endpoints",
  "uptime_30d",
  "avg_response_ms_30d",
  "info_updated_at",
  "volume_usdc_30d",
  "tx_count_30d",
  "payer_count_30d",
  "status",
  "first_seen_at",
  "last_seen_at",
  "source_url",
  "price_usdc_min",
  "networks",
  "sources",
  "verified",
  "probe_uptime_pct_30d",
  "probe_p50_ms_30d",
  "probe_p99_ms_30d",
  "payable_endpoints",
  "health",
  "grade",
  "score",
  "warnings",
  "owner_verified",
  "observed_volume_usdc_30d",
  "adjusted_volume_usdc_30d",
  "observed_tx_count_30d",
  "adjusted_tx_count_30d",
  "observed_unique_payers_30d",
  "adjusted_unique_payers_30d",
  "last_payment_at",
  "activity_flags",
];

describe("GET /v1/services.csv and /v1/history.csv", () => {
  let database: TestDatabase;
  let api: TestApp;
  let quotesId: string;
  let trickyId: string;

  const csv = async (path: string) => {
    const response = await request(api.app)
      .get(path)
      .buffer(true)
      .parse((res, done) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => done(null, text));
      });
    expect(response.status).toBe(200);
    return { response, records: parseCsv(response.body as string), text: response.body as string };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    [quotesId, trickyId] = await seedServices(database.db, [
      {
        name: "Stock Quotes API",
        domain: "quotes.test",
        description: "Real-time quotes",
        category: "Finance",
        tags: ["stocks", "market-data"],
        endpoints: [
          { method: "GET", url: "https://quotes.test/v1/quote" },
          { method: "POST", url: "https://quotes.test/v1/batch" },
        ],
        uptime30d: 99.5,
        avgResponseMs30d: 120,
        infoUpdatedAt: new Date("2026-02-03T04:05:06.789Z"),
        volumeUsdc30d: "1250.500000",
        txCount30d: 4200,
        payerCount30d: 37,
        history: [
          {
            observedFrom: new Date("2026-01-02T00:00:00Z"),
            observedTo: new Date("2026-01-03T00:00:00Z"),
            volumeUsdc30d: "2",
          },
          {
            observedFrom: new Date("2026-01-01T00:00:00Z"),
            observedTo: new Date("2026-01-01T12:00:00Z"),
            volumeUsdc30d: "1.5",
          },
        ],
      },
      {
        name: 'Say "hi", then\r\nleave',
        description: '=HYPERLINK("http://evil.test","click")',
        category: "+cmd|' /C calc'!A0",
        domain: "-2+3.test",
        tags: ["@sum"],
        volumeUsdc30d: "5",
        history: [
          { observedFrom: new Date("2026-01-05T00:00:00Z"), observedTo: new Date("2026-01-06T00:00:00Z") },
        ],
      },
      { name: "\tTabbed", description: "\rReturn", volumeUsdc30d: "1" },
      { name: "Gone", status: "delisted", volumeUsdc30d: "999" },
    ]);
    // Quotes is priced on two networks and was probed three times (latencies with float noise).
    const endpoint = await firstEndpointId(database.db, quotesId);
    await seedPaymentOptions(database.db, endpoint, [
      { network: "eip155:8453", priceUsdc: "0.01" },
      { network: "eip155:137", priceUsdc: "0.005" },
    ]);
    const now = Date.now();
    await database.db.endpointProbe.createMany({
      data: [0.8069529999920633, 1.25, null].map((latencyMs, i) => ({
        endpointId: endpoint,
        probedAt: new Date(now - (i + 1) * 60_000),
        outcome: latencyMs === null ? "network_error" : "challenge",
        statusCode: latencyMs === null ? null : 402,
        latencyMs,
        challengeValid: latencyMs !== null,
      })),
    });
    await database.db.endpoint.update({
      where: { id: endpoint },
      data: { lastVerifiedAt: new Date(now - 60_000) },
    });
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  it("when services are exported, then a download with a header row and RFC 4180 rows comes", async () => {
    const { response, records } = await csv("/v1/services.csv");
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe('attachment; filename="services.csv"');
    expect(records[0]).toEqual(SERVICE_HEADER);
    expect(records).toHaveLength(4);
    expect(records[1]).toEqual([
      quotesId,
      "Stock Quotes API",
      "quotes.test",
      "Real-time quotes",
      "Finance",
      "market-data | stocks",
      "GET https://quotes.test/v1/quote | POST https://quotes.test/v1/batch",
      "99.5",
      "120",
      "2026-02-03T04:05:06.789Z",
      "1250.500000",
      "4200",
      "37",
      "listed",
      "2026-01-01T00:00:00.000Z",
      "2026-02-01T00:00:00.000Z",
      expect.stringMatching(/^http:\/\/directory\.test\/services\/\d+$/),
      "0.005",
      "eip155:137 | eip155:8453",
      "http://directory.test/",
      "true",
      "66.67",
      "1",
      "1.2",
      "0",
      "unknown",
      "",
      "",
      "",
      "false",
      // No chain reads its pay_tos: no observed figures.
      ...Array.from({ length: 8 }, () => ""),
    ]);
  });

  it("when the JSON list is read beside the CSV, then price, networks, verification and probes agree", async () => {
    const { records } = await csv("/v1/services.csv?sort=name");
    const detail = await request(api.app).get(`/v1/services/${quotesId}`);
    const row = records.find((r) => r[0] === quotesId)!;
    const cell = (name: string) => row[SERVICE_HEADER.indexOf(name)];
    expect(cell("price_usdc_min")).toBe(detail.body.price_usdc_min);
    expect(cell("networks")?.split(" | ")).toEqual(detail.body.networks);
    expect(cell("verified")).toBe(String(detail.body.probe.verified));
    const window = detail.body.probe.windows["30d"];
    expect([cell("probe_uptime_pct_30d"), cell("probe_p50_ms_30d"), cell("probe_p99_ms_30d")]).toEqual(
      [window.uptime_pct, window.p50_ms, window.p99_ms].map(String),
    );
    const tricky = records.find((r) => r[0] === trickyId)!;
    expect(tricky.slice(SERVICE_HEADER.indexOf("price_usdc_min"))).toEqual([
      "",
      "",
      "http://directory.test/",
      "false",
      "",
      "",
      "",
      "0",
      "unknown",
      "",
      "",
      "",
      "false",
      // No chain reads its pay_tos: no observed figures.
      ...Array.from({ length: 8 }, () => ""),
    ]);
  });

  it("when limit and offset are given, then the export is that window of the list", async () => {
    const list = await request(api.app).get("/v1/services?sort=name&offset=1&limit=2");
    const { records } = await csv("/v1/services.csv?sort=name&offset=1&limit=2");
    expect(records.slice(1).map((r) => r[0])).toEqual(list.body.items.map((i: { id: string }) => i.id));
    const rest = await csv("/v1/services.csv?sort=name&offset=1");
    expect(rest.records).toHaveLength(1 + 2);
  });

  it("when no cell of the export holds a line break except text the directory wrote, then multi-valued cells use one separator", async () => {
    const { records } = await csv("/v1/services.csv");
    for (const row of records.slice(1))
      for (const name of ["tags", "endpoints", "networks", "sources"])
        expect(row[SERVICE_HEADER.indexOf(name)]).not.toMatch(/[\r\n]/);
  });

  it("when a cell holds commas, quotes or line breaks, then it is quoted with doubled quotes", async () => {
    const { text, records } = await csv(`/v1/services.csv?sort=name`);
    expect(text).toContain('"Say ""hi"", then\r\nleave"');
    expect(records.find((r) => r[0] === trickyId)?.[1]).toBe('Say "hi", then\r\nleave');
  });

  it("when a text cell starts with = + - @ tab or CR, then it is prefixed with ' so no formula runs", async () => {
    const { records } = await csv("/v1/services.csv");
    const tricky = records.find((r) => r[0] === trickyId)!;
    expect(tricky[2]).toBe("'-2+3.test");
    expect(tricky[3]).toBe('\'=HYPERLINK("http://evil.test","click")');
    expect(tricky[4]).toBe("'+cmd|' /C calc'!A0");
    expect(tricky[5]).toBe("'@sum");
    const tabbed = records.find((r) => r[1]?.endsWith("Tabbed"))!;
    expect(tabbed[1]).toBe("'\tTabbed");
    expect(tabbed[3]).toBe("'\rReturn");
    // Untouched: cells that do not start with a trigger character.
    expect(tricky[10]).toBe("5.000000");
  });

  it("when filters and a sort are given, then the rows are the list's rows in the list's order", async () => {
    for (const query of [
      "",
      "sort=name",
      "q=quotes",
      "status=all&sort=volume&order=asc",
      "min_volume=2",
      "status=delisted",
    ]) {
      const list = await request(api.app).get(`/v1/services?${query}&limit=200`);
      const { records } = await csv(`/v1/services.csv?${query}`);
      expect(records.slice(1).map((r) => r[0])).toEqual(list.body.items.map((i: { id: string }) => i.id));
    }
  });

  it("when q is misspelt, then the export uses the same typo fallback as the list", async () => {
    const { records } = await csv("/v1/services.csv?q=stok");
    expect(records.slice(1).map((r) => r[0])).toEqual([quotesId]);
  });

  it("when history is exported, then every row comes by service then oldest first", async () => {
    const { response, records } = await csv("/v1/history.csv");
    expect(response.headers["content-disposition"]).toBe('attachment; filename="history.csv"');
    expect(records[0]).toEqual([
      "service_id",
      "observed_from",
      "observed_to",
      "uptime_30d",
      "avg_response_ms_30d",
      "volume_usdc_30d",
      "tx_count_30d",
      "payer_count_30d",
      "info_updated_at",
    ]);
    const byService = [quotesId, trickyId].sort();
    const expected = byService.flatMap((id) =>
      id === quotesId
        ? [
            [id, "2026-01-01T00:00:00.000Z"],
            [id, "2026-01-02T00:00:00.000Z"],
          ]
        : [[id, "2026-01-05T00:00:00.000Z"]],
    );
    expect(records.slice(1).map((r) => [r[0], r[1]])).toEqual(expected);
    expect(records[1]?.[5]).toBe(records[1]?.[0] === quotesId ? "1.500000" : "");
  });

  it("when history is exported for one service and a window, then only its overlapping rows come", async () => {
    const one = await csv(`/v1/history.csv?service_id=${quotesId}`);
    expect(one.records.slice(1).map((r) => r[1])).toEqual([
      "2026-01-01T00:00:00.000Z",
      "2026-01-02T00:00:00.000Z",
    ]);
    const window = await csv(`/v1/history.csv?service_id=${quotesId}&from=2026-01-01T18:00:00Z`);
    expect(window.records.slice(1).map((r) => r[1])).toEqual(["2026-01-02T00:00:00.000Z"]);
    const none = await csv("/v1/history.csv?to=2025-12-31");
    expect(none.records).toHaveLength(1);
  });

  it("when the client accepts gzip, then the download is compressed and decodes to the same CSV", async () => {
    const plain = await csv("/v1/history.csv");
    const gzipped = await request(api.app).get("/v1/history.csv").set("Accept-Encoding", "gzip");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.text).toBe(plain.text);
  });
});
