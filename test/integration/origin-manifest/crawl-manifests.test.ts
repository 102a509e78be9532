import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrawlOutcome } from "../../../src/crawl-run/outcome";
import { crawlSource } from "../../../src/sources/crawl-source";
import { MANIFEST_SOURCE_URL } from "../../../src/sources/origin-manifest/crawl-manifests";
import { v2Item } from "../../fixtures/bazaar/feed-items";
import { freeFormMap, v1Endpoints, v2Resources } from "../../fixtures/manifests/families";
import { createTestApp, type TestApp } from "../../support/app";
import { crawlFeedOnce, ran, testCrawlSettings } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";
import { FixtureOrigins, fixtureResolver } from "../../support/fixture-origins";
import { testLogger } from "../../support/logger";

const WELL_KNOWN = "/.well-known/x402";
const MAX_BYTES = 4_096;

interface DetailEndpoint {
  method: string;
  url: string;
  payment_options: { source: string | null; source_url: string | null; payable: boolean | null }[];
  payability: { payable: boolean; decided_by: string | null; reasons: string[] };
}

/**
 * A feed puts six origins in the catalogue; each serves (or fails to serve) a manifest its own
 * way, and one more origin is configured. Everything goes through the real run, the address
 * guard (made-up names resolved to loopback; one to a private address) and the HTTP API.
 */
describe("crawling origin manifests", () => {
  let database: TestDatabase;
  let feed: FixtureFeed;
  let origins: FixtureOrigins;
  let api: TestApp;
  let first: Extract<CrawlOutcome, { runId: string }>;
  const at = (host: string) => origins.origin(host);

  // Through crawlSource, as the schedule and `npm run crawl -- --kind origin_manifest` run it.
  const crawlManifests = (configured: string[]) =>
    crawlSource(
      {
        db: database.db,
        databaseUrl: database.url,
        logger: testLogger,
        settings: testCrawlSettings(),
        manifest: { maxBytes: MAX_BYTES },
        resolve: fixtureResolver({ "internal.example": "10.1.2.3" }),
      },
      { kind: "origin_manifest", origins: configured },
      "manual",
    ).then(ran);

  const entryOf = async (domain: string) => {
    const list = await request(api.app)
      .get("/v1/services")
      .query({ q: domain.split(".")[0], limit: 50 });
    const item = (list.body.items as { id: string; domain: string }[]).find((i) => i.domain === domain);
    if (!item) throw new Error(`no entry for ${domain}: ${JSON.stringify(list.body)}`);
    const detail = await request(api.app).get(`/v1/services/${item.id}`).expect(200);
    return detail.body as {
      name: string;
      sources: { kind: string; source: string; source_url: string; status: string }[];
      endpoints: DetailEndpoint[];
    };
  };
  const endpoint = (entry: { endpoints: DetailEndpoint[] }, url: string) => {
    const found = entry.endpoints.find((e) => e.url === url);
    if (!found) throw new Error(`no endpoint ${url} in ${JSON.stringify(entry.endpoints.map((e) => e.url))}`);
    return found;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    origins = await new FixtureOrigins().start();
    feed = await new FixtureFeed().start();
    feed.items = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "iota"].map((name) =>
      v2Item(`${at(`${name}.example`)}/feed-listed`, { serviceName: `${name} service` }),
    );
    // alpha: v2 resources at /.well-known/x402; beta: v1 endpoints only at x402.json.
    origins.serve("alpha.example", WELL_KNOWN, { json: v2Resources(at("alpha.example")) });
    origins.serve("beta.example", `${WELL_KNOWN}.json`, { json: v1Endpoints(at("beta.example")) });
    // gamma: a single-page app answers every path with its index page.
    for (const path of [WELL_KNOWN, `${WELL_KNOWN}.json`])
      origins.serve("gamma.example", path, {
        body: "<!doctype html><html></html>",
        headers: { "content-type": "text/html" },
      });
    // delta: broken JSON served as JSON; epsilon: a redirect into a private network; zeta: huge.
    origins.serve("delta.example", WELL_KNOWN, {
      body: '{"x402Version":2,"endpoints":[',
      headers: { "content-type": "application/json" },
    });
    origins.serve("epsilon.example", WELL_KNOWN, {
      status: 302,
      headers: { location: "http://internal.example/x402" },
      body: "",
    });
    origins.serve("zeta.example", WELL_KNOWN, {
      json: { x402Version: 2, endpoints: [], padding: "x".repeat(MAX_BYTES * 2) },
    });
    // eta: a redirect to another host's manifest; iota: plain text that is not JSON.
    origins.serve("eta.example", WELL_KNOWN, {
      status: 301,
      headers: { location: `${at("theta.example")}${WELL_KNOWN}` },
      body: "",
    });
    origins.serve("theta.example", WELL_KNOWN, { json: v2Resources(at("theta.example")) });
    for (const path of [WELL_KNOWN, `${WELL_KNOWN}.json`])
      origins.serve("iota.example", path, { body: "hello", headers: { "content-type": "text/plain" } });
    // configured: no directory or feed lists it; a free-form manifest served as text/plain that
    // also lists a resource on the seller's API subdomain.
    origins.serve("configured.example", WELL_KNOWN, {
      body: JSON.stringify({ ...freeFormMap(), resources: [`${at("api.configured.example")}/sub`] }),
      headers: { "content-type": "text/plain" },
    });

    ran(await crawlFeedOnce(database.db, database.url, feed.url));
    first = await crawlManifests([at("configured.example")]);
    api = createTestApp(database);
  });
  afterAll(async () => {
    await api?.close();
    await feed?.stop();
    await origins?.stop();
    await database?.drop();
  });

  it("when origins answer in every way, then the run completes and reads each manifest with an honest User-Agent", async () => {
    expect(first).toMatchObject({
      status: "completed",
      counts: { servicesNew: 3, listingComplete: true, pagesFailed: 3 },
    });
    expect(new Set(origins.requests.map((r) => r.userAgent))).toEqual(new Set(["x402-catalogue-test/1.0"]));
    // x402.json is asked only where x402 is absent; the private address is never connected to.
    expect(origins.requests.filter((r) => r.host === "alpha.example").map((r) => r.path)).toEqual([
      WELL_KNOWN,
    ]);
    expect(origins.requests.filter((r) => r.host === "beta.example").map((r) => r.path)).toEqual([
      WELL_KNOWN,
      `${WELL_KNOWN}.json`,
    ]);
    expect(origins.requests.some((r) => r.host === "internal.example")).toBe(false);
  });

  it("when an origin has no manifest or it cannot be read, then that is recorded, never listed", async () => {
    const errors = await database.db.crawlError.findMany({ where: { crawlRunId: first.runId } });
    const about = (host: string) => errors.filter((e) => e.url.includes(`//${host}`));
    expect(about("gamma.example")).toEqual([
      expect.objectContaining({
        kind: "skipped",
        message: expect.stringMatching(/an HTML page \(text\/html\)/),
      }),
    ]);
    expect(about("delta.example")).toEqual([
      expect.objectContaining({ kind: "fetch", message: expect.stringMatching(/^broken JSON/) }),
    ]);
    expect(about("epsilon.example")).toEqual([
      expect.objectContaining({
        kind: "fetch",
        statusCode: 302,
        message: expect.stringMatching(/10\.1\.2\.3 is a private address.*\(redirect 1\)/),
      }),
    ]);
    expect(about("zeta.example")).toEqual([
      expect.objectContaining({ kind: "fetch", message: `larger than ${MAX_BYTES} bytes: not read` }),
    ]);
    expect(about("eta.example")).toEqual([
      expect.objectContaining({
        kind: "skipped",
        message: `no manifest (${WELL_KNOWN}: redirected to another host (theta.example:${origins.port}): not this origin's manifest; ${WELL_KNOWN}.json: HTTP 404)`,
      }),
    ]);
    expect(about("iota.example")).toEqual([
      expect.objectContaining({
        kind: "skipped",
        message: expect.stringMatching(/not JSON \(text\/plain\)/),
      }),
    ]);
    // A resource on another site, an item without a URL and one without payment requirements
    // are recorded as value problems.
    expect(about("alpha.example").map((e) => e.message)).toEqual([
      "on another site: not listed as this origin's",
      "no payment requirements published for it",
    ]);
    expect(about("beta.example").map((e) => [e.field, e.message])).toContainEqual([
      "$.endpoints[2]",
      "no url, resource or path: not listed",
    ]);
    const rows = await database.db.service.findMany({
      where: { source: { kind: "origin_manifest" } },
      select: { domain: true, detailUrl: true },
      orderBy: { domain: "asc" },
    });
    expect(rows).toEqual([
      { domain: "alpha.example", detailUrl: `${at("alpha.example")}${WELL_KNOWN}` },
      { domain: "beta.example", detailUrl: `${at("beta.example")}${WELL_KNOWN}.json` },
      { domain: "configured.example", detailUrl: `${at("configured.example")}${WELL_KNOWN}` },
    ]);
  });

  it("when a manifest lists an origin's resources, then the API shows them in the same entry as the feed's, with the manifest's provenance and payability", async () => {
    const alpha = await entryOf("alpha.example");
    expect(alpha.sources.map((s) => [s.kind, s.source, s.source_url])).toEqual([
      ["bazaar", expect.any(String), at("alpha.example")],
      ["origin_manifest", MANIFEST_SOURCE_URL, `${at("alpha.example")}${WELL_KNOWN}`],
    ]);
    const quote = endpoint(alpha, `${at("alpha.example")}/api/quote`);
    expect(quote.payment_options).toEqual([
      expect.objectContaining({
        source: MANIFEST_SOURCE_URL,
        source_url: `${at("alpha.example")}${WELL_KNOWN}`,
        payable: true,
      }),
    ]);
    expect(quote.payability).toEqual({ payable: true, decided_by: "manifest", reasons: [] });
    // Listed without payment requirements: shown, and said to be unpayable for that reason.
    expect(endpoint(alpha, `${at("alpha.example")}/api/history`).payability).toEqual({
      payable: false,
      decided_by: null,
      reasons: ["no payment requirements are published for it"],
    });
    // The feed's own endpoint is still decided by the feed.
    expect(endpoint(alpha, `${at("alpha.example")}/feed-listed`).payability.decided_by).toBe("feed");

    const beta = await entryOf("beta.example");
    expect(endpoint(beta, `${at("beta.example")}/v1/alerts`).payability).toMatchObject({
      payable: false,
      decided_by: "manifest",
      reasons: expect.arrayContaining([expect.stringMatching(/^base: asset/)]),
    });
  });

  it("when a configured origin is in no other source, then its manifest makes one entry of its own, subdomain resources included", async () => {
    const configured = await entryOf("configured.example");
    expect(configured.name).toBe("Jokes & Summaries");
    expect(configured.sources.map((s) => s.kind)).toEqual(["origin_manifest"]);
    expect(configured.endpoints.map((e) => `${e.method} ${e.url}`).sort()).toEqual([
      `GET ${at("api.configured.example")}/sub`,
      `GET ${at("configured.example")}/haiku`,
      `GET ${at("configured.example")}/joke`,
      `POST ${at("configured.example")}/summarise`,
    ]);
    const errors = await database.db.crawlError.findMany({
      where: { crawlRunId: first.runId, url: { contains: "configured.example" } },
    });
    expect(errors.map((e) => e.message)).toContain("served as text/plain, not application/json");
  });

  it("when endpoints are searched, then a manifest's endpoint is found with its payability", async () => {
    const found = await request(api.app)
      .get("/v1/endpoints")
      .query({ q: "semantic quote symbol" })
      .expect(200);
    const hit = (found.body.items as { url: string; payability: DetailEndpoint["payability"] }[]).find(
      (i) => i.url === `${at("alpha.example")}/api/quote`,
    );
    expect(hit?.payability).toEqual({ payable: true, decided_by: "manifest", reasons: [] });
  });

  it("when a second run no longer lists something, then only a manifest read completely removes it", async () => {
    // alpha drops /api/history; beta's manifest now fails; configured's is gone (404).
    const alphaNow = v2Resources(at("alpha.example"));
    alphaNow.resources = alphaNow.resources.slice(0, 1);
    origins.serve("alpha.example", WELL_KNOWN, { json: alphaNow });
    origins.serve("beta.example", `${WELL_KNOWN}.json`, { status: 503, body: "maintenance" });
    origins.answers.delete("configured.example");

    const second = await crawlManifests([at("configured.example")]);
    expect(second).toMatchObject({ status: "completed", counts: { servicesDelisted: 1 } });

    const rows = await database.db.service.findMany({
      where: { source: { kind: "origin_manifest" } },
      select: { domain: true, status: true, endpoints: { select: { url: true }, orderBy: { url: "asc" } } },
      orderBy: { domain: "asc" },
    });
    expect(rows).toEqual([
      { domain: "alpha.example", status: "listed", endpoints: [{ url: `${at("alpha.example")}/api/quote` }] },
      {
        domain: "beta.example",
        status: "listed",
        endpoints: [{ url: `${at("beta.example")}/v1/alerts` }, { url: `${at("beta.example")}/v1/forecast` }],
      },
      { domain: "configured.example", status: "delisted", endpoints: expect.any(Array) },
    ]);
  });
});
