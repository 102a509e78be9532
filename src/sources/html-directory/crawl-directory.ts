import type { CrawlSession } from "../../crawl-run/crawl-session";
import type { CrawlDependencies, CrawlOutcome, CrawlRequest } from "../../crawl-run/outcome";
import { runSource, type SourceWalker, type WalkContext, type WalkReport } from "../../crawl-run/run-source";
import { buildDirectoryCrawler } from "./directory-crawler";
import { ExtractionPool } from "./extraction/extraction-pool";
import { reportProgress } from "./progress";
import { RequestPacer } from "./request-pacer";
import { robotsRules } from "./robots";
import { LISTING } from "./routes/labels";
import { canonicalPageUrl } from "./url-identity";

/**
 * One crawl of an HTML directory: walk the listing and detail pages, store what changed, then,
 * only if the whole listing was read, delist what the directory no longer shows (the shared run).
 */
export function crawlDirectory(deps: CrawlDependencies, request: CrawlRequest): Promise<CrawlOutcome> {
  return runSource(deps, request, directoryWalker(deps, canonicalPageUrl(request.url)));
}

function directoryWalker(deps: CrawlDependencies, startUrl: string): SourceWalker {
  return {
    kind: "html_directory",
    baseUrl: startUrl,
    name: "crawl",
    walk: (context) => walkDirectory(deps, startUrl, context),
  };
}

/** Reads the listing pages (following pagination) and the detail pages they link to. */
async function walkDirectory(
  deps: CrawlDependencies,
  startUrl: string,
  { session, batcher, logger, signal }: WalkContext,
): Promise<WalkReport> {
  const { db, settings } = deps;
  const extraction = new ExtractionPool(settings.extractionThreads);
  const crawler = buildDirectoryCrawler(
    {
      db,
      session,
      settings,
      batcher,
      extraction,
      pacer: new RequestPacer(settings.maxRequestsPerMinute),
      robotsAllow: robotsRules(settings),
    },
    logger,
  );
  const stopProgress = reportProgress(session, logger, settings.progressIntervalMs);
  let aborted = false;
  const onAbort = () => {
    aborted = true;
    logger.warn("stop requested: finishing pages in flight, then ending the crawl");
    void crawler.stop();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();

  let crashed: unknown = null;
  try {
    session.listingUrls.add(startUrl);
    await crawler.run([{ url: startUrl, label: LISTING, headers: session.conditionalHeaders(startUrl) }]);
  } catch (error) {
    crashed = error;
    logger.error({ err: error }, "crawler stopped with an error");
  } finally {
    stopProgress();
    await extraction.close();
    signal?.removeEventListener("abort", onAbort);
  }
  const c = session.counts;
  logger.info({ pages: c.pagesFetched + c.pagesUnchanged }, "pages done; storing the rest");
  if (session.unfollowedListingUrls.size > 0) {
    logger.error(
      {
        limit: deps.settings.maxListingPages,
        followed: session.listingUrls.size,
        notFollowed: session.unfollowedListingUrls.size,
        firstNotFollowed: session.unfollowedListingUrls.values().next().value,
      },
      "the listing-page limit cut the listing: this run is partial and delists nothing",
    );
  }
  return {
    listedUrls: [...session.listed.keys()],
    aborted,
    crashed,
    shortfall: shortfallOf(session),
    readSummary: `pages ${c.pagesFetched} fetched, ${c.pagesUnchanged} unchanged, ${c.pagesFailed} failed`,
  };
}

function shortfallOf(session: CrawlSession): WalkReport["shortfall"] {
  if (session.listingPagesRead === 0) {
    const why = session.firstListingFailure;
    return { status: "failed", message: `the listing could not be read${why ? `: ${why}` : ""}` };
  }
  if (session.listed.size === 0) {
    return {
      status: "failed",
      message: "the listing showed no services (has the directory changed its markup?)",
    };
  }
  const unfollowed = session.unfollowedListingUrls.size;
  if (unfollowed > 0) {
    return {
      status: "partial",
      message:
        `listing cut by the listing-page limit: ${session.listingUrls.size} pages followed, ${unfollowed} more linked ` +
        "but not followed (raise CRAWL_MAX_LISTING_PAGES if the directory is that large); nothing was delisted",
    };
  }
  if (!session.listingComplete()) {
    const stated = session.statedListingPages;
    return {
      status: "partial",
      message:
        `listing not fully read (${session.listingPagesRead} pages read, ${session.listingPagesFailed} failed` +
        `${stated ? `, ${stated} stated` : ""}); nothing was delisted`,
    };
  }
  return null;
}
