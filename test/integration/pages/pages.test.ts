import { load } from "cheerio";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResponseCache } from "../../../src/http/response-cache";
import { createTestApp, type TestApp } from "../../support/app";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { HOSTILE, seedPagesCatalogue } from "../../support/pages";

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("the pages for people", () => {
  let database: TestDatabase;
  let api: TestApp;
  let ids: Awaited<ReturnType<typeof seedPagesCatalogue>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    ids = await seedPagesCatalogue(database.db);
  });

  afterAll(async () => {
    await api?.close();
    await database?.drop();
  });

  const page = (path: string) => request(api.app).get(path).set("Accept", BROWSER);

  it("when a browser asks for /, then it gets the overview; an API client still gets the JSON root", async () => {
    const html = await page("/")
      .expect(200)
      .expect("Content-Type", /text\/html/);
    const $ = load(html.text);
    expect($("search form input[name=q]").length).toBe(1);
    expect($("dl.figures").text()).toContain("Services3");
    expect($("dl.figures").text()).toContain("Observed volume, 30 days (1 service read on chain)40.5 USDC");
    expect($("#h-categories").parent().text()).toContain("Finance");
    const json = await request(api.app).get("/").expect(200).expect("Content-Type", /json/);
    expect(json.body.name).toBe("x402 catalogue");
  });

  it("when / answers HTML or JSON, fresh or from the answer cache, then every answer varies with Accept", async () => {
    const cached = createTestApp(database, { responseCache: new ResponseCache(60_000, 100) });
    try {
      const vary = (res: request.Response) => String(res.headers.vary).split(/\s*,\s*/);
      for (const accept of ["application/json", BROWSER, "application/json"]) {
        const res = await request(cached.app).get("/").set("Accept", accept).expect(200);
        expect(vary(res), accept).toEqual(["Accept", "Accept-Encoding"]);
      }
      const hit = await request(cached.app).get("/").expect(200).expect("X-Cache", "hit");
      expect(vary(hit)).toEqual(["Accept", "Accept-Encoding"]);
      const list = await request(cached.app).get("/v1/services").expect(200);
      expect(vary(list)).toEqual(["Accept-Encoding"]);
    } finally {
      await cached.close();
    }
  });

  it("when a page is served, then it carries a strict CSP, an ETag, Cache-Control, and a 304 on revalidation", async () => {
    const first = await page("/services").expect(200);
    const csp = first.headers["content-security-policy"];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(first.headers["cache-control"]).toBe("public, max-age=60");
    expect(first.headers.etag).toMatch(/^W\//);
    await page("/services")
      .set("If-None-Match", first.headers.etag as string)
      .expect(304);
  });

  it("when /services is filtered through its form, then it lists what the API lists, with JSON and CSV links", async () => {
    const res = await page("/services?q=&category=Finance&network=&sort=name&limit=").expect(200);
    const $ = load(res.text);
    const names = $("tbody tr th a")
      .map((_, a) => $(a).text())
      .get();
    const api1 = await request(api.app).get("/v1/services?category=Finance&sort=name").expect(200);
    expect(names).toEqual(api1.body.items.map((s: { name: string }) => s.name));
    expect(names).toEqual(["Stock Quotes API"]);
    expect($("tbody tr").first().text()).toContain("from 0.01 USDC");
    expect($("footer a:contains(JSON)").attr("href")).toBe("/v1/services?category=Finance&sort=name");
    expect($("footer a:contains(CSV)").attr("href")).toBe("/v1/services.csv?category=Finance&sort=name");
    expect($("select[name=category] option[selected]").attr("value")).toBe("Finance");
  });

  it("when a filter is invalid, then the page answers 400 in HTML naming the parameter", async () => {
    const res = await page("/services?limit=5000")
      .expect(400)
      .expect("Content-Type", /text\/html/);
    expect(load(res.text)("[role=alert]").text()).toContain("limit");
  });

  it("when a service is shown, then its endpoints, prices, payability, call snippets, sources and charts appear", async () => {
    const res = await page(`/services/${ids.quotesId}`).expect(200);
    const $ = load(res.text);
    expect($("h1").text()).toBe("Stock Quotes API");
    expect($(".endpoint").length).toBe(2);
    expect($(".endpoint").first().text()).toContain("0.01 – 0.05 USDC");
    expect($(".endpoint").first().text()).toContain("curl -i -X GET 'https://quotes.test/v1/quote'");
    expect($(".endpoint").first().text()).toContain("wrapFetchWithPayment");
    const history = await request(api.app).get(`/v1/services/${ids.quotesId}/history?limit=200`).expect(200);
    expect($("#chart-uptime circle.point").length).toBe(history.body.items.length);
    expect($("#chart-response svg").attr("data-points")).toBe(String(history.body.items.length));
    expect($("#chart-uptime details tbody tr").length).toBe(history.body.items.length);
    expect($("footer a:contains(JSON)").attr("href")).toBe(`/v1/services/${ids.quotesId}`);
    const daily = (await request(api.app).get(`/v1/services/${ids.quotesId}/history/daily`).expect(200)).body
      .items as Array<Record<string, unknown> & { probes: Record<string, unknown> }>;
    const known = (values: unknown[]) => values.filter((v) => v !== null).length;
    for (const chart of ["probe-uptime", "probe-latency", "volume", "price"]) {
      expect($(`#chart-${chart} svg`).attr("data-points"), chart).toBe(String(daily.length));
      expect($(`#chart-${chart} details tbody tr`).length, chart).toBe(daily.length);
    }
    const points = (chart: string, series: number) =>
      $(`#chart-${chart} .series-${series} circle.point`).length;
    expect(points("probe-uptime", 0)).toBe(known(daily.map((d) => d.probes.uptime_pct)));
    expect(points("probe-latency", 1)).toBe(known(daily.map((d) => d.probes.p99_ms)));
    expect(points("volume", 1)).toBe(known(daily.map((d) => d.observed_volume_usdc_30d)));
    expect(points("price", 0)).toBe(known(daily.map((d) => d.price_min_usdc)));
    expect(points("probe-uptime", 0)).toBeGreaterThanOrEqual(4);
    expect($("#chart-volume details tbody tr").last().text()).toContain("40.5 USDC");
    expect($("#h-figures").parent().text()).toContain("40.5 USDC (40.5 USDC)");
  });

  it("when crawled text is hostile, then it renders as text: no markup, no script links, bidi isolated", async () => {
    const detail = await page(`/services/${ids.hostileId}`).expect(200);
    const $ = load(detail.text);
    expect($("script").length).toBe(1);
    expect($("script").attr("src")).toBe("/assets/pages.js");
    expect(
      $("img")
        .map((_, img) => $(img).attr("src"))
        .get(),
    ).toEqual([`/badge/${ids.hostileId}.svg`]);
    expect($("h1 bdi").text()).toBe(HOSTILE.name);
    expect($("a[href^=javascript]").length).toBe(0);
    expect($(".endpoint h3").text()).toContain(HOSTILE.url);
    expect($("[onmouseover], [onerror], [onload]").length).toBe(0);
    expect($(".lead bdi").text()).toBe(HOSTILE.description);
    const list = await page("/services?sort=name").expect(200);
    const $list = load(list.text);
    expect($list("script").length).toBe(1);
    const shown = $list(`a[href="/services/${ids.hostileId}"]`).text();
    expect(shown.length).toBeLessThanOrEqual(80);
    const endpoints = await page("/endpoints?q=quote").expect(200);
    expect(load(endpoints.text)("a[href^=javascript]").length).toBe(0);
  });

  it("when a service id is unknown, then the page is a 404 in HTML", async () => {
    await page("/services/00000000-0000-4000-8000-000000000000")
      .expect(404)
      .expect("Content-Type", /text\/html/);
    await page("/services/not-an-id").expect(404);
  });

  it("when /endpoints is searched, then it lists the API's endpoint hits", async () => {
    const res = await page("/endpoints?q=forecast&max_price=").expect(200);
    const $ = load(res.text);
    expect($("tbody tr").length).toBe(1);
    expect($("tbody tr").text()).toContain("Weather Now");
    expect($("footer a:contains(JSON)").attr("href")).toBe("/v1/endpoints?q=forecast");
  });

  it("when /stats is read, then categories, networks, live share and prices are charted with tables", async () => {
    const res = await page("/stats").expect(200);
    const $ = load(res.text);
    expect($("#chart-categories details tbody tr").length).toBe(3);
    expect($("#chart-networks details").text()).toContain("base");
    expect($("#chart-prices details").text()).toContain("up to 0.01 USDC");
    expect($("svg title").length).toBeGreaterThanOrEqual(4);
    for (const chart of ["categories", "networks", "totals", "verified", "prices"]) {
      expect($(`#chart-${chart}-daily svg`).attr("data-points"), chart).toBe("30");
      expect($(`#chart-${chart}-daily details tbody tr`).length, chart).toBe(30);
    }
    // Today's row: three services listed since January, one per category; the quotes one on base.
    const today = (chart: string) =>
      $(`#chart-${chart}-daily details tbody tr`)
        .last()
        .find("td")
        .map((_, td) => $(td).text())
        .get();
    expect(today("categories").sort()).toEqual(["1", "1", "1"]);
    expect($("#chart-networks-daily details thead").text()).toContain("base");
    expect(today("totals")[0]).toBe("3");
    // The quotes service's valid challenge five days ago asked 0.01 USDC at the least.
    const fiveDaysAgo = $("#chart-prices-daily details tbody tr").eq(29 - 5);
    expect($("#chart-prices-daily details thead").text()).toContain("up to 0.01 USDC");
    expect(fiveDaysAgo.find("td").first().text()).toBe("1");
    expect(
      $("#chart-verified-daily details tbody tr")
        .eq(29 - 5)
        .find("td")
        .text(),
    ).toBe("33.33 %");
  });

  it("when a badge is asked for, then it is an SVG with the service's status; an unknown id is a 404 badge", async () => {
    const res = await request(api.app)
      .get(`/badge/${ids.quotesId}.svg`)
      .expect(200)
      .expect("Content-Type", /image\/svg\+xml/);
    const svg = res.body instanceof Buffer ? res.body.toString() : res.text;
    // No trust verdict yet: its health is unknown; the uptime is our probes' over 30 days (6 of 7 up).
    expect(svg).toContain("unknown · 85.71% up");
    expect(res.headers.etag).toBeDefined();
    await request(api.app).get("/badge/00000000-0000-4000-8000-000000000000.svg").expect(404);
  });

  it("when the stylesheet and script are asked for, then they come from our origin with their types", async () => {
    await request(api.app)
      .get("/assets/pages.css")
      .expect(200)
      .expect("Content-Type", /text\/css/);
    await request(api.app)
      .get("/assets/pages.js")
      .expect(200)
      .expect("Content-Type", /javascript/);
  });

  it("when a page path differs in case or a trailing slash, then it is not a page", async () => {
    await page("/Services").expect(404);
    await page("/stats/").expect(404);
  });
});
