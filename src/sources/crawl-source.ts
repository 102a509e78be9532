import type { CrawlOutcome, CrawlRequest } from "../crawl-run/outcome";
import { type BazaarCrawlDependencies, crawlBazaar } from "./bazaar/crawl-bazaar";
import { feedBaseUrl } from "./bazaar/feed-url";
import { crawlDirectory } from "./html-directory/crawl-directory";
import { canonicalPageUrl } from "./html-directory/url-identity";
import type { SourceSpec } from "./source-spec";

export type CrawlTrigger = CrawlRequest["trigger"];

/** The base URL a crawl of this source records (sources.base_url), so callers can find its runs. */
export function sourceBaseUrl(source: SourceSpec): string {
  return source.kind === "bazaar" ? feedBaseUrl(source.url) : canonicalPageUrl(source.url);
}

/** One crawl of one source, by its kind. Both kinds share the lock, run record and outcome. */
export function crawlSource(
  deps: BazaarCrawlDependencies,
  source: SourceSpec,
  trigger: CrawlTrigger,
  signal?: AbortSignal,
): Promise<CrawlOutcome> {
  const request = { url: source.url, trigger, signal };
  switch (source.kind) {
    case "html_directory":
      return crawlDirectory(deps, request);
    case "bazaar":
      return crawlBazaar(deps, request);
  }
}
