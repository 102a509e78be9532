import { type CrawlOutcome, crawlDirectory } from "../../src/crawl/crawl-directory";
import type { CrawlSettings } from "../../src/crawl/settings";
import type { Database } from "../../src/db/prisma-client";
import { testLogger } from "./logger";

/** Fast, still polite-shaped settings for crawling fixture sites on loopback. */
export function testCrawlSettings(overrides: Partial<CrawlSettings> = {}): CrawlSettings {
  return {
    maxConcurrency: 4,
    maxRequestsPerMinute: 100_000,
    maxRetries: 2,
    retryBaseDelayMs: 20,
    requestTimeoutSeconds: 5,
    maxPageBytes: 1_000_000,
    maxListingPages: 100,
    respectRobotsTxt: true,
    userAgent: "x402-catalogue-test/1.0",
    progressIntervalMs: 60_000,
    labelAliases: () => undefined,
    ...overrides,
  };
}

export function crawlOnce(
  db: Database,
  databaseUrl: string,
  url: string,
  settings: Partial<CrawlSettings> = {},
): Promise<CrawlOutcome> {
  return crawlDirectory(
    { db, databaseUrl, logger: testLogger, settings: testCrawlSettings(settings) },
    { url, trigger: "manual" },
  );
}
