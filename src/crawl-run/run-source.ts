import { announceCatalogueChange, pruneCatalogueChanges } from "../catalogue/catalogue-changes";
import { abandonStaleRuns, finishCrawlRun, recordCrawlErrors, startCrawlRun } from "../catalogue/crawl-runs";
import { delistMissing, extendUnchangedHistory, markListed } from "../catalogue/end-of-run-writes";
import { mergeServicesByDomain } from "../catalogue/merge";
import { loadPageValidators, markPagesChecked, savePageCache } from "../catalogue/page-cache";
import { loadKnownServices } from "../catalogue/service-writes";
import { ensureSource } from "../catalogue/sources";
import type { Database } from "../db/prisma-client";
import type { CrawlStatus, SourceKind } from "../generated/prisma/enums";
import type { Logger } from "../logging/logger";
import { metrics } from "../metrics/metrics";
import { tryLockSource } from "../scheduling/source-lock";
import { CrawlSession } from "./crawl-session";
import type { CrawlDependencies, CrawlOutcome, CrawlRequest } from "./outcome";
import { ServiceBatcher } from "./service-batcher";

const FLUSH_INTERVAL_MS = 2_000;

/** What a source kind's walk is given: the run's session to fill and its batch writer. */
export interface WalkContext {
  session: CrawlSession;
  batcher: ServiceBatcher;
  logger: Logger;
  signal?: AbortSignal;
}

/** What a walk read, and whether the source's whole listing was read. */
export interface WalkReport {
  /** Detail URLs of every service the source showed in this run (stored or unchanged). */
  listedUrls: string[];
  /** A stop was requested and the walk ended early. */
  aborted: boolean;
  /** The error that ended the walk, or null. */
  crashed: unknown;
  /**
   * Why the listing was not read in full, or null when it was. Only a walk with no reason, not
   * aborted and not crashed, may delist what it did not see.
   */
  shortfall: { status: "failed" | "partial"; message: string } | null;
  /** What was read, for the run's closing log line ("pages 12 fetched, 0 failed"). */
  readSummary: string;
}

/** A source kind: where its run is recorded, and the walk that reads it. */
export interface SourceWalker {
  kind: SourceKind;
  /** The source's base URL as recorded (sources.base_url). */
  baseUrl: string;
  /** Names the run in log lines ("crawl", "feed crawl"). */
  name: string;
  walk(context: WalkContext): Promise<WalkReport>;
}

/**
 * One crawl run of one source, the same for every kind: under the source's lock, record the run,
 * let the kind walk it (storing changed services through the batch writer as it goes), then mark
 * what was listed, delist what is gone only if the whole listing was read, merge, and finish.
 * Never runs twice at once for a source, across every process sharing the database.
 */
export async function runSource(
  deps: CrawlDependencies,
  request: CrawlRequest,
  walker: SourceWalker,
): Promise<CrawlOutcome> {
  const { db, logger } = deps;
  const url = walker.baseUrl;
  const source = await ensureSource(db, walker.kind, url);
  const lock = await tryLockSource(deps.databaseUrl, source.id);
  if (!lock) {
    const reason = `a crawl of ${url} is already running (another process holds its lock); skipping this one`;
    logger.warn({ source: url }, reason);
    return { status: "skipped", reason };
  }
  try {
    const abandoned = await abandonStaleRuns(db, source.id);
    if (abandoned > 0)
      logger.warn({ source: url, runs: abandoned }, "marked runs of a dead process as aborted");
    const outcome = await runLocked(deps, request, walker, source.id);
    await pruneCatalogueChanges(db); // the change log a crawl grows (see catalogue-changes.ts)
    // Running API processes reload now rather than at their next periodic check.
    await announceCatalogueChange(db).catch((err: unknown) =>
      logger.warn({ err }, "could not announce the catalogue change; APIs see it at their next check"),
    );
    return outcome;
  } finally {
    await lock.release();
  }
}

async function runLocked(
  deps: CrawlDependencies,
  request: CrawlRequest,
  walker: SourceWalker,
  sourceId: string,
): Promise<CrawlOutcome> {
  const { db } = deps;
  const run = await startCrawlRun(db, sourceId, request.trigger);
  const logger = deps.logger.child({ crawlRun: run.id, source: walker.baseUrl });
  const [known, pageCache] = await Promise.all([
    loadKnownServices(db, sourceId),
    loadPageValidators(db, sourceId),
  ]);
  const session = new CrawlSession(sourceId, run.id, walker.baseUrl, known, pageCache);
  logger.info(
    { knownServices: known.size, cachedPages: pageCache.size, trigger: request.trigger },
    `${walker.name} started`,
  );

  const batcher = new ServiceBatcher(db, session, logger);
  // Stored progressively, so a long crawl's findings show up (and survive a crash) as it goes.
  const flusher = setInterval(
    () =>
      void Promise.all([batcher.flush(), flushSession(db, session)]).catch((err) =>
        logger.error({ err }, "flush failed"),
      ),
    FLUSH_INTERVAL_MS,
  );
  let report: WalkReport;
  try {
    report = await walker.walk({ session, batcher, logger, signal: request.signal });
  } catch (error) {
    logger.error({ err: error }, `${walker.name} stopped with an error`);
    report = { listedUrls: [], aborted: false, crashed: error, shortfall: null, readSummary: "" };
  } finally {
    clearInterval(flusher);
  }

  await batcher.flush();
  const observedAt = new Date();
  await flushSession(db, session);
  await markListed(db, sourceId, report.listedUrls, observedAt);
  await extendUnchangedHistory(db, session.unchangedServiceIds, observedAt);
  const { status, message } = outcomeOf(report);
  session.counts.servicesSeen = report.listedUrls.length;
  session.counts.listingComplete = status === "completed";
  if (session.counts.listingComplete) {
    session.counts.servicesDelisted = await delistMissing(db, sourceId, report.listedUrls, observedAt);
  }
  await mergeServicesByDomain(db).catch((err: unknown) =>
    logger.warn({ err }, "merging services by domain failed"),
  );
  await finishCrawlRun(db, run.id, run.startedAt, status, session.counts, message);
  const durationMs = Date.now() - run.startedAt.getTime();
  metrics.crawlRunFinished({
    kind: walker.kind,
    baseUrl: walker.baseUrl,
    status,
    pagesFetched: session.counts.pagesFetched,
    pagesFailed: session.counts.pagesFailed,
    pagesUnchanged: session.counts.pagesUnchanged,
    durationMs,
  });
  logger.info(
    { status, durationMs, ...session.counts },
    summaryLine(walker.name, session, status, durationMs, report.readSummary),
  );
  return { status, runId: run.id, counts: session.counts, durationMs, message };
}

async function flushSession(db: Database, session: CrawlSession): Promise<void> {
  await savePageCache(db, session.sourceId, session.takePageWrites());
  await markPagesChecked(db, session.sourceId, session.takeCheckedPages(), new Date());
  await recordCrawlErrors(db, session.runId, session.takeErrors());
}

function outcomeOf(report: WalkReport): { status: CrawlStatus; message: string | null } {
  if (report.aborted) return { status: "aborted", message: "stopped before the end; nothing was delisted" };
  if (report.crashed !== null)
    return { status: "failed", message: `crawler error: ${String(report.crashed)}` };
  return report.shortfall ?? { status: "completed", message: null };
}

function summaryLine(
  name: string,
  session: CrawlSession,
  status: CrawlStatus,
  durationMs: number,
  readSummary: string,
): string {
  const c = session.counts;
  return (
    `${name} ${status} in ${(durationMs / 1000).toFixed(1)} s: ${c.servicesSeen} services ` +
    `(${c.servicesNew} new, ${c.servicesUpdated} updated, ${c.servicesUnchanged} unchanged, ${c.servicesDelisted} delisted); ` +
    `${readSummary}; ${c.valueProblems} value problems`
  );
}
