import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../../src/db/prisma-client";
import { createTestApp, type TestApp } from "../../support/app";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("GET /healthz", () => {
  let database: TestDatabase;
  let api: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  it("when the database answers, then 200 with status ok and no crawl yet", async () => {
    const response = await request(api.app).get("/healthz");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok", database: "up", last_crawl: null });
  });

  it("when a crawl has run, then it reports the latest one", async () => {
    const source = await database.db.source.create({
      data: { kind: "html_directory", baseUrl: "http://dir.test/" },
    });
    await database.db.crawlRun.create({ data: { sourceId: source.id, status: "completed" } });
    const response = await request(api.app).get("/healthz");
    expect(response.status).toBe(200);
    expect(response.body.last_crawl).toMatchObject({ source_url: "http://dir.test/", status: "completed" });
  });

  it("when the database does not answer, then 503 with database down", async () => {
    const url = "postgresql://postgres:x@127.0.0.1:1/none";
    const unreachable = createPrismaClient(url);
    const down = createTestApp({ db: unreachable, url });
    try {
      const response = await request(down.app).get("/healthz");
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ status: "unavailable", database: "down" });
    } finally {
      await down.close();
      await unreachable.$disconnect();
    }
  });

  it("when an unknown path is asked, then 404 with the error body", async () => {
    const response = await request(api.app).get("/nope");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, message: "No route for GET /nope", error: "Not Found" });
  });
});
