import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { v2Item } from "../../fixtures/bazaar/feed-items";
import { createTestApp, type TestApp } from "../../support/app";
import { crawlFeedOnce, crawlOnce } from "../../support/crawl";
import { parseCsv } from "../../support/csv";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";
import { FixtureSite } from "../../support/fixture-site";

/**
 * One domain (alpha.example) listed by a feed and two directories, plus entries listed once:
 * what the list, the counts, the detail, the ids and the exports say must agree.
 */
function listing(slugs: string[]): string {
  const items = slugs.map((slug) => `<li><a href="/s/${slug}"><h3>${slug}</h3></a></li>`).join("");
  return `<html><body><main><h1>Services</h1><ul>${items}</ul></main></body></html>`;
}

function detail(slug: string, tags: string[], volume: string): string {
  return `<html><body><main><h1>${slug}</h1><p>Forecasts for ${slug}.</p>
  <dl><dt>Domain</dt><dd>${slug.replace(/-v\d+$/, "")}.example</dd><dt>Category</dt><dd>Data</dd>
  <dt>Transaction volume</dt><dd>${volume}</dd><dt>Tags</dt><dd>${tags.join(", ")}</dd></dl>
  <h2>Endpoints</h2><ul><li><code>GET</code> https://${slug.replace(/-v\d+$/, "")}.example/v1/forecast — a forecast</li></ul>
  </main></body></html>`;
}

interface Item {
  id: string;
  name: string;
  tags: string[];
}

describe("one catalogue entry listed by several sources", () => {
  let database: TestDatabase;
  let api: TestApp;
  let feed: FixtureFeed;
  const first = new FixtureSite();
  const second = new FixtureSite();
  let feedRowId: string;

  const list = async (path: string): Promise<{ items: Item[]; total: number }> => {
    const response = await request(api.app).get(path);
    expect(response.status).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    feed = await new FixtureFeed().start();
    await Promise.all([first.start(), second.start()]);
    feed.items = [
      v2Item("https://alpha.example/v1/forecast", { serviceName: "alpha", tags: ["weather", "forecast"] }),
      v2Item("https://gamma.example/v1/tides", { serviceName: "gamma", tags: ["weather"] }),
    ];
    // The feed is crawled first: its row is alpha's entry until a directory lists alpha too.
    await crawlFeedOnce(database.db, database.url, feed.url);
    feedRowId = (await database.db.service.findFirstOrThrow({ where: { domain: "alpha.example" } })).id;

    first.set("/dir", listing(["alpha", "beta"]));
    first.set("/s/alpha", detail("alpha", ["weather"], "$1,000"));
    first.set("/s/beta", detail("beta", ["weather"], "$500"));
    second.set("/dir", listing(["alpha"]));
    second.set("/s/alpha", detail("alpha", ["weather", "maps"], "$900"));
    await crawlOnce(database.db, database.url, first.url("/dir"));
    await crawlOnce(database.db, database.url, second.url("/dir"));
  });
  afterAll(async () => {
    await api.close();
    await Promise.all([feed.stop(), first.stop(), second.stop()]);
    await database.drop();
  });

  it("when categories and tags are counted, then each count equals the total of the list filtered by it", async () => {
    const categories = await list("/v1/categories");
    expect(categories.items).toEqual([{ category: "Data", service_count: 2 }]);
    const tags = (await list("/v1/tags")).items as unknown as { tag: string; service_count: number }[];
    expect(tags).toEqual([
      { tag: "weather", service_count: 3 },
      { tag: "forecast", service_count: 1 },
      { tag: "maps", service_count: 1 },
    ]);
    for (const { tag, service_count } of tags)
      expect((await list(`/v1/services?tag=${tag}`)).total).toBe(service_count);
    expect((await list("/v1/services?category=Data")).total).toBe(2);
  });

  it("when a tag filter matches an entry, then the entry shows that tag", async () => {
    for (const tag of ["forecast", "maps", "weather"]) {
      const { items } = await list(`/v1/services?tag=${tag}`);
      for (const item of items) expect(item.tags).toContain(tag);
    }
    const alpha = (await list("/v1/services?domain=alpha.example")).items[0];
    expect(alpha?.tags).toEqual(["forecast", "maps", "weather"]);
  });

  it("when a directory becomes the entry's primary, then the entry keeps the id it was listed under", async () => {
    const alpha = (await list("/v1/services?domain=alpha.example")).items[0];
    expect(alpha?.name).toBe("alpha");
    expect(alpha?.id).toBe(feedRowId);
    const detail = await request(api.app).get(`/v1/services/${feedRowId}`);
    expect(detail.body.id).toBe(feedRowId);
    expect(detail.body.sources.map((s: { kind: string }) => s.kind).sort()).toEqual([
      "bazaar",
      "html_directory",
      "html_directory",
    ]);
  });

  it("when a source relists the service under a new page, then the id stays and every old id still answers", async () => {
    const rowIds = (await database.db.service.findMany({ where: { domain: "alpha.example" } })).map(
      (r) => r.id,
    );
    first.set("/dir", listing(["alpha-v2", "beta"]));
    first.delete("/s/alpha");
    first.set("/s/alpha-v2", detail("alpha-v2", ["weather"], "$1,100"));
    await crawlOnce(database.db, database.url, first.url("/dir"));

    const alpha = await list("/v1/services?domain=alpha.example");
    expect(alpha.items.map((item) => item.id)).toEqual([feedRowId]);
    for (const id of rowIds) {
      const response = await request(api.app).get(`/v1/services/${id}`);
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(feedRowId);
    }
  });

  it("when history.csv is exported, then its rows join services.csv on the id the list shows", async () => {
    const services = parseCsv((await request(api.app).get("/v1/services.csv")).text);
    const history = parseCsv((await request(api.app).get("/v1/history.csv")).text);
    const listed = new Set(services.slice(1).map((row) => row[0]));
    expect(listed.has(feedRowId)).toBe(true);
    const historyIds = new Set(history.slice(1).map((row) => row[0]));
    for (const id of historyIds) expect(listed.has(id)).toBe(true);
    // The entry's history gathers its rows: the feed's (calls, no volume) and every directory page's.
    const alphaHistory = history.slice(1).filter((row) => row[0] === feedRowId);
    expect(alphaHistory.map((row) => row[5]).sort()).toEqual([
      "",
      "1000.000000",
      "1100.000000",
      "900.000000",
    ]);
    const json = await request(api.app).get(`/v1/services/${feedRowId}/history`);
    expect(json.body.total).toBe(alphaHistory.length);
    const one = parseCsv((await request(api.app).get(`/v1/history.csv?service_id=${feedRowId}`)).text);
    expect(one.length - 1).toBe(alphaHistory.length);
  });

  it("when several sources list the same endpoint, then each of its probes counts once in the entry", async () => {
    // Each source's row of https://alpha.example/v1/forecast was probed once, at the same time.
    const rows = await database.db.endpoint.findMany({ where: { url: "https://alpha.example/v1/forecast" } });
    expect(rows.length).toBeGreaterThan(1);
    const at = new Date();
    await database.db.endpointProbe.createMany({
      data: rows.map((row) => ({
        endpointId: row.id,
        probedAt: at,
        outcome: "challenge",
        statusCode: 402,
        latencyMs: 12.5,
        challengeValid: true,
      })),
    });
    const detail = await request(api.app).get(`/v1/services/${feedRowId}`);
    expect(detail.body.endpoints).toHaveLength(1);
    expect(detail.body.endpoints[0].probe.windows["24h"].probes).toBe(1);
    expect(detail.body.probe.windows["24h"].probes).toBe(1);
  });
});
