import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { sourceLabel } from "./labels";

/** What a connection pool tells about itself (pg.Pool). */
export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** A finished crawl run, as the run records it. */
export interface CrawlRunReport {
  /** The source's kind (html_directory, bazaar, origin_manifest, registered). */
  kind: string;
  /** The source's base URL: only its host becomes a label. */
  baseUrl: string;
  status: string;
  pagesFetched: number;
  pagesFailed: number;
  pagesUnchanged: number;
  durationMs: number;
}

/** A newer in-memory catalogue in place: how it came, its size and how long that took. */
export interface CatalogueLoadReport {
  way: string;
  services: number;
  endpoints: number;
  ms: number;
}

/** What happened to one webhook delivery attempt. */
export type WebhookOutcome = "delivered" | "retrying" | "failed";

const PREFIX = "x402_";
const seconds = (ms: number) => ms / 1000;

/**
 * The product's metrics and the calls that move them. Instrumented modules call these methods
 * (`metrics.crawlRunFinished(…)`) and never prom-client itself. One registry per process, as
 * Prometheus scrapes processes: `npm start` and `npm run worker` serve it (see serve-metrics.ts).
 */
export class ProductMetrics {
  readonly registry = new Registry();
  private readonly pools = new Map<string, PoolCounts>();
  private processWatched = false;

  private readonly httpRequests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: "HTTP requests answered, by route group (the route policy's group) and status code.",
    labelNames: ["group", "status"] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "Time from a request's arrival to the end of its answer, by route group and status code.",
    labelNames: ["group", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly crawlRuns = new Counter({
    name: `${PREFIX}crawl_runs_total`,
    help: "Crawl runs finished, by source kind, source host and status (completed, partial, failed, aborted).",
    labelNames: ["kind", "source", "status"] as const,
    registers: [this.registry],
  });
  private readonly crawlPages = new Counter({
    name: `${PREFIX}crawl_pages_total`,
    help: "Pages crawl runs read, by source and result (fetched, failed, unchanged).",
    labelNames: ["kind", "source", "result"] as const,
    registers: [this.registry],
  });
  private readonly crawlDuration = new Histogram({
    name: `${PREFIX}crawl_run_duration_seconds`,
    help: "How long crawl runs took, by source.",
    labelNames: ["kind", "source"] as const,
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200],
    registers: [this.registry],
  });
  private readonly probes = new Counter({
    name: `${PREFIX}probes_total`,
    help: "Endpoint probes, by outcome (challenge, no_challenge, http_error, network_error, refused).",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  private readonly probeLatency = new Histogram({
    name: `${PREFIX}probe_latency_seconds`,
    help: "Probe latency from the first DNS lookup to the end of the answer read, by outcome.",
    labelNames: ["outcome"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly webhookAttempts = new Counter({
    name: `${PREFIX}webhook_attempts_total`,
    help: "Webhook delivery attempts, by outcome (delivered, retrying: failed and retried later, failed: given up).",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  private readonly webhookLag = new Histogram({
    name: `${PREFIX}webhook_delivery_lag_seconds`,
    help: "Time from an event's transaction to its receiver's 2xx answer, for delivered webhooks.",
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 21600, 86400],
    registers: [this.registry],
  });
  private readonly settlementLag = new Gauge({
    name: `${PREFIX}settlement_lag_blocks`,
    help: "Blocks between a chain's head and the last block its settlement watcher recorded (this process holds the chain's watcher).",
    labelNames: ["chain"] as const,
    registers: [this.registry],
  });
  private readonly catalogueServices = new Gauge({
    name: `${PREFIX}catalogue_services`,
    help: "Services in the in-memory catalogue this process answers from.",
    registers: [this.registry],
  });
  private readonly catalogueEndpoints = new Gauge({
    name: `${PREFIX}catalogue_endpoints`,
    help: "Endpoints in the in-memory catalogue this process answers from.",
    registers: [this.registry],
  });
  private readonly catalogueReloads = new Counter({
    name: `${PREFIX}catalogue_reloads_total`,
    help: "Newer catalogues put in place, by way (database, image: loaded whole; in place: refreshed).",
    labelNames: ["way"] as const,
    registers: [this.registry],
  });
  private readonly catalogueReloadDuration = new Histogram({
    name: `${PREFIX}catalogue_reload_duration_seconds`,
    help: "How long putting a newer catalogue in place took, by way.",
    labelNames: ["way"] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });

  constructor() {
    const pools = this.pools;
    const counts = (read: (pool: PoolCounts) => number) =>
      function (this: Gauge<"pool">) {
        for (const [name, pool] of pools) this.set({ pool: name }, read(pool));
      };
    new Gauge({
      name: `${PREFIX}db_pool_connections_in_use`,
      help: "Database connections checked out of the pool, by pool.",
      labelNames: ["pool"] as const,
      registers: [this.registry],
      collect: counts((pool) => pool.totalCount - pool.idleCount),
    });
    new Gauge({
      name: `${PREFIX}db_pool_connections_idle`,
      help: "Open database connections waiting in the pool, by pool.",
      labelNames: ["pool"] as const,
      registers: [this.registry],
      collect: counts((pool) => pool.idleCount),
    });
    new Gauge({
      name: `${PREFIX}db_pool_waiting`,
      help: "Queries waiting for a database connection, by pool.",
      labelNames: ["pool"] as const,
      registers: [this.registry],
      collect: counts((pool) => pool.waitingCount),
    });
  }

  /** Node's own metrics (event-loop lag, heap, GC, CPU, open handles): from the first call on. */
  watchProcess(): void {
    if (this.processWatched) return;
    this.processWatched = true;
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
  }

  /** Reports the pool's connections under `name` at every scrape (a later pool of that name replaces it). */
  watchPool(name: string, pool: PoolCounts): void {
    this.pools.set(name, pool);
  }

  httpRequestFinished(group: string, status: string, ms: number): void {
    this.httpRequests.inc({ group, status });
    this.httpDuration.observe({ group, status }, seconds(ms));
  }

  crawlRunFinished(run: CrawlRunReport): void {
    const source = { kind: run.kind, source: sourceLabel(run.kind, run.baseUrl) };
    this.crawlRuns.inc({ ...source, status: run.status });
    this.crawlPages.inc({ ...source, result: "fetched" }, run.pagesFetched);
    this.crawlPages.inc({ ...source, result: "failed" }, run.pagesFailed);
    this.crawlPages.inc({ ...source, result: "unchanged" }, run.pagesUnchanged);
    this.crawlDuration.observe(source, seconds(run.durationMs));
  }

  probeFinished(outcome: string, latencyMs: number | null): void {
    this.probes.inc({ outcome });
    if (latencyMs !== null) this.probeLatency.observe({ outcome }, seconds(latencyMs));
  }

  webhookAttempted(outcome: WebhookOutcome, lagMs: number | null): void {
    this.webhookAttempts.inc({ outcome });
    if (outcome === "delivered" && lagMs !== null) this.webhookLag.observe(seconds(Math.max(0, lagMs)));
  }

  settlementBehind(chain: string, blocks: bigint): void {
    this.settlementLag.set({ chain }, Number(blocks > 0n ? blocks : 0n));
  }

  catalogueLoaded(load: CatalogueLoadReport): void {
    this.catalogueServices.set(load.services);
    this.catalogueEndpoints.set(load.endpoints);
    this.catalogueReloads.inc({ way: load.way });
    this.catalogueReloadDuration.observe({ way: load.way }, seconds(load.ms));
  }

  /** The exposition in Prometheus's text format, and its content type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** This process's metrics. */
export const metrics = new ProductMetrics();
