// Shared by bench/crawl.ts and the crawl-memory child (which must not load the bare crawler).
import type { CrawlSettings } from "../src/crawl-run/settings";

/** Crawl settings of the crawl benchmarks: no politeness ceiling, robots.txt ignored, 1 extraction thread. */
export function benchCrawlSettings(concurrency: number): CrawlSettings {
  return {
    maxConcurrency: concurrency,
    maxRequestsPerMinute: 10_000_000,
    maxRetries: 2,
    retryBaseDelayMs: 200,
    requestTimeoutSeconds: 30,
    maxPageBytes: 5_242_880,
    maxListingPages: 10_000,
    runMinutes: 50,
    respectRobotsTxt: false,
    userAgent: "x402-catalogue-bench/1.0",
    progressIntervalMs: 10_000,
    extractionThreads: 1,
    labelAliases: () => undefined,
    allowedNetworks: [],
  };
}
