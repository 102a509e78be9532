import { finishCrawlRun, recordCrawlErrors, startCrawlRun } from "../../catalogue/crawl-runs";
import { mergeServicesByDomain } from "../../catalogue/merge";
import {
  delistMissing,
  extendUnchangedHistory,
  loadKnownServices,
  markListed,
} from "../../catalogue/service-writes";
import type { CrawlDependencies, CrawlOutcome, CrawlRequest } from "../../crawl/crawl-directory";
import { CrawlSession } from "../../crawl/crawl-session";
import { crawlExclusively } from "../../crawl/exclusive-crawl";
import type { CrawlStatus } from "../../generated/prisma/enums";
import type { Logger } from "../../logging/logger";
import { feedSettingsFrom } from "./feed-settings";
import { feedBaseUrl } from "./feed-url";
import {
  type FeedFailure,
  type FeedHandlers,
  type FeedSettings,
  type FeedWalk,
  walkFeed,
} from "./fetch-feed";
import { groupIntoServices } from "./services";
import { storeFeedServices } from "./store-services";
import type { BazaarResource } from "./types";

export interface BazaarCrawlDependencies extends CrawlDependencies {
  /** Feed-walk settings beyond what the crawl settings give (tests: page size, concurrency). */
  feed?: Partial<FeedSettings>;
}

const PROGRESS_EVERY_PAGES = 20;

/**
 * One crawl of a Bazaar discovery feed: walk every page, group the resources into services by
 * origin, store what changed (with each endpoint's payment options), then, only if the whole
 * feed was read, delist this feed's services that are gone. Same lock, run record and outcome
 * as a directory crawl, so schedules, health and exit codes treat both alike.
 */
export function crawlBazaar(deps: BazaarCrawlDependencies, request: CrawlRequest): Promise<CrawlOutcome> {
  const feedUrl = feedBaseUrl(request.url);
  return crawlExclusively(deps, "bazaar", feedUrl, (sourceId) => runLocked(deps, request, sourceId, feedUrl));
}

async function runLocked(
  deps: BazaarCrawlDependencies,
  request: CrawlRequest,
  sourceId: string,
  feedUrl: string,
): Promise<CrawlOutcome> {
  const { db } = deps;
  const run = await startCrawlRun(db, sourceId, request.trigger);
  const logger = deps.logger.child({ crawlRun: run.id, source: feedUrl });
  const known = await loadKnownServices(db, sourceId);
  const session = new CrawlSession(sourceId, run.id, feedUrl, known, new Map());
  logger.info({ knownServices: known.size, trigger: request.trigger }, "feed crawl started");

  const resources: BazaarResource[] = [];
  const failures: FeedFailure[] = [];
  let walk: FeedWalk | null = null;
  let crashed: unknown = null;
  try {
    const settings = feedSettingsFrom(deps.settings, deps.feed);
    walk = await walkFeed(feedUrl, settings, collect(session, resources, failures, logger), request.signal);
  } catch (error) {
    crashed = error;
    logger.error({ err: error }, "feed walk stopped with an error");
  }
  await recordCrawlErrors(db, run.id, session.takeErrors());

  const aborted = walk?.aborted === true || request.signal?.aborted === true;
  const services = groupIntoServices(resources);
  const complete = walk?.complete === true && !aborted && crashed === null && services.length > 0;
  const observedAt = new Date();
  const { heldBack } = await storeFeedServices(db, session, services, { complete, observedAt }, logger);
  await recordCrawlErrors(db, run.id, session.takeErrors());
  const seenUrls = services.map((s) => s.detailUrl);
  await markListed(db, sourceId, seenUrls, observedAt);
  await extendUnchangedHistory(db, session.unchangedServiceIds, observedAt);
  session.counts.servicesSeen = services.length;
  session.counts.listingComplete = complete;
  if (complete) session.counts.servicesDelisted = await delistMissing(db, sourceId, seenUrls, observedAt);

  const { status, message } = outcomeOf({
    walk,
    aborted,
    crashed,
    services: services.length,
    failures,
    heldBack,
  });
  await mergeServicesByDomain(db).catch((err: unknown) =>
    logger.warn({ err }, "merging services by domain failed"),
  );
  await finishCrawlRun(db, run.id, run.startedAt, status, session.counts, message);
  const durationMs = Date.now() - run.startedAt.getTime();
  logger.info(
    { status, durationMs, ...session.counts },
    summaryLine(session, status, durationMs, resources.length),
  );
  return { status, runId: run.id, counts: session.counts, durationMs, message };
}

/** Turns walk events into run counters, recorded errors and the list of resources read. */
function collect(
  session: CrawlSession,
  resources: BazaarResource[],
  failures: FeedFailure[],
  logger: Logger,
): FeedHandlers {
  return {
    onPage({ url, page, rawItems, pagesPlanned }) {
      session.counts.pagesFetched += 1;
      for (const item of page.items) resources.push(item);
      // A malformed item is skipped and reported; it never costs the rest of its page.
      for (const problem of page.problems) {
        session.counts.valueProblems += 1;
        session.recordError({
          kind: "value",
          url,
          field: `items[${problem.index}]`,
          rawText: JSON.stringify(rawItems[problem.index]) ?? null,
          message: problem.reason,
        });
      }
      if (session.counts.pagesFetched % PROGRESS_EVERY_PAGES === 0) {
        logger.info(
          { pagesRead: session.counts.pagesFetched, pagesPlanned, resources: resources.length },
          `feed progress: ${session.counts.pagesFetched}/${pagesPlanned} pages`,
        );
      }
    },
    onFailure(failure) {
      failures.push(failure);
      session.counts.pagesFailed += 1;
      session.recordError({
        kind: "fetch",
        url: failure.url,
        statusCode: failure.status,
        message: failure.message,
      });
      logger.warn(
        { url: failure.url, status: failure.status, reason: failure.message },
        "feed page could not be read",
      );
    },
  };
}

interface RunFacts {
  walk: FeedWalk | null;
  aborted: boolean;
  crashed: unknown;
  services: number;
  failures: FeedFailure[];
  heldBack: number;
}

function outcomeOf(facts: RunFacts): { status: CrawlStatus; message: string | null } {
  const { walk } = facts;
  if (facts.aborted) return { status: "aborted", message: "stopped before the end; nothing was delisted" };
  if (facts.crashed !== null || walk === null) {
    return { status: "failed", message: `crawler error: ${String(facts.crashed)}` };
  }
  if (walk.pagesRead === 0) {
    return {
      status: "failed",
      message: `the feed could not be read: ${facts.failures[0]?.message ?? "no answer"}`,
    };
  }
  if (facts.services === 0) {
    return { status: "failed", message: "the feed listed no usable resources; nothing was delisted" };
  }
  if (!walk.complete) {
    const held =
      facts.heldBack > 0 ? `; ${facts.heldBack} services seen only in part were left as stored` : "";
    return {
      status: "partial",
      message:
        `feed not fully read (${walk.pagesRead} pages read, ${walk.pagesFailed} failed): ` +
        `${walk.reasons.join("; ")}; nothing was delisted${held}`,
    };
  }
  return { status: "completed", message: null };
}

function summaryLine(
  session: CrawlSession,
  status: CrawlStatus,
  durationMs: number,
  resources: number,
): string {
  const c = session.counts;
  return (
    `feed crawl ${status} in ${(durationMs / 1000).toFixed(1)} s: ${resources} resources in ${c.servicesSeen} services ` +
    `(${c.servicesNew} new, ${c.servicesUpdated} updated, ${c.servicesUnchanged} unchanged, ${c.servicesDelisted} delisted); ` +
    `pages ${c.pagesFetched} read, ${c.pagesFailed} failed; ${c.valueProblems} value problems`
  );
}
