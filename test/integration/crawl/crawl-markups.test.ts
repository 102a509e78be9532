import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedEndpoint, MARKUPS, SERVICES } from "../../fixtures/directories";
import { crawlOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { serveFixtureDirectory } from "../../support/fixture-directory-site";

const PAGE_SIZE = 7; // 25 services → 4 listing pages, the last one short

describe.each(MARKUPS)("crawling the $id fixture directory", (markup) => {
  let database: TestDatabase;
  let site: Awaited<ReturnType<typeof serveFixtureDirectory>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    site = await serveFixtureDirectory(markup, SERVICES, PAGE_SIZE);
  });
  afterAll(async () => {
    await site.stop();
    await database.drop();
  });

  it("when crawled, then every service is found once, complete, and nothing else is", async () => {
    // Through a worker thread, as production reads pages.
    const outcome = await crawlOnce(database.db, database.url, `${site.origin}${markup.listingPath(1)}`, {
      extractionThreads: 1,
    });
    expect(outcome).toMatchObject({
      status: "completed",
      counts: { servicesNew: SERVICES.length, pagesFailed: 0 },
    });
    const stored = await database.db.service.findMany({ select: { detailUrl: true } });
    expect(stored.map((s) => s.detailUrl).sort()).toEqual(
      SERVICES.map((s) => `${site.origin}${markup.detailPath(s)}`).sort(),
    );
  });

  it.each(SERVICES.map((s) => [s.slug, s] as const))(
    "when %s is read, then every field is right",
    async (_slug, fixture) => {
      const service = await database.db.service.findFirstOrThrow({
        where: { detailUrl: `${site.origin}${markup.detailPath(fixture)}` },
        include: { endpoints: { orderBy: { position: "asc" } }, tags: true },
      });
      const { stats } = fixture;
      expect({
        name: service.name,
        domain: service.domain,
        description: service.description,
        category: service.category,
        uptime: service.uptime30d,
        responseMs: service.avgResponseMs30d,
        updated: service.infoUpdatedAt?.toISOString().slice(0, 10) ?? null,
        volume: service.volumeUsdc30d === null ? null : service.volumeUsdc30d.toFixed(),
        txCount: service.txCount30d,
        payerCount: service.payerCount30d,
      }).toEqual({
        name: fixture.name,
        domain: fixture.domain,
        description: fixture.description,
        category: fixture.category,
        uptime: stats.uptime30d.expected,
        responseMs: stats.avgResponse30d.expected,
        updated: stats.infoUpdated.expected,
        volume: stats.volume30d.expected,
        txCount: stats.txCount30d.expected,
        payerCount: stats.payerCount30d.expected,
      });
      expect(service.endpoints.map((e) => ({ method: e.method, url: e.url }))).toEqual(
        fixture.endpoints.map((e) => expectedEndpoint(fixture, e)),
      );
      expect(service.endpoints.map((e) => e.description)).toEqual(
        fixture.endpoints.map((e) => e.description),
      );
      expect(service.tags.map((t) => t.tag).sort()).toEqual([...fixture.expectedTags].sort());
    },
  );
});
