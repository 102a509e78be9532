import type { PrometheusFamily } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/config";
import { inTransaction } from "../../../src/db/transaction";
import { emitEvents } from "../../../src/events/emit";
import { metrics } from "../../../src/metrics/metrics";
import { exposeMetrics, type MetricsExposure } from "../../../src/metrics/serve-metrics";
import { AddressPolicy } from "../../../src/probe/ssrf-guard";
import { claimDueDeliveries } from "../../../src/webhooks/deliveries";
import { deliver } from "../../../src/webhooks/delivery-worker";
import { SecretKeyRing } from "../../../src/webhooks/secret-keys";
import { webhookSettingsFromConfig } from "../../../src/webhooks/settings";
import { dlMarkup, SERVICES } from "../../fixtures/directories";
import { bearer, issueKey, type Replica, startReplica } from "../../support/accounts";
import { seedServices } from "../../support/catalogue";
import { crawlOnce, ran } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { serveFixtureDirectory } from "../../support/fixture-directory-site";
import { testLogger } from "../../support/logger";
import { labelValues, observations, sampleValue, scrape } from "../../support/metrics";
import { probeNow } from "../../support/probe";
import { startWebhookReceiver } from "../../support/webhook-receiver";
import { v1ChallengeBody } from "../../support/x402-challenges";
import { X402Fixture } from "../../support/x402-fixture";

/** The product's families, as docs/operations.md lists them, with their types. */
const PRODUCT_FAMILIES: Record<string, PrometheusFamily["type"]> = {
  x402_http_requests_total: "COUNTER",
  x402_http_request_duration_seconds: "HISTOGRAM",
  x402_crawl_runs_total: "COUNTER",
  x402_crawl_pages_total: "COUNTER",
  x402_crawl_run_duration_seconds: "HISTOGRAM",
  x402_probes_total: "COUNTER",
  x402_probe_latency_seconds: "HISTOGRAM",
  x402_webhook_attempts_total: "COUNTER",
  x402_webhook_delivery_lag_seconds: "HISTOGRAM",
  x402_settlement_lag_blocks: "GAUGE",
  x402_catalogue_services: "GAUGE",
  x402_catalogue_endpoints: "GAUGE",
  x402_catalogue_reloads_total: "COUNTER",
  x402_catalogue_reload_duration_seconds: "HISTOGRAM",
  x402_db_pool_connections_in_use: "GAUGE",
  x402_db_pool_connections_idle: "GAUGE",
  x402_db_pool_waiting: "GAUGE",
  x402_nodejs_eventloop_lag_seconds: "GAUGE",
  x402_nodejs_eventloop_lag_p99_seconds: "GAUGE",
};

const LOOPBACK = ["127.0.0.0/8"];
const PAGE_SIZE = 4;
const CRAWLED = SERVICES.slice(0, 6);

describe("GET /metrics", () => {
  let database: TestDatabase;
  let api: Replica;
  let exposure: MetricsExposure;
  let site: Awaited<ReturnType<typeof serveFixtureDirectory>>;
  const origin = new X402Fixture();
  const secretKeys = SecretKeyRing.ephemeral();
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startReplica(database, {
      metrics: { serve: true },
      webhooks: { allowedNetworks: LOOPBACK, secretKeys },
    });
    exposure = await exposeMetrics(
      { enabled: true, port: undefined, host: "127.0.0.1" },
      { api: api.pool },
      true,
      testLogger,
    );
    site = await serveFixtureDirectory(dlMarkup, CRAWLED, PAGE_SIZE);
    await origin.start();
    origin.set("/paid", { status: 402, body: v1ChallengeBody() });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await exposure.close();
    await api.close();
    await site.stop();
    await origin.stop();
    await receiver.close();
    await database.drop();
  });

  it("when scraped, then a Prometheus text-format parser reads every family the process declares, typed", async () => {
    const { families } = await scrape(api.url);
    const declared = (await metrics.registry.getMetricsAsJSON()).map((family) => family.name);
    expect(families.map((family) => family.name).sort()).toEqual([...declared].sort());
    for (const family of families) expect(family.type).not.toBe("UNTYPED");
    const types = Object.fromEntries(families.map((family) => [family.name, family.type]));
    for (const [name, type] of Object.entries(PRODUCT_FAMILIES)) expect(types[name], name).toBe(type);
  });

  it("when the catalogue is asked for, then requests and their latencies are counted by route group and status", async () => {
    const before = await scrape(api.url);
    for (let i = 0; i < 3; i += 1) expect((await fetch(`${api.url}/v1/services`)).status).toBe(200);
    expect((await fetch(`${api.url}/v1/services?limit=oops`)).status).toBe(400);
    const after = await scrape(api.url);
    const moved = (name: string, read: typeof sampleValue, labels: Record<string, string>) =>
      read(after, name, labels) - read(before, name, labels);
    const ok = { group: "catalogue", status: "200" };
    const bad = { group: "catalogue", status: "400" };
    expect(moved("x402_http_requests_total", sampleValue, ok)).toBe(3);
    expect(moved("x402_http_request_duration_seconds", observations, ok)).toBe(3);
    expect(moved("x402_http_requests_total", sampleValue, bad)).toBe(1);
    expect(sampleValue(after, "x402_db_pool_connections_idle", { pool: "api" })).toBeGreaterThan(0);
    expect(sampleValue(after, "x402_nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
  });

  it("when a directory is crawled and the catalogue reloads, then the run, its pages and the catalogue's size are counted", async () => {
    const source = { kind: "html_directory", source: new URL(site.origin).host };
    const before = await scrape(api.url);
    const outcome = ran(
      await crawlOnce(database.db, database.url, `${site.origin}${dlMarkup.listingPath(1)}`),
    );
    expect(outcome.status).toBe("completed");
    expect((await fetch(`${api.url}/v1/services`)).status).toBe(200); // the catalogue reloads
    const after = await scrape(api.url);
    expect(
      sampleValue(after, "x402_crawl_runs_total", { ...source, status: "completed" }) -
        sampleValue(before, "x402_crawl_runs_total", { ...source, status: "completed" }),
    ).toBe(1);
    expect(
      sampleValue(after, "x402_crawl_pages_total", { ...source, result: "fetched" }) -
        sampleValue(before, "x402_crawl_pages_total", { ...source, result: "fetched" }),
    ).toBe(outcome.counts.pagesFetched);
    expect(outcome.counts.pagesFetched).toBeGreaterThanOrEqual(CRAWLED.length);
    expect(
      observations(after, "x402_crawl_run_duration_seconds", source) -
        observations(before, "x402_crawl_run_duration_seconds", source),
    ).toBe(1);
    expect(sampleValue(after, "x402_catalogue_services")).toBe(await database.db.service.count());
    expect(sampleValue(after, "x402_catalogue_reloads_total")).toBeGreaterThan(
      sampleValue(before, "x402_catalogue_reloads_total"),
    );
  });

  it("when an endpoint is probed, then its outcome and latency are counted", async () => {
    await seedServices(database.db, [
      { name: "Paid", endpoints: [{ method: "GET", url: origin.url("/paid") }] },
    ]);
    const endpoint = await database.db.endpoint.findFirstOrThrow({ where: { url: origin.url("/paid") } });
    const before = await scrape(api.url);
    await probeNow(database.db, [endpoint.id]);
    const after = await scrape(api.url);
    const challenge = { outcome: "challenge" };
    expect(
      sampleValue(after, "x402_probes_total", challenge) -
        sampleValue(before, "x402_probes_total", challenge),
    ).toBe(1);
    expect(
      observations(after, "x402_probe_latency_seconds", challenge) -
        observations(before, "x402_probe_latency_seconds", challenge),
    ).toBe(1);
  });

  it("when a webhook fails once and is then delivered, then both attempts and the delivery's lag are counted", async () => {
    const { key } = await issueKey(database.db, "org-metrics-webhooks", "live", ["webhooks:write"]);
    const created = await fetch(`${api.url}/v1/webhook-endpoints`, {
      method: "POST",
      headers: { ...bearer(key), "content-type": "application/json" },
      body: JSON.stringify({ url: `${receiver.url}/hook?token=sekret`, enabled_events: ["*"] }),
    });
    expect(created.status).toBe(201);
    const settings = {
      ...webhookSettingsFromConfig(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: LOOPBACK.join(",") })),
      firstRetryDelayMs: 0,
      maxRetryDelayMs: 0,
    };
    const deliverDue = async () => {
      for (const due of await claimDueDeliveries(database.db, 10, 60_000))
        await deliver(
          { db: database.db, settings, logger: testLogger, keys: secretKeys },
          new AddressPolicy(LOOPBACK),
          due,
        );
    };
    const id = "00000000-0000-4000-8000-0000000000aa";
    const before = await scrape(api.url);
    await inTransaction(database.db, (tx) =>
      emitEvents(tx, [
        {
          type: "service.listed",
          serviceId: id,
          data: { service: { id, name: "Hooked", source: "directory", detail_url: "https://dir.example/h" } },
        },
      ]),
    );
    receiver.statuses.push(500);
    await deliverDue();
    await deliverDue();
    expect(receiver.received.map((request) => request.path)).toEqual([
      "/hook?token=sekret",
      "/hook?token=sekret",
    ]);
    const after = await scrape(api.url);
    const moved = (outcome: string) =>
      sampleValue(after, "x402_webhook_attempts_total", { outcome }) -
      sampleValue(before, "x402_webhook_attempts_total", { outcome });
    expect([moved("retrying"), moved("delivered"), moved("failed")]).toEqual([1, 1, 0]);
    expect(
      observations(after, "x402_webhook_delivery_lag_seconds") -
        observations(before, "x402_webhook_delivery_lag_seconds"),
    ).toBe(1);
  });

  it("when keys, organisation ids and credentials are sent and crawled, then no label holds any of them", async () => {
    const organisation = "org-metrics-label-check";
    const { key } = await issueKey(database.db, organisation, "live", ["catalogue:read", "keys:write"]);
    const { id: organisationId } = await database.db.organisation.findFirstOrThrow({
      where: { name: organisation },
    });
    await fetch(`${api.url}/v1/services`, { headers: bearer(key) });
    await fetch(`${api.url}/v1/api-keys`, { headers: bearer(key) });
    await fetch(`${api.url}/v1/services/${organisationId}?api_key=${key}`);
    await fetch(`${api.url}/${key}/${organisationId}`);
    const withCredentials = new URL(`${site.origin}${dlMarkup.listingPath(1)}`);
    withCredentials.username = "scraper";
    withCredentials.password = "hunter2";
    withCredentials.searchParams.set("token", "sekret");
    await crawlOnce(database.db, database.url, withCredentials.href);

    const values = labelValues(await scrape(api.url));
    expect(values.length).toBeGreaterThan(0);
    const secrets = [key, key.slice(0, 12), organisationId, organisation, "scraper", "hunter2", "sekret"];
    const leaked = values.filter(({ value }) => secrets.some((secret) => value.includes(secret)));
    expect(leaked).toEqual([]);
    // Bounded values only: short words, numbers and hosts, never a path, a query or user info.
    const unbounded = values.filter(({ value }) => !/^[A-Za-z0-9_.:\- ]{1,64}$/.test(value));
    expect(unbounded).toEqual([]);
  });
});
