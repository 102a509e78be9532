import type { CrawlSession } from "../../crawl-run/crawl-session";
import type { CrawlDependencies, CrawlOutcome, CrawlRequest } from "../../crawl-run/outcome";
import { runSource, type WalkContext, type WalkReport } from "../../crawl-run/run-source";
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
 * feed was read, delist this feed's services that are gone (the shared run, as for a directory).
 */
export function crawlBazaar(deps: BazaarCrawlDependencies, request: CrawlRequest): Promise<CrawlOutcome> {
  const feedUrl = feedBaseUrl(request.url);
  return runSource(deps, request, {
    kind: "bazaar",
    baseUrl: feedUrl,
    name: "feed crawl",
    walk: (context) => walkBazaar(deps, feedUrl, context),
  });
}

async function walkBazaar(
  deps: BazaarCrawlDependencies,
  feedUrl: string,
  { session, batcher, logger, signal }: WalkContext,
): Promise<WalkReport> {
  const resources: BazaarResource[] = [];
  const failures: FeedFailure[] = [];
  let walk: FeedWalk | null = null;
  let crashed: unknown = null;
  try {
    const settings = feedSettingsFrom(deps.settings, deps.feed);
    walk = await walkFeed(feedUrl, settings, collect(session, resources, failures, logger), signal);
  } catch (error) {
    crashed = error;
    logger.error({ err: error }, "feed walk stopped with an error");
  }

  if (walk?.cutUrl) reportCut(session, logger, walk.cutUrl, walk.pagesRead, deps.settings.maxListingPages);
  const aborted = walk?.aborted === true || signal?.aborted === true;
  const services = groupIntoServices(resources);
  const complete = walk?.complete === true && !aborted && crashed === null && services.length > 0;
  const { heldBack } = await storeFeedServices(deps.db, session, batcher, services, {
    complete,
    observedAt: new Date(),
  });
  return {
    listedUrls: services.map((s) => s.detailUrl),
    aborted,
    crashed,
    shortfall: walk && shortfallOf(walk, services.length, failures, heldBack),
    readSummary: `${resources.length} resources on pages ${session.counts.pagesFetched} read, ${session.counts.pagesFailed} failed`,
  };
}

/** The page guard cut the walk: one error row and an error line, as for a directory's listing. */
function reportCut(
  session: CrawlSession,
  logger: Logger,
  url: string,
  pagesRead: number,
  limit: number,
): void {
  const message =
    `feed page limit reached (CRAWL_MAX_LISTING_PAGES=${limit}; a total stated on the first page is always followed, ` +
    "so either that total grew or the feed states none and kept naming a next page): " +
    "pages from here on were not read; the run is partial and delists nothing";
  session.recordError({ kind: "skipped", url, message });
  logger.error({ url, limit, pagesRead }, message);
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

function shortfallOf(
  walk: FeedWalk,
  services: number,
  failures: FeedFailure[],
  heldBack: number,
): WalkReport["shortfall"] {
  if (walk.pagesRead === 0) {
    return {
      status: "failed",
      message: `the feed could not be read: ${failures[0]?.message ?? "no answer"}`,
    };
  }
  if (services === 0) {
    return { status: "failed", message: "the feed listed no usable resources; nothing was delisted" };
  }
  if (!walk.complete) {
    const held = heldBack > 0 ? `; ${heldBack} services seen only in part were left as stored` : "";
    return {
      status: "partial",
      message:
        `feed not fully read (${walk.pagesRead} pages read, ${walk.pagesFailed} failed): ` +
        `${walk.reasons.join("; ")}; nothing was delisted${held}`,
    };
  }
  return null;
}
