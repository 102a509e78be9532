import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawlOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureSite } from "../../support/fixture-site";

function listing(entries: string[], pager: string): string {
  return `<html><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <main><h1>Services</h1><ul>${entries
    .map(
      (slug) =>
        `<li><a href="/services/${slug}"><h3>${slug} API</h3></a><p>${slug}.example</p><p>Does ${slug} things.</p></li>`,
    )
    .join("")}</ul>${pager}</main>
  <footer><a href="https://twitter.com/dir">Twitter</a></footer></body></html>`;
}

function detail(slug: string, volume: string): string {
  return `<html><body><main><h1>${slug} API</h1><p>Does ${slug} things.</p>
  <dl><dt>Category</dt><dd>Data</dd><dt>Uptime (30 days)</dt><dd>99.5%</dd><dt>Average response time</dt><dd>412 ms</dd>
  <dt>Transaction volume</dt><dd>${volume}</dd><dt>Transaction count</dt><dd>1,234</dd><dt>Payer address count</dt><dd>—</dd>
  <dt>Information updated</dt><dd>2026-11-20</dd></dl>
  <h2>Endpoints</h2><table><tr><th>Method</th><th>URL</th><th>Description</th></tr>
  <tr><td>get</td><td>https://${slug}.example/v1/quote</td><td>A quote</td></tr></table>
  <p>Tags: <a href="/tags/data">#Data</a> <a href="/tags/${slug}">#${slug}</a></p></main></body></html>`;
}

const PAGER = `<nav class="pager"><a href="/services?page=1">1</a> <a href="/services?page=2">2</a></nav>`;

describe("crawling a small directory", () => {
  let database: TestDatabase;
  const site = new FixtureSite();
  beforeAll(async () => {
    database = await createTestDatabase();
    await site.start();
    site.set("/services", listing(["alpha", "beta"], PAGER));
    site.set("/services?page=2", listing(["gamma", "alpha"], PAGER));
    site.set("/services?page=1", listing(["alpha", "beta"], PAGER));
    for (const slug of ["alpha", "beta", "gamma"]) site.set(`/services/${slug}`, detail(slug, "$12.3K"));
  });
  afterAll(async () => {
    await site.stop();
    await database.drop();
  });

  it("when crawled the first time, then every service is stored with its fields", async () => {
    const outcome = await crawlOnce(database.db, database.url, site.url("/services"));
    expect(outcome).toMatchObject({
      status: "completed",
      counts: { servicesNew: 3, servicesSeen: 3, listingComplete: true },
    });
    const services = await database.db.service.findMany({
      include: { endpoints: true, tags: true },
      orderBy: { name: "asc" },
    });
    expect(services.map((s) => s.name)).toEqual(["alpha API", "beta API", "gamma API"]);
    const alpha = services[0]!;
    expect(alpha).toMatchObject({
      domain: "alpha.example",
      category: "Data",
      uptime30d: 99.5,
      avgResponseMs30d: 412,
      txCount30d: 1234,
      payerCount30d: null,
      status: "listed",
    });
    expect(alpha.volumeUsdc30d?.toFixed()).toBe("12300");
    expect(alpha.endpoints.map((e) => [e.method, e.url])).toEqual([
      ["GET", "https://alpha.example/v1/quote"],
    ]);
    expect(alpha.tags.map((t) => t.tag).sort()).toEqual(["alpha", "data"]);
  });

  it("when crawled again unchanged, then nothing is rewritten and pages are revalidated", async () => {
    site.resetLog();
    const outcome = await crawlOnce(database.db, database.url, site.url("/services"));
    expect(outcome).toMatchObject({
      status: "completed",
      counts: { servicesNew: 0, servicesUpdated: 0, servicesUnchanged: 3 },
    });
    expect(site.requests.filter((r) => r.status === 304).length).toBe(6);
    expect(await database.db.statsSnapshot.count()).toBe(3);
  });

  it("when a value changes, then history grows by one row for that service", async () => {
    site.set("/services/beta", detail("beta", "$15K"));
    const outcome = await crawlOnce(database.db, database.url, site.url("/services"));
    expect(outcome).toMatchObject({ counts: { servicesUpdated: 1, servicesUnchanged: 2 } });
    const beta = await database.db.service.findFirstOrThrow({
      where: { name: "beta API" },
      include: { snapshots: { orderBy: { observedFrom: "asc" } } },
    });
    expect(beta.snapshots.map((s) => s.volumeUsdc30d?.toFixed())).toEqual(["12300", "15000"]);
  });

  it("when a service is renamed, then the same service (same id) carries the new name", async () => {
    const before = await database.db.service.findFirstOrThrow({ where: { name: "alpha API" } });
    site.set("/services/alpha", detail("alpha", "$12.3K").replace(/alpha API/g, "Alpha Quotes Pro"));
    await crawlOnce(database.db, database.url, site.url("/services"));
    const after = await database.db.service.findUniqueOrThrow({ where: { id: before.id } });
    expect(after.name).toBe("Alpha Quotes Pro");
    expect(await database.db.service.count({ where: { name: "alpha API" } })).toBe(0);
    site.set("/services/alpha", detail("alpha", "$12.3K"));
  });

  it("when a service leaves the listing, then it is delisted, and relisted when it returns", async () => {
    site.set("/services?page=2", listing(["alpha"], PAGER));
    const gone = await crawlOnce(database.db, database.url, site.url("/services"));
    expect(gone).toMatchObject({ counts: { servicesDelisted: 1 } });
    expect((await database.db.service.findFirstOrThrow({ where: { name: "gamma API" } })).status).toBe(
      "delisted",
    );

    site.set("/services?page=2", listing(["gamma", "alpha"], PAGER));
    await crawlOnce(database.db, database.url, site.url("/services"));
    expect((await database.db.service.findFirstOrThrow({ where: { name: "gamma API" } })).status).toBe(
      "listed",
    );
  });

  it("when a crawl ends, then it leaves no connection open to the directory, revalidations included", async () => {
    // A site of its own: Crawlee fetches robots.txt through Node's global agent, whose idle
    // connection stays open a few seconds; here robots.txt is not asked.
    const own = await new FixtureSite().start();
    try {
      for (const [path, page] of site.pages) own.set(path, page);
      const settings = { respectRobotsTxt: false };
      await crawlOnce(database.db, database.url, own.url("/services"), settings);
      expect(await settled(() => own.openConnections())).toBe(0);
      own.resetLog();
      await crawlOnce(database.db, database.url, own.url("/services"), settings);
      expect(own.requests.filter((r) => r.status === 304).length).toBeGreaterThan(0);
      expect(await settled(() => own.openConnections())).toBe(0);
    } finally {
      await own.stop();
    }
  });
});

/** The value once it is 0, or the last one read within a second (a closed socket takes a tick to be seen). */
async function settled(read: () => Promise<number>): Promise<number> {
  let value = await read();
  for (let i = 0; i < 20 && value !== 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}
