import { availableParallelism } from "node:os";
import type { Config } from "../config/config";
import type { LabelAliases } from "../extract/labels";

/** How one crawl behaves; built from the config, or given directly by tests and benchmarks. */
export interface CrawlSettings {
  maxConcurrency: number;
  maxRequestsPerMinute: number;
  maxRetries: number;
  /** First retry waits about this long; each next retry twice as long (with jitter), capped at 30 s. */
  retryBaseDelayMs: number;
  requestTimeoutSeconds: number;
  maxPageBytes: number;
  maxListingPages: number;
  /**
   * Minutes of requests at `maxRequestsPerMinute` one run may plan: the whole listing, then as
   * many detail pages as fit (see src/sources/html-directory/detail-plan.ts).
   */
  runMinutes: number;
  respectRobotsTxt: boolean;
  userAgent: string;
  progressIntervalMs: number;
  /** Worker threads that extract and normalise pages; 0 reads them on the crawler's thread. */
  extractionThreads: number;
  /** Extra label wording per host (SITE_OVERRIDES). */
  labelAliases: (host: string) => LabelAliases | undefined;
  /**
   * Non-public ranges that requests to addresses a source names (origin manifests) may reach:
   * the probes' PROBE_ALLOWED_NETWORKS, since the same guard vets both.
   */
  allowedNetworks: string[];
}

export function crawlSettingsFromConfig(config: Config): CrawlSettings {
  const overrides = config.SITE_OVERRIDES ?? {};
  return {
    maxConcurrency: config.CRAWL_MAX_CONCURRENCY,
    maxRequestsPerMinute: config.CRAWL_MAX_REQUESTS_PER_MINUTE,
    maxRetries: config.CRAWL_MAX_RETRIES,
    retryBaseDelayMs: 1_000,
    requestTimeoutSeconds: config.CRAWL_REQUEST_TIMEOUT_SECONDS,
    maxPageBytes: config.CRAWL_MAX_PAGE_BYTES,
    maxListingPages: config.CRAWL_MAX_LISTING_PAGES,
    runMinutes: config.CRAWL_RUN_MINUTES,
    respectRobotsTxt: config.CRAWL_RESPECT_ROBOTS_TXT,
    userAgent: config.CRAWL_USER_AGENT,
    progressIntervalMs: 10_000,
    extractionThreads:
      config.CRAWL_EXTRACTION_THREADS ?? Math.min(4, Math.max(1, availableParallelism() - 1)),
    labelAliases: (host) => overrides[host]?.labels,
    allowedNetworks: config.PROBE_ALLOWED_NETWORKS,
  };
}
