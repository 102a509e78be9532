import type { CrawlSettings } from "../../crawl-run/settings";
import type { FeedSettings } from "./fetch-feed";

/** Items asked for per page; a feed serving fewer is followed by what it serves (see nextOffsets). */
const DEFAULT_PAGE_SIZE = 100;

/**
 * A feed walk's limits, from the same crawl settings as a directory crawl: the request-rate
 * ceiling becomes the pause between pages, the listing-page limit the page limit. One page at a
 * time by default: a feed is one shared public API, and the walk is short anyway.
 */
export function feedSettingsFrom(
  settings: CrawlSettings,
  overrides: Partial<FeedSettings> = {},
): FeedSettings {
  return {
    pageSize: DEFAULT_PAGE_SIZE,
    concurrency: 1,
    delayMs: Math.ceil(60_000 / settings.maxRequestsPerMinute),
    maxPages: settings.maxListingPages,
    maxRetries: settings.maxRetries,
    retryBaseDelayMs: settings.retryBaseDelayMs,
    requestTimeoutMs: settings.requestTimeoutSeconds * 1000,
    maxBytes: settings.maxPageBytes,
    userAgent: settings.userAgent,
    ...overrides,
  };
}
