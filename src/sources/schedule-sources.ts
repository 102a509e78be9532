import { sourcesCrawledSince } from "../catalogue/crawl-runs";
import type { CrawlOutcome } from "../crawl-run/outcome";
import type { Logger } from "../logging/logger";
import { scheduleJob } from "../scheduling/crawl-schedule";
import { type CrawlTrigger, crawlSource, type SourceCrawlDependencies, sourceBaseUrl } from "./crawl-source";
import type { SourceSpec } from "./source-spec";

/** A source crawled successfully this recently is not crawled again at start-up: restarts must not hammer sources. */
const STARTUP_FRESHNESS_MS = 60 * 60 * 1000;

export interface SourceCrawls {
  /** Stops the schedule, aborts any crawl in flight (start-up one included) and waits for it. */
  stop(): Promise<void>;
  nextRun(): Date | null;
  /** The start-up crawl; settles when it has ended, never rejects. */
  startup: Promise<void>;
}

/**
 * Crawls the sources one after another on `schedule`, and once right away for the sources not
 * crawled in the last hour, so a new catalogue has data without waiting for the first tick.
 * Nothing here stops the process: a source that cannot be reached (no internet) is logged and
 * recorded as a failed run, and the API keeps serving.
 */
export function scheduleSourceCrawls(
  deps: SourceCrawlDependencies,
  sources: SourceSpec[],
  schedule: string,
  logger: Logger,
): SourceCrawls {
  if (sources.length === 0) {
    logger.info(
      "no sources configured (SOURCES=none): no crawl is scheduled (`npm run crawl -- URL` crawls once)",
    );
    return { stop: async () => {}, nextRun: () => null, startup: Promise.resolve() };
  }
  const job = scheduleJob(
    "crawl",
    schedule,
    async (signal) => {
      await crawlAll(deps, sources, "schedule", signal, logger);
    },
    logger,
  );
  const controller = new AbortController();
  const startup = crawlStale(deps, sources, controller.signal, logger).catch((err: unknown) =>
    logger.error({ err }, "start-up crawl failed"),
  );
  return {
    nextRun: () => job.nextRun(),
    startup,
    async stop() {
      controller.abort();
      await Promise.all([job.stop(), startup]);
    },
  };
}

async function crawlStale(
  deps: SourceCrawlDependencies,
  sources: SourceSpec[],
  signal: AbortSignal,
  logger: Logger,
): Promise<void> {
  const since = new Date(Date.now() - STARTUP_FRESHNESS_MS);
  const fresh = await sourcesCrawledSince(
    deps.db,
    sources.map((s) => ({ kind: s.kind, baseUrl: sourceBaseUrl(s) })),
    since,
  );
  const stale = sources.filter((s) => !fresh.has(`${s.kind} ${sourceBaseUrl(s)}`));
  if (stale.length === 0) {
    logger.info("every source was crawled successfully within the hour: no start-up crawl");
    return;
  }
  logger.info(
    { sources: stale.map(sourceBaseUrl) },
    "start-up crawl of sources not successfully crawled within the hour",
  );
  const statuses = await crawlAll(deps, stale, "schedule", signal, logger);
  if (!signal.aborted && statuses.every((status) => status === "failed")) logger.warn(NOTHING_CRAWLED);
}

/** A first start with no configuration and no internet must say how to get a catalogue at all. */
export const NOTHING_CRAWLED =
  "nothing could be crawled at start-up (no source answered: no internet, or a wrong URL). " +
  "Crawl a directory once with `npm run crawl -- URL`, or set SOURCES (or DIRECTORY_URL) to the sources " +
  "to crawl on the schedule; the API keeps serving what is stored";

/** One source after another; one that fails never keeps the next from being crawled. */
async function crawlAll(
  deps: SourceCrawlDependencies,
  sources: SourceSpec[],
  trigger: CrawlTrigger,
  signal: AbortSignal,
  logger: Logger,
): Promise<CrawlOutcome["status"][]> {
  const statuses: CrawlOutcome["status"][] = [];
  for (const source of sources) {
    if (signal.aborted) break;
    try {
      statuses.push((await crawlSource(deps, source, trigger, signal)).status);
    } catch (err) {
      statuses.push("failed");
      logger.error({ err, source: sourceBaseUrl(source), kind: source.kind }, "crawl of a source failed");
    }
  }
  return statuses;
}
