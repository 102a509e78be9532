import type { CrawlOutcome } from "../../src/crawl-run/outcome";
import type { CrawlSettings } from "../../src/crawl-run/settings";
import type { Database } from "../../src/db/prisma-client";
import { crawlBazaar } from "../../src/sources/bazaar/crawl-bazaar";
import type { FeedSettings } from "../../src/sources/bazaar/fetch-feed";
import { crawlDirectory } from "../../src/sources/html-directory/crawl-directory";
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
    runMinutes: 50,
    respectRobotsTxt: true,
    userAgent: "x402-catalogue-test/1.0",
    progressIntervalMs: 60_000,
    extractionThreads: 0,
    labelAliases: () => undefined,
    // Fixture origins listen on loopback, which the address guard refuses unless allowed.
    allowedNetworks: ["127.0.0.0/8"],
    ...overrides,
  };
}

/** Feed walk settings for a fixture feed on loopback: no pacing, quick retries. */
export function testFeedSettings(overrides: Partial<FeedSettings> = {}): FeedSettings {
  return {
    pageSize: 3,
    concurrency: 1,
    delayMs: 0,
    maxPages: 100,
    maxRetries: 2,
    retryBaseDelayMs: 10,
    requestTimeoutMs: 2_000,
    maxBytes: 1_000_000,
    userAgent: "x402-catalogue-test/1.0",
    ...overrides,
  };
}

/** The outcome of a crawl that ran (a skipped one fails the test). */
export function ran(outcome: CrawlOutcome) {
  if (outcome.status === "skipped") throw new Error(`unexpected skip: ${outcome.reason}`);
  return outcome;
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

/** One crawl of a fixture discovery feed, with small pages so a few items span several. */
export function crawlFeedOnce(
  db: Database,
  databaseUrl: string,
  url: string,
  feed: Partial<FeedSettings> = {},
  settings: Partial<CrawlSettings> = {},
): Promise<CrawlOutcome> {
  return crawlBazaar(
    {
      db,
      databaseUrl,
      logger: testLogger,
      settings: testCrawlSettings(settings),
      feed: { pageSize: 3, ...feed },
    },
    { url, trigger: "manual" },
  );
}
