import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadPool, type ReadPool } from "../../../src/db/read-pool";
import { createApp } from "../../../src/http/app";
import { ResponseCache } from "../../../src/http/response-cache";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

describe("the API's response cache", () => {
  let database: TestDatabase;
  let pool: ReadPool;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 2, testLogger);
    await seedServices(database.db, [{ name: "Quote API" }]);
    app = createApp({
      db: database.db,
      pool,
      logger: testLogger,
      responseCache: new ResponseCache(60_000, 100),
    });
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it("when the same request comes twice, then the second answer comes from the cache, identical", async () => {
    const first = await request(app).get("/v1/services?q=quote");
    const second = await request(app).get("/v1/services?q=quote");
    expect(first.status).toBe(200);
    expect(first.headers["x-cache"]).toBe("miss");
    expect(second.headers["x-cache"]).toBe("hit");
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body).toEqual(first.body);
    expect(second.body.items[0].name).toBe("Quote API");
  });

  it("when the client holds the current ETag, then a cached answer is 304 without a body", async () => {
    const first = await request(app).get("/v1/services");
    const again = await request(app).get("/v1/services").set("If-None-Match", String(first.headers.etag));
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });

  it("when the client accepts gzip, then the stored compressed answer is sent; otherwise plain JSON", async () => {
    const gzip = await request(app).get("/v1/categories").set("Accept-Encoding", "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    const plain = await request(app).get("/v1/categories").set("Accept-Encoding", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toEqual(gzip.body);
  });

  it("when a request is invalid, then its error is never cached", async () => {
    const bad = await request(app).get("/v1/services?limit=0");
    const again = await request(app).get("/v1/services?limit=0");
    expect(bad.status).toBe(400);
    expect(again.status).toBe(400);
    expect(again.headers["x-cache"]).toBeUndefined();
  });
});
