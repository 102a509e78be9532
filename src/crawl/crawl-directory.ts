import { finishCrawlRun, recordCrawlErrors, startCrawlRun } from "../catalogue/crawl-runs";
import { mergeServicesByDomain } from "../catalogue/merge";
import { loadPageCache, savePageCache } from "../catalogue/page-cache";
import {
  delistMissing,
  extendUnchangedHistory,
  loadKnownServices,
  markListed,
} from "../catalogue/service-writes";
import type { Database } from "../db/prisma-client";
import type { CrawlStatus } from "../generated/prisma/enums";
import type { Logger } from "../logging/logger";
import { CrawlSession } from "./crawl-session";
import { buildDirectoryCrawler } from "./directory-crawler";
import { crawlExclusively } from "./exclusive-crawl";
import { ExtractionPool } from "./extraction/extraction-pool";
import { reportProgress } from "./progress";
import { RequestPacer } from "./request-pacer";
import { robotsRules } from "./robots";
import { LISTING } from "./routes/labels";
import { ServiceBatcher } from "./service-batcher";
import type { CrawlSettings } from "./settings";
import { canonicalPageUrl } from "./url-identity";

const FLUSH_INTERVAL_MS = 2_000;

export interface CrawlDependencies {
  db: Database;
  databaseUrl: string;
  logger: Logger;
  settings: CrawlSettings;
}

export interface CrawlRequest {
  url: string;
  trigger: "manual" | "schedule";
  /** Stops the crawl early (shutdown): the run is recorded as aborted and nothing is delisted. */
  signal?: AbortSignal;
}

export type CrawlOutcome =
  | { status: "skipped"; reason: string }
  | {
      status: CrawlStatus;
      runId: string;
      counts: CrawlSession["counts"];
      durationMs: number;
      message: string | null;
    };

/**
 * One crawl of an HTML directory: walk the listing and detail pages, store what changed, then,
 * only if the whole listing was read, delist what the directory no longer shows.
 * Never runs twice at once for a source, across every process sharing the database.
 */
export function crawlDirectory(deps: CrawlDependencies, request: CrawlRequest): Promise<CrawlOutcome> {
  const startUrl = canonicalPageUrl(request.url);
  return crawlExclusively(deps, "html_directory", startUrl, (sourceId) =>
    runLocked(deps, request, sourceId, startUrl),
  );
}

async function runLocked(
  deps: CrawlDependencies,
  request: CrawlRequest,
  sourceId: string,
  startUrl: string,
): Promise<CrawlOutcome> {
  const { db, settings } = deps;
  const run = await startCrawlRun(db, sourceId, request.trigger);
  const logger = deps.logger.child({ crawlRun: run.id, source: startUrl });
  const [known, pageCache] = await Promise.all([
    loadKnownServices(db, sourceId),
    loadPageCache(db, sourceId),
  ]);
  const session = new CrawlSession(sourceId, run.id, startUrl, known, pageCache);
  logger.info(
    { knownServices: known.size, cachedPages: pageCache.size, trigger: request.trigger },
    "crawl started",
  );

  const batcher = new ServiceBatcher(db, session, logger);
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
  // Stored progressively, so a long crawl's findings show up (and survive a crash) as it goes.
  const flusher = setInterval(
    () =>
      void Promise.all([batcher.flush(), flush(db, session)]).catch((err) =>
        logger.error({ err }, "flush failed"),
      ),
    FLUSH_INTERVAL_MS,
  );
  let aborted = false;
  const onAbort = () => {
    aborted = true;
    logger.warn("stop requested: finishing pages in flight, then ending the crawl");
    void crawler.stop();
  };
  request.signal?.addEventListener("abort", onAbort, { once: true });
  if (request.signal?.aborted) onAbort();

  let crashed: unknown = null;
  try {
    session.listingUrls.add(startUrl);
    await crawler.run([{ url: startUrl, label: LISTING, headers: session.conditionalHeaders(startUrl) }]);
  } catch (error) {
    crashed = error;
    logger.error({ err: error }, "crawler stopped with an error");
  } finally {
    clearInterval(flusher);
    stopProgress();
    await extraction.close();
    request.signal?.removeEventListener("abort", onAbort);
  }

  logger.info(
    { pages: session.counts.pagesFetched + session.counts.pagesUnchanged },
    "pages done; storing the rest",
  );
  await batcher.flush();
  const observedAt = new Date();
  const listedUrls = [...session.listed.keys()];
  await flush(db, session);
  await markListed(db, sourceId, listedUrls, observedAt);
  await extendUnchangedHistory(db, session.unchangedServiceIds, observedAt);
  session.counts.servicesSeen = session.listed.size;
  session.counts.listingComplete = !aborted && crashed === null && session.listingComplete();

  const { status, message } = outcomeOf(session, aborted, crashed);
  if (session.counts.listingComplete) {
    session.counts.servicesDelisted = await delistMissing(db, sourceId, listedUrls, observedAt);
  }
  await mergeServicesByDomain(db).catch((err: unknown) =>
    logger.warn({ err }, "merging services by domain failed"),
  );
  await finishCrawlRun(db, run.id, run.startedAt, status, session.counts, message);
  const durationMs = Date.now() - run.startedAt.getTime();
  logger.info({ status, durationMs, ...session.counts }, summaryLine(session, status, durationMs));
  return { status, runId: run.id, counts: session.counts, durationMs, message };
}

async function flush(db: Database, session: CrawlSession): Promise<void> {
  await savePageCache(db, session.sourceId, session.takePageWrites());
  await recordCrawlErrors(db, session.runId, session.takeErrors());
}

function outcomeOf(
  session: CrawlSession,
  aborted: boolean,
  crashed: unknown,
): { status: CrawlStatus; message: string | null } {
  if (aborted) return { status: "aborted", message: "stopped before the end; nothing was delisted" };
  if (crashed) return { status: "failed", message: `crawler error: ${String(crashed)}` };
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
  if (!session.listingComplete()) {
    const stated = session.statedListingPages;
    return {
      status: "partial",
      message:
        `listing not fully read (${session.listingPagesRead} pages read, ${session.listingPagesFailed} failed` +
        `${stated ? `, ${stated} stated` : ""}); nothing was delisted`,
    };
  }
  return { status: "completed", message: null };
}

function summaryLine(session: CrawlSession, status: CrawlStatus, durationMs: number): string {
  const c = session.counts;
  return (
    `crawl ${status} in ${(durationMs / 1000).toFixed(1)} s: ${c.servicesSeen} services ` +
    `(${c.servicesNew} new, ${c.servicesUpdated} updated, ${c.servicesUnchanged} unchanged, ${c.servicesDelisted} delisted); ` +
    `pages ${c.pagesFetched} fetched, ${c.pagesUnchanged} unchanged, ${c.pagesFailed} failed; ${c.valueProblems} unreadable values`
  );
}
