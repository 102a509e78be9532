import { get } from "node:http";
import { gunzipSync } from "node:zlib";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadPool, type ReadPool } from "../../../src/db/read-pool";
import { createApp } from "../../../src/http/app";
import { ResponseCache } from "../../../src/http/response-cache";
import { listen } from "../../../src/http/server";
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

  it("when a list is asked for with gzip, without Accept-Encoding, or with identity, then each decodes to the same JSON", async () => {
    const server = await listen(app, 0, "127.0.0.1");
    try {
      // node:http sends only the headers given (supertest and fetch add Accept-Encoding themselves).
      const fetchRaw = (headers: Record<string, string>) =>
        new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
          get(`http://127.0.0.1:${server.port}/v1/services?limit=5`, { headers }, (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () =>
              resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }),
            );
          }).on("error", reject);
        });
      const none = await fetchRaw({});
      const identity = await fetchRaw({ "Accept-Encoding": "identity" });
      const gzip = await fetchRaw({ "Accept-Encoding": "gzip, deflate" });
      expect(none.encoding).toBeUndefined();
      expect(identity.encoding).toBeUndefined();
      expect(gzip.encoding).toBe("gzip");
      const listed = JSON.parse(none.body.toString("utf8")) as {
        items: Array<{ name: string }>;
        total: number;
      };
      expect(listed.items.map((item) => item.name)).toEqual(["Quote API"]);
      expect(identity.body.equals(none.body)).toBe(true);
      expect(gunzipSync(gzip.body).equals(none.body)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("when a request is invalid, then its error is never cached", async () => {
    const bad = await request(app).get("/v1/services?limit=0");
    const again = await request(app).get("/v1/services?limit=0");
    expect(bad.status).toBe(400);
    expect(again.status).toBe(400);
    expect(again.headers["x-cache"]).toBeUndefined();
  });
});
