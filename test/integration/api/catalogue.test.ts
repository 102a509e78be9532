import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("GET /v1/categories, /v1/tags and /v1/crawls", () => {
  let database: TestDatabase;
  let api: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    await seedServices(database.db, [
      { name: "A", category: "Finance", tags: ["payments", "crypto"] },
      { name: "B", category: "Finance", tags: ["payments"] },
      { name: "C", category: "AI", tags: ["llm"] },
      { name: "D", category: "Finance", tags: ["payments", "old"], status: "delisted" },
      { name: "E", category: null, tags: [] },
    ]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  it("when categories are asked, then each comes with its count of listed services, most used first", async () => {
    const response = await request(api.app).get("/v1/categories");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      items: [
        { category: "Finance", service_count: 2 },
        { category: "AI", service_count: 1 },
      ],
      has_more: false,
      total: 2,
    });
  });

  it("when tags are asked, then each comes with its count of listed services, ties alphabetical", async () => {
    const response = await request(api.app).get("/v1/tags");
    expect(response.body).toEqual({
      items: [
        { tag: "payments", service_count: 2 },
        { tag: "crypto", service_count: 1 },
        { tag: "llm", service_count: 1 },
      ],
      has_more: false,
      total: 3,
    });
  });

  it("when tags are paged, then has_more and the total tell what is left", async () => {
    const response = await request(api.app).get("/v1/tags?limit=2");
    expect(response.body.items.map((item: { tag: string }) => item.tag)).toEqual(["payments", "crypto"]);
    expect(response.body).toMatchObject({ has_more: true, total: 3 });
  });

  it("when crawls have run, then the newest comes first with its counts and first errors", async () => {
    const source = await database.db.source.create({
      data: { kind: "html_directory", baseUrl: "http://dir.test/" },
    });
    await database.db.crawlRun.create({
      data: { sourceId: source.id, status: "failed", startedAt: new Date("2026-01-01T00:00:00Z") },
    });
    const latest = await database.db.crawlRun.create({
      data: {
        sourceId: source.id,
        status: "completed",
        trigger: "schedule",
        startedAt: new Date("2026-01-02T00:00:00Z"),
        finishedAt: new Date("2026-01-02T00:01:00Z"),
        durationMs: 60_000,
        listingComplete: true,
        pagesFetched: 12,
        pagesFailed: 25,
        servicesSeen: 10,
        servicesNew: 3,
        valueProblems: 1,
        message: null,
      },
    });
    await database.db.crawlError.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        crawlRunId: latest.id,
        kind: "fetch",
        url: `http://dir.test/services/${i}`,
        statusCode: 503,
        message: "Service Unavailable",
      })),
    });

    const response = await request(api.app).get("/v1/crawls");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ has_more: false, total: 2 });
    const [newest, older] = response.body.items;
    expect(newest).toMatchObject({
      id: latest.id,
      source_kind: "html_directory",
      source_url: "http://dir.test/",
      status: "completed",
      trigger: "schedule",
      started_at: "2026-01-02T00:00:00.000Z",
      finished_at: "2026-01-02T00:01:00.000Z",
      duration_ms: 60_000,
      listing_complete: true,
      pages_fetched: 12,
      pages_failed: 25,
      services_seen: 10,
      services_new: 3,
      value_problems: 1,
      error_count: 25,
    });
    expect(newest.errors).toHaveLength(20);
    expect(newest.errors[0]).toEqual({
      kind: "fetch",
      url: "http://dir.test/services/0",
      status_code: 503,
      field: null,
      raw_text: null,
      message: "Service Unavailable",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(older).toMatchObject({ status: "failed", error_count: 0, errors: [], finished_at: null });
    expect(response.headers["cache-control"]).toBe("no-cache");
  });
});
