import type { CrawlSettings } from "../../crawl-run/settings";

/** How manifests are fetched: the crawl's politeness settings, applied to origins instead of pages. */
export interface ManifestSettings {
  /** Origins read at once; each origin gets one request at a time. */
  concurrency: number;
  /** Ceiling of request starts per minute, over all origins. */
  requestsPerMinute: number;
  /** The whole read of one manifest URL, redirects included. */
  timeoutMs: number;
  /** A larger answer is not read: a manifest is a small document. */
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  /** Non-public ranges the address guard lets through (tests: loopback). */
  allowedNetworks: string[];
}

/** Real manifests are a few KB; a megabyte is a listing of thousands of resources. */
const MANIFEST_MAX_BYTES = 1_048_576;

export function manifestSettingsFrom(
  crawl: CrawlSettings,
  overrides: Partial<ManifestSettings> = {},
): ManifestSettings {
  return {
    concurrency: crawl.maxConcurrency,
    requestsPerMinute: crawl.maxRequestsPerMinute,
    timeoutMs: crawl.requestTimeoutSeconds * 1000,
    maxBytes: Math.min(MANIFEST_MAX_BYTES, crawl.maxPageBytes),
    maxRedirects: 3,
    userAgent: crawl.userAgent,
    allowedNetworks: crawl.allowedNetworks,
    ...overrides,
  };
}
