import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const SERVICE_PARAMS =
  "q, category, tag, method, transport, domain, min_uptime, max_response_ms, min_volume, min_tx, min_payers, " +
  "updated_since, network, asset, max_price, include_unpriced, pay_to, source, verified, drift, owner_verified, status, " +
  "health, min_grade, min_score, warning, no_warning, min_observed_volume, min_unique_payers, sort, order, offset, limit";

describe("request validation and HTTP behaviour", () => {
  let database: TestDatabase;
  let api: TestApp;
  let serviceId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    [serviceId] = await seedServices(database.db, [
      { name: "Stock Quotes API", category: "Finance", tags: ["stocks"], volumeUsdc30d: "10" },
    ]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  // [path, the exact message]: each names the parameter, what is allowed and what was given.
  const invalid: Array<[string, string]> = [
    ["/v1/services?limit=0", 'limit: must be a whole number from 1 to 200 (got "0")'],
    ["/v1/services?limit=201", 'limit: must be a whole number from 1 to 200 (got "201")'],
    ["/v1/services?limit=abc", 'limit: must be a whole number from 1 to 200 (got "abc")'],
    ["/v1/services?limit=1.5", 'limit: must be a whole number from 1 to 200 (got "1.5")'],
    ["/v1/services?limit=", 'limit: must be a whole number from 1 to 200 (got "")'],
    ["/v1/services?limit=1e2", 'limit: must be a whole number from 1 to 200 (got "1e2")'],
    ["/v1/services?limit=1&limit=2", 'limit: must be a whole number from 1 to 200 (got ["1","2"])'],
    ["/v1/services?offset=-1", 'offset: must be a whole number from 0 to 1000000000 (got "-1")'],
    ["/v1/services?q=", 'q: must not be empty (got "")'],
    ["/v1/services?q=%20%20", 'q: must not be empty (got "  ")'],
    [`/v1/services?q=${"a".repeat(201)}`, `q: must be at most 200 characters (got "${"a".repeat(59)}…)`],
    ["/v1/services?q=a%00b", 'q: must not contain NUL characters (got "a\\u0000b")'],
    ["/v1/services?q=a&q=b", 'q: must be given once, as text (got ["a","b"])'],
    ["/v1/services?category=", 'category: must not be empty (got "")'],
    [
      `/v1/services?${Array.from({ length: 11 }, (_, i) => `tag=t${i}`).join("&")}`,
      'tag: may be given at most 10 times (got ["t0","t1","t2","t3","t4","t5","t6","t7","t8","t9","t10"])',
    ],
    ["/v1/services?tag=", 'tag: must not be empty (got "")'],
    [
      "/v1/services?method=FETCH",
      'method: must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS (got "FETCH")',
    ],
    ["/v1/services?domain=", 'domain: must not be empty (got "")'],
    ["/v1/services?min_uptime=101", 'min_uptime: must be a number from 0 to 100 (got "101")'],
    ["/v1/services?min_uptime=high", 'min_uptime: must be a number from 0 to 100 (got "high")'],
    ["/v1/services?max_response_ms=-5", 'max_response_ms: must be a number from 0 to 3600000 (got "-5")'],
    [
      "/v1/services?min_volume=1e3",
      'min_volume: must be a decimal number such as 1000 or 0.5 (at most 6 decimals) (got "1e3")',
    ],
    [
      "/v1/services?min_volume=0.1234567",
      'min_volume: must be a decimal number such as 1000 or 0.5 (at most 6 decimals) (got "0.1234567")',
    ],
    [
      "/v1/services?min_volume=-1",
      'min_volume: must be a decimal number such as 1000 or 0.5 (at most 6 decimals) (got "-1")',
    ],
    ["/v1/services?min_tx=2.5", 'min_tx: must be a whole number from 0 to 2147483647 (got "2.5")'],
    ["/v1/services?min_payers=-1", 'min_payers: must be a whole number from 0 to 2147483647 (got "-1")'],
    [
      "/v1/services?updated_since=yesterday",
      'updated_since: must be an ISO 8601 date or date-time, such as 2026-01-31 or 2026-01-31T12:00:00Z (got "yesterday")',
    ],
    [
      "/v1/services?updated_since=2026-02-30",
      'updated_since: must be an ISO 8601 date or date-time, such as 2026-01-31 or 2026-01-31T12:00:00Z (got "2026-02-30")',
    ],
    ["/v1/services?status=gone", 'status: must be one of listed, delisted, all (got "gone")'],
    [
      "/v1/services?sort=cheapest",
      'sort: must be one of relevance, volume, tx_count, payers, uptime, response_ms, name, updated, first_seen, price, score, observed_volume, adjusted_volume (got "cheapest")',
    ],
    ["/v1/services?sort=relevance", 'sort: relevance needs q; without q use another sort (got "relevance")'],
    ["/v1/services?order=up", 'order: must be one of asc, desc (got "up")'],
    [
      "/v1/endpoints?min_observed_volume=ten",
      'min_observed_volume: must be a decimal number such as 1000 or 0.5 (at most 6 decimals) (got "ten")',
    ],
    [
      "/v1/services?min_unique_payers=-2",
      'min_unique_payers: must be a whole number from 0 to 2147483647 (got "-2")',
    ],
    [
      "/v1/services?max_price=0.0000001",
      'max_price: must be a decimal number such as 1000 or 0.5 (at most 6 decimals) (got "0.0000001")',
    ],
    ["/v1/services?verified=1", 'verified: must be one of true, false (got "1")'],
    [
      "/v1/services?source=directory",
      `source: must be html_directory, bazaar, origin_manifest, registered or a source's base URL (http:// or https://) (got "directory")`,
    ],
    ["/v1/services?categry=Finance", `unknown query parameter "categry"; allowed: ${SERVICE_PARAMS}`],
    // Bracket syntax is not structure: the name is taken as written, and no parameter has it.
    ["/v1/services?tag[]=crypto", `unknown query parameter "tag[]"; allowed: ${SERVICE_PARAMS}`],
    [
      "/v1/services?limit=500&foo=1&bar=2",
      `limit: must be a whole number from 1 to 200 (got "500"); unknown query parameters "foo", "bar"; allowed: ${SERVICE_PARAMS}`,
    ],
    [
      "/v1/services/00000000-0000-4000-8000-000000000000?expand=1",
      'unknown query parameter "expand"; allowed: none',
    ],
    [
      "/v1/services/00000000-0000-4000-8000-000000000000/history?from=2026-02-01&to=2026-01-01",
      'to: must not be before from (got "2026-01-01")',
    ],
    [
      "/v1/services/00000000-0000-4000-8000-000000000000/history?since=2026-01-01",
      'unknown query parameter "since"; allowed: series, from, to, offset, limit',
    ],
    [
      "/v1/endpoints?method=BREW",
      'method: must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS (got "BREW")',
    ],
    [
      "/v1/endpoints?tag=x",
      'unknown query parameter "tag"; allowed: q, method, transport, category, max_price, include_unpriced, network, verified, drift, payable, callable, health, min_grade, min_score, warning, no_warning, min_observed_volume, min_unique_payers, sort, offset, limit',
    ],
    ["/v1/categories?limit=0", 'limit: must be a whole number from 1 to 200 (got "0")'],
    ["/v1/tags?sort=name", 'unknown query parameter "sort"; allowed: offset, limit'],
    ["/v1/crawls?offset=x", 'offset: must be a whole number from 0 to 1000000000 (got "x")'],
    ["/v1/services.csv?limit=0", 'limit: must be a whole number from 1 to 1000000 (got "0")'],
    ["/v1/services.csv?page=2", `unknown query parameter "page"; allowed: ${SERVICE_PARAMS}`],
    ["/v1/history.csv?service_id=abc", 'service_id: must be a service id (a UUID) (got "abc")'],
    [
      "/v1/history.csv?from=2026-13-01",
      'from: must be an ISO 8601 date or date-time, such as 2026-01-31 or 2026-01-31T12:00:00Z (got "2026-13-01")',
    ],
    ["/openapi.json?v=2", 'unknown query parameter "v"; allowed: none'],
  ];

  it.each(invalid)(
    "when %s is asked, then 400 names the parameter and what is allowed",
    async (path, message) => {
      const response = await request(api.app).get(path);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ statusCode: 400, message, error: "Bad Request" });
    },
  );

  it.each([
    "not-a-uuid",
    "42",
    "00000000-0000-4000-8000-00000000000",
    "00000000-0000-4000-8000-000000000000x",
    "%E2%9C%93",
    "00000000-0000-4000-8000-000000000000",
  ])(
    "when a service or its history is asked by an id that names no service (%s), then 404 with the error body",
    async (id) => {
      for (const path of [`/v1/services/${id}`, `/v1/services/${id}/history`]) {
        const response = await request(api.app).get(path);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({
          statusCode: 404,
          message: `No service with id ${decodeURIComponent(id)}`,
          error: "Not Found",
        });
      }
    },
  );

  it("when a history export names an unknown service, then 404", async () => {
    const response = await request(api.app).get(
      "/v1/history.csv?service_id=00000000-0000-4000-8000-000000000000",
    );
    expect(response.status).toBe(404);
    expect(response.body.message).toBe("No service with id 00000000-0000-4000-8000-000000000000");
    expect(response.headers["content-disposition"]).toBeUndefined();
  });

  it("when a method other than GET, HEAD or OPTIONS is used on a known path, then 405 with Allow", async () => {
    for (const path of ["/v1/services", `/v1/services/${serviceId}`, "/v1/services.csv", "/openapi.json"]) {
      const response = await request(api.app).post(path);
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe("GET, HEAD, OPTIONS");
      expect(response.body).toEqual({
        statusCode: 405,
        message: `POST is not allowed on ${path}; allowed: GET, HEAD, OPTIONS`,
        error: "Method Not Allowed",
      });
    }
  });

  it("when HEAD is used, then the headers of GET come without a body", async () => {
    const get = await request(api.app).get("/v1/services");
    const head = await request(api.app).head("/v1/services");
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.text).toBeUndefined();
    const csv = await request(api.app).head("/v1/services.csv");
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.text).toBeUndefined();
  });

  it("when a browser sends a preflight OPTIONS from another origin, then GET is allowed for any origin", async () => {
    const response = await request(api.app)
      .options("/v1/services")
      .set("Origin", "https://agent.example")
      .set("Access-Control-Request-Method", "GET");
    expect(response.status).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["access-control-allow-methods"]).toBe("GET,HEAD");
    const get = await request(api.app).get("/v1/services").set("Origin", "https://agent.example");
    expect(get.headers["access-control-allow-origin"]).toBe("*");
  });

  it("when the client accepts gzip, then a large answer is compressed", async () => {
    const response = await request(api.app).get("/openapi.json").set("Accept-Encoding", "gzip");
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(response.body.openapi).toBe("3.1.0");
    const plain = await request(api.app).get("/openapi.json").set("Accept-Encoding", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const docs = await request(api.app).get("/docs").set("Accept-Encoding", "gzip");
    expect(docs.headers["content-encoding"]).toBe("gzip");
    expect(docs.text).toContain("/v1/services");
  });

  it("when a list or a detail is answered, then it carries Cache-Control and an ETag that revalidates", async () => {
    for (const path of ["/v1/services", `/v1/services/${serviceId}`, "/v1/endpoints", "/v1/categories"]) {
      const first = await request(api.app).get(path);
      expect(first.headers["cache-control"]).toBe("public, max-age=60");
      expect(first.headers.etag).toMatch(/^W\/".+"$/);
      const again = await request(api.app).get(path).set("If-None-Match", first.headers.etag!);
      expect(again.status).toBe(304);
    }
  });

  it("when the data changes, then the ETag changes", async () => {
    const before = await request(api.app).get(`/v1/services/${serviceId}`);
    await database.db.service.update({ where: { id: serviceId }, data: { txCount30d: 99 } });
    const after = await request(api.app)
      .get(`/v1/services/${serviceId}`)
      .set("If-None-Match", before.headers.etag!);
    expect(after.status).toBe(200);
    expect(after.body.tx_count_30d).toBe(99);
  });
});
