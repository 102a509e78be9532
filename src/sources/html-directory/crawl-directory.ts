import type { CrawlSession } from "../../crawl-run/crawl-session";
import type { CrawlDependencies, CrawlOutcome, CrawlRequest } from "../../crawl-run/outcome";
import { runSource, type SourceWalker, type WalkContext, type WalkReport } from "../../crawl-run/run-source";
import type { Database } from "../../db/prisma-client";
import { type DetailCandidate, detailBudget, planDetailPages } from "./detail-plan";
import { detailRequestChunks } from "./detail-requests";
import { buildDirectoryCrawler, type DirectoryCrawler } from "./directory-crawler";
import { ExtractionPool } from "./extraction/extraction-pool";
import { reportProgress } from "./progress";
import { RequestPacer } from "./request-pacer";
import { robotsRules } from "./robots";
import { saveFromListing } from "./routes/detail-route";
import { LISTING } from "./routes/labels";
import { RunConnections } from "./run-connections";
import { canonicalPageUrl } from "./url-identity";

/** Deferred services stored per transaction: bounded statements, few round trips. */
const DEFERRED_BATCH = 1_000;

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

/** Reads the whole listing (following pagination), then the detail pages the run's budget allows. */
async function walkDirectory(
  deps: CrawlDependencies,
  startUrl: string,
  { session, batcher, logger, signal }: WalkContext,
): Promise<WalkReport> {
  const { db, settings } = deps;
  const extraction = new ExtractionPool(settings.extractionThreads);
  const shared = {
    db,
    session,
    settings,
    batcher,
    extraction,
    pacer: new RequestPacer(settings.maxRequestsPerMinute),
    robotsAllow: robotsRules(settings),
    signal,
  };
  const stopProgress = reportProgress(session, logger, settings.progressIntervalMs);
  let aborted = false;
  let crawler: DirectoryCrawler | null = null;
  // Each run (the listing, then each chunk of detail pages) has a crawler and connections of its
  // own, dropped when it ends: Crawlee keeps a run's whole queue in memory, and its request queues
  // stay registered with their crawler's event manager after they are dropped (one per run, 16 MB
  // of deduplication slots each), so a crawler reused for 21 runs held every queue to the end.
  // Crawlee caches robots.txt per crawler: it is asked once per run (the listing, each chunk).
  let connections: RunConnections | null = null;
  const runCrawler = async (requests: Parameters<DirectoryCrawler["run"]>[0]) => {
    connections = new RunConnections();
    crawler = buildDirectoryCrawler({ ...shared, connections }, logger);
    if (aborted) void crawler.stop();
    try {
      await crawler.run(requests);
    } finally {
      crawler = null;
      connections.close();
      connections = null;
    }
  };
  // A stop ends the pages in flight too (their connections are closed): a slow directory would
  // otherwise hold the crawl until each answered or timed out.
  const onAbort = () => {
    aborted = true;
    logger.warn("stop requested: ending the pages in flight and the crawl");
    void crawler?.stop();
    connections?.close();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();

  let crashed: unknown = null;
  let deferred = 0;
  try {
    session.listingUrls.add(startUrl);
    await runCrawler([{ url: startUrl, label: LISTING, headers: session.conditionalHeaders(startUrl) }]);
    const budget = detailBudget(settings.runMinutes, settings.maxRequestsPerMinute, session.listingUrls.size);
    const plan = planDetailPages(detailCandidates(session), budget);
    deferred = plan.deferred.length;
    if (plan.deferred.length > 0) {
      logger.info(
        {
          budget,
          fetch: plan.fetch.length,
          revalidate: plan.revalidate.length,
          deferred: plan.deferred.length,
        },
        `detail pages: ${plan.deferred.length} left for later runs (CRAWL_RUN_MINUTES budget); they stay listed as stored`,
      );
    }
    // Each chunk is a run of its own, so the queue in memory holds 5,000 pages, not every page
    // of a 100,000-page crawl.
    for (const chunk of detailRequestChunks(session, plan)) {
      if (aborted) break;
      await runCrawler(chunk);
    }
    if (!aborted) await saveDeferred(db, session, plan.deferred);
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
    readSummary:
      `pages ${c.pagesFetched} fetched, ${c.pagesUnchanged} unchanged, ${c.pagesFailed} failed` +
      (deferred > 0 ? `, ${deferred} detail pages left for later runs` : ""),
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

function detailCandidates(session: CrawlSession): DetailCandidate[] {
  return Array.from(session.listed.keys(), (detailUrl) => {
    const validators = session.known.has(detailUrl) ? session.pageCache.get(detailUrl) : undefined;
    return {
      detailUrl,
      revalidatable: Boolean(validators?.etag || validators?.lastModified),
      checkedAt: validators ? validators.fetchedAt.getTime() : null,
    };
  });
}

/**
 * Services whose detail page waits for a later run: a new one is stored from what the listing
 * says (as when its page cannot be read), a known one keeps what is stored. Both stay listed:
 * listing and delisting follow the listing, which was read in full.
 */
async function saveDeferred(db: Database, session: CrawlSession, deferred: string[]): Promise<void> {
  for (let i = 0; i < deferred.length; i += DEFERRED_BATCH) {
    await saveFromListing(db, session, deferred.slice(i, i + DEFERRED_BATCH));
  }
}
