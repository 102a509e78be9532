import type { CrawlOutcome, CrawlRequest } from "../crawl-run/outcome";
import { type BazaarCrawlDependencies, crawlBazaar } from "./bazaar/crawl-bazaar";
import { feedBaseUrl } from "./bazaar/feed-url";
import { crawlDirectory } from "./html-directory/crawl-directory";
import { canonicalPageUrl } from "./html-directory/url-identity";
import {
  crawlOriginManifests,
  MANIFEST_SOURCE_URL,
  type ManifestCrawlDependencies,
} from "./origin-manifest/crawl-manifests";
import type { SourceSpec } from "./source-spec";

export type CrawlTrigger = CrawlRequest["trigger"];

/** What a crawl of any kind may be given (tests add feed and manifest settings). */
export type SourceCrawlDependencies = BazaarCrawlDependencies & ManifestCrawlDependencies;

/** The base URL a crawl of this source records (sources.base_url), so callers can find its runs. */
export function sourceBaseUrl(source: SourceSpec): string {
  switch (source.kind) {
    case "bazaar":
      return feedBaseUrl(source.url);
    case "html_directory":
      return canonicalPageUrl(source.url);
    case "origin_manifest":
      return MANIFEST_SOURCE_URL;
  }
}

/** One crawl of one source, by its kind. Every kind shares the lock, run record and outcome. */
export function crawlSource(
  deps: SourceCrawlDependencies,
  source: SourceSpec,
  trigger: CrawlTrigger,
  signal?: AbortSignal,
): Promise<CrawlOutcome> {
  switch (source.kind) {
    case "html_directory":
      return crawlDirectory(deps, { url: source.url, trigger, signal });
    case "bazaar":
      return crawlBazaar(deps, { url: source.url, trigger, signal });
    case "origin_manifest":
      return crawlOriginManifests(deps, { url: MANIFEST_SOURCE_URL, trigger, signal }, source.origins);
  }
}
