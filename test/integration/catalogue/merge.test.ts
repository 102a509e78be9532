import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mergeServicesByDomain } from "../../../src/catalogue/merge";
import type { SourceKind } from "../../../src/generated/prisma/enums";
import { v2Item } from "../../fixtures/bazaar/feed-items";
import { createTestApp } from "../../support/app";
import { crawlFeedOnce, crawlOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";
import { FixtureSite } from "../../support/fixture-site";
import { miniDetail, miniListing } from "../../support/mini-directory";

describe("merging services of the same domain", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    await database.db.source.deleteMany();
  });

  async function source(kind: SourceKind, baseUrl: string) {
    return database.db.source.create({ data: { kind, baseUrl } });
  }
  async function service(
    sourceId: string,
    domain: string | null,
    options: { firstSeen?: string; status?: "listed" | "delisted" } = {},
  ) {
    const at = new Date(options.firstSeen ?? "2026-01-01T00:00:00Z");
    const row = await database.db.service.create({
      data: {
        sourceId,
        detailUrl: `https://${domain ?? "nowhere"}/${Math.random()}`,
        name: domain ?? "no domain",
        domain,
        status: options.status ?? "listed",
        firstSeenAt: at,
        lastSeenAt: at,
      },
    });
    return row.id;
  }
  const canonicalOf = async (id: string) =>
    (await database.db.service.findUniqueOrThrow({ where: { id } })).canonicalId;

  it("when a directory and a feed list the same domain, then the directory row is the entry's primary", async () => {
    const directory = await source("html_directory", "https://dir.example/");
    const feed = await source("bazaar", "https://feed.example/discovery/resources");
    // The feed saw it first and spells the domain in capitals: neither matters.
    const fromFeed = await service(feed.id, "API.Alpha.example", { firstSeen: "2025-01-01T00:00:00Z" });
    const fromDirectory = await service(directory.id, "api.alpha.example");
    await mergeServicesByDomain(database.db);
    expect(await canonicalOf(fromDirectory)).toBe(fromDirectory);
    expect(await canonicalOf(fromFeed)).toBe(fromDirectory);
  });

  it("when the directory row is delisted, then a listed feed row is the primary", async () => {
    const directory = await source("html_directory", "https://dir.example/");
    const feed = await source("bazaar", "https://feed.example/discovery/resources");
    const fromDirectory = await service(directory.id, "beta.example", { status: "delisted" });
    const fromFeed = await service(feed.id, "beta.example", { firstSeen: "2026-06-01T00:00:00Z" });
    await mergeServicesByDomain(database.db);
    expect(await canonicalOf(fromDirectory)).toBe(fromFeed);
    expect(await canonicalOf(fromFeed)).toBe(fromFeed);
  });

  it("when no row is listed, then the row seen first is the primary", async () => {
    const one = await source("bazaar", "https://one.example/discovery/resources");
    const two = await source("bazaar", "https://two.example/discovery/resources");
    const later = await service(one.id, "gamma.example", {
      status: "delisted",
      firstSeen: "2026-02-01T00:00:00Z",
    });
    const earlier = await service(two.id, "gamma.example", {
      status: "delisted",
      firstSeen: "2026-01-01T00:00:00Z",
    });
    await mergeServicesByDomain(database.db);
    expect(await canonicalOf(later)).toBe(earlier);
    expect(await canonicalOf(earlier)).toBe(earlier);
  });

  it("when rows have no domain, then each is an entry of its own", async () => {
    const directory = await source("html_directory", "https://dir.example/");
    const a = await service(directory.id, null);
    const b = await service(directory.id, null);
    await mergeServicesByDomain(database.db);
    expect(await canonicalOf(a)).toBe(a);
    expect(await canonicalOf(b)).toBe(b);
  });

  it("when run again with nothing changed, then no row is written", async () => {
    const directory = await source("html_directory", "https://dir.example/");
    await service(directory.id, "delta.example");
    await service(directory.id, null);
    expect(await mergeServicesByDomain(database.db)).toBe(2);
    expect(await mergeServicesByDomain(database.db)).toBe(0);
  });

  it("when a feed and a directory are crawled, then their services of one domain share the directory's entry", async () => {
    const feed = await new FixtureFeed().start();
    const site = await new FixtureSite().start();
    try {
      feed.items = [v2Item("https://alpha.example/v1/quote", { serviceName: "Alpha on the Bazaar" })];
      site.set("/dir", miniListing(["alpha"]));
      site.set("/s/alpha", miniDetail("alpha"));

      await crawlFeedOnce(database.db, database.url, feed.url);
      const fromFeed = await database.db.service.findFirstOrThrow({
        where: { detailUrl: "https://alpha.example" },
      });
      expect(fromFeed.canonicalId).toBe(fromFeed.id); // alone so far

      await crawlOnce(database.db, database.url, site.url("/dir"));
      const fromDirectory = await database.db.service.findFirstOrThrow({
        where: { detailUrl: site.url("/s/alpha") },
      });
      expect(fromDirectory.domain).toBe("alpha.example");
      expect(await canonicalOf(fromDirectory.id)).toBe(fromDirectory.id);
      expect(await canonicalOf(fromFeed.id)).toBe(fromDirectory.id);
    } finally {
      await Promise.all([feed.stop(), site.stop()]);
    }
  });

  it("when an entry's feed row says what the directory row does not, then a search finds the entry by those words", async () => {
    const feed = await new FixtureFeed().start();
    const site = await new FixtureSite().start();
    const api = createTestApp(database);
    try {
      feed.items = [
        v2Item("https://alpha.example/v1/tides", {
          description: "Tide tables for harbours",
          serviceName: "Alpha",
        }),
      ];
      site.set("/dir", miniListing(["alpha"]));
      site.set("/s/alpha", miniDetail("alpha"));
      await crawlOnce(database.db, database.url, site.url("/dir"));
      await crawlFeedOnce(database.db, database.url, feed.url);

      const primary = await database.db.service.findFirstOrThrow({
        where: { detailUrl: site.url("/s/alpha") },
      });
      const found = await request(api.app).get("/v1/services?q=tide%20tables");
      expect(found.status).toBe(200);
      expect(found.body.items.map((item: { id: string }) => item.id)).toEqual([primary.id]);
    } finally {
      await api.close();
      await Promise.all([feed.stop(), site.stop()]);
    }
  });
});
