import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { crawlOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureSite } from "../../support/fixture-site";
import { miniDetail, miniListing } from "../../support/mini-directory";

const SLUGS = ["a", "b", "c", "d", "e", "f"];
const RATE = 60_000;
/** A run budget of `requests` requests at RATE a minute (one of them the listing page). */
const budgetOf = (requests: number) => ({ maxRequestsPerMinute: RATE, runMinutes: requests / RATE });

describe("a crawl larger than its run budget", () => {
  let database: TestDatabase;
  let site: FixtureSite;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    await database.db.source.deleteMany();
    site = await new FixtureSite().start();
    site.set("/dir", miniListing(SLUGS));
    for (const slug of SLUGS) site.set(`/s/${slug}`, miniDetail(slug));
    return () => site.stop();
  });

  const detailRequests = () => site.requests.filter((r) => r.path.startsWith("/s/")).map((r) => r.path);
  const withEndpoints = () => database.db.service.count({ where: { endpoints: { some: {} } } });

  it("when only some detail pages fit, then the listing is read whole, the rest are stored from the listing and the run completes", async () => {
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"), budgetOf(4));
    expect(outcome).toMatchObject({
      status: "completed",
      counts: { servicesSeen: 6, servicesNew: 6, listingComplete: true },
    });
    expect(detailRequests()).toHaveLength(3);
    expect(await withEndpoints()).toBe(3);
    expect(await database.db.service.count({ where: { status: "listed" } })).toBe(6);
  });

  it("when runs follow one another, then pages never read go first and then the least recently checked", async () => {
    await crawlOnce(database.db, database.url, site.url("/dir"), budgetOf(4));
    const first = detailRequests();
    site.resetLog();
    await crawlOnce(database.db, database.url, site.url("/dir"), budgetOf(4));
    const second = detailRequests();
    expect(new Set([...first, ...second]).size).toBe(6); // the three left out are read now
    expect(await withEndpoints()).toBe(6);
    site.resetLog();
    await crawlOnce(database.db, database.url, site.url("/dir"), budgetOf(4));
    expect(detailRequests().sort()).toEqual([...first].sort()); // checked longest ago
    expect(site.requests.filter((r) => r.path.startsWith("/s/")).every((r) => r.conditional)).toBe(true);
  });

  it("when no detail page fits, then a service gone from the listing is still delisted", async () => {
    await crawlOnce(database.db, database.url, site.url("/dir"));
    site.set("/dir", miniListing(SLUGS.slice(1)));
    site.resetLog();
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"), budgetOf(1));
    expect(outcome).toMatchObject({ status: "completed", counts: { servicesDelisted: 1, servicesSeen: 5 } });
    expect(detailRequests()).toEqual([]);
    const gone = await database.db.service.findFirstOrThrow({ where: { detailUrl: site.url("/s/a") } });
    expect(gone.status).toBe("delisted");
  });
});
