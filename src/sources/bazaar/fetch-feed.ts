import { feedPageUrl, pageKey, pageSizeOf } from "./feed-url";
import { fetchJson, type HttpSettings } from "./fetch-json";
import { createPacer } from "./pacer";
import { PagePlan } from "./page-plan";
import { nextPageOf } from "./pagination";
import { BazaarFeedError, feedItemsOf, parseBazaarPage } from "./parse";
import type { BazaarPage, BazaarPagination } from "./types";

export interface FeedSettings extends HttpSettings {
  /** Items asked for per page (`limit`), unless the configured URL names its own. */
  pageSize: number;
  /** Pages in flight at once. */
  concurrency: number;
  /** Least time between two request starts. */
  delayMs: number;
  /** Most pages one walk reads (a guard against a runaway `total` or an endless chain of next pages). */
  maxPages: number;
}

export interface FeedPage {
  url: string;
  /** Null for a page reached by a next link or a cursor. */
  offset: number | null;
  page: BazaarPage;
  /** The page's `items` as received, so a skipped item can be recorded as it was. */
  rawItems: unknown[];
  /** Pages the walk expects to read in all, as known when this page arrived. */
  pagesPlanned: number;
}

export interface FeedFailure {
  url: string;
  offset: number | null;
  status: number | null;
  message: string;
}

export interface FeedHandlers {
  onPage(page: FeedPage): void;
  onFailure(failure: FeedFailure): void;
}

export interface FeedWalk {
  /**
   * Every page the feed announced (by its total, or page by page until it said nothing follows)
   * was read, in one consistent state: missing items may be delisted.
   */
  complete: boolean;
  aborted: boolean;
  pagesRead: number;
  pagesFailed: number;
  /** Why the walk is not complete; empty when it is. */
  reasons: string[];
  /** The first page the page guard cut off (a total that grew past it, or a next page beyond it), or null. */
  cutUrl: string | null;
}

type PageRead = { ok: true; page: FeedPage } | { ok: false; aborted: boolean; failure: FeedFailure };

/** One page fetched and parsed; `pagesPlanned` is what the walk expects as this page arrives. */
type ReadPage = (url: string, offset: number | null, pagesPlanned: number) => Promise<PageRead>;
/** Hands a read page or failure on and counts it; false when the walk cannot rely on it. */
type RecordPage = (result: PageRead) => boolean;

/** What reading the pages after the first needs, whichever way the feed names them. */
interface WalkContext {
  feedUrl: string;
  limit: number;
  settings: FeedSettings;
  walk: FeedWalk;
  read: ReadPage;
  record: RecordPage;
  signal: AbortSignal | undefined;
}

/**
 * Walks a discovery feed, politely: paced, each page retried on transient failures. A feed that
 * states a `total` on its first page is read by `offset`/`limit`, `concurrency` pages at a time; a
 * page that fails for good is reported and skipped, the walk goes on but is then incomplete. A
 * feed that states no total but names its next page (link, cursor, `hasMore`) is read one page
 * after another (walkOnward).
 */
export async function walkFeed(
  feedUrl: string,
  settings: FeedSettings,
  handlers: FeedHandlers,
  signal?: AbortSignal,
): Promise<FeedWalk> {
  const limit = pageSizeOf(feedUrl, settings.pageSize);
  const pace = createPacer(settings.delayMs);
  const walk: FeedWalk = {
    complete: false,
    aborted: false,
    pagesRead: 0,
    pagesFailed: 0,
    reasons: [],
    cutUrl: null,
  };

  const read: ReadPage = async (url, offset, pagesPlanned) => {
    const result = await fetchJson(url, settings, pace, signal);
    if (!result.ok) {
      const failure = { url, offset, status: result.status, message: result.message };
      return { ok: false, aborted: result.aborted, failure };
    }
    try {
      const page = parseBazaarPage(result.json);
      const rawItems = feedItemsOf(result.json);
      return { ok: true, page: { url, offset, page, rawItems, pagesPlanned } };
    } catch (error) {
      if (!(error instanceof BazaarFeedError)) throw error;
      return { ok: false, aborted: false, failure: { url, offset, status: null, message: error.message } };
    }
  };
  const record: RecordPage = (result) => {
    if (result.ok) {
      walk.pagesRead += 1;
      handlers.onPage(result.page);
      return true;
    }
    if (result.aborted) {
      walk.aborted = true;
      return false;
    }
    walk.pagesFailed += 1;
    handlers.onFailure(result.failure);
    return false;
  };

  const first = await read(feedPageUrl(feedUrl, 0, limit), 0, 1);
  if (!record(first) || !first.ok) {
    if (!walk.aborted) walk.reasons.push("the first page could not be read");
    return walk;
  }
  const received = first.page.rawItems.length;
  const { pagination, continuation } = first.page.page;
  if (pagination === null && continuation.kind === "none") {
    // No total and no next page named: only a page holding fewer items than asked for is surely
    // the whole feed.
    walk.complete = received < limit;
    if (!walk.complete)
      walk.reasons.push(
        `the feed states no total and names no next page (no next link, cursor or hasMore); only its first ${received} items were read`,
      );
    return walk;
  }
  const context: WalkContext = { feedUrl, limit, settings, walk, read, record, signal };
  if (pagination === null) await walkOnward(first.page, context);
  else await walkPlanned(pagination, first.page, context);
  if (signal?.aborted) walk.aborted = true;
  walk.complete = !walk.aborted && walk.pagesFailed === 0 && walk.reasons.length === 0;
  return walk;
}

/** Reads the pages after the first by the offsets the first page's total plans, concurrently. */
async function walkPlanned(
  pagination: BazaarPagination,
  first: FeedPage,
  context: WalkContext,
): Promise<void> {
  const { feedUrl, limit, settings, walk, read, record, signal } = context;
  const received = first.rawItems.length;
  const plan = new PagePlan(pagination, received, settings.maxPages);
  // The first page gets the same checks as the others (an empty first page with a total, say).
  plan.observe(0, received, pagination);
  const worker = async () => {
    for (let offset = plan.take(); offset !== null; offset = plan.take()) {
      if (signal?.aborted) return;
      const result = await read(feedPageUrl(feedUrl, offset, limit), offset, plan.pageCount);
      if (result.ok) plan.observe(offset, result.page.rawItems.length, result.page.page.pagination);
      record(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, settings.concurrency) }, worker));

  if (walk.pagesFailed > 0) walk.reasons.push(`${walk.pagesFailed} page(s) could not be read`);
  walk.reasons.push(...plan.incompleteReasons());
  const cut = plan.firstUnplanned;
  walk.cutUrl = cut === null ? null : feedPageUrl(feedUrl, cut, limit);
}

/**
 * Reads a feed that states no total page after page, each page naming the next (a link, a
 * cursor, or `hasMore` with offsets), so there is nothing to plan or read concurrently. The walk
 * may end complete only where the feed says nothing follows; a page that fails, a page named a
 * second time (a loop), an unusable continuation or the page guard each end it incomplete.
 */
async function walkOnward(first: FeedPage, context: WalkContext): Promise<void> {
  const { feedUrl, limit, walk, read, record, signal } = context;
  const { maxPages } = context.settings;
  const seen = new Set([pageKey(first.url)]);
  let here = first;
  for (;;) {
    const next = nextPageOf(
      here.page.continuation,
      { url: here.url, offset: here.offset, received: here.rawItems.length },
      feedUrl,
      limit,
    );
    if (next.kind === "end") return;
    if (next.kind === "stop") {
      walk.reasons.push(next.reason);
      return;
    }
    const key = pageKey(next.url);
    if (seen.has(key)) {
      walk.reasons.push(`the feed named ${next.named} a second time (a loop) after ${walk.pagesRead} pages`);
      return;
    }
    if (walk.pagesRead >= maxPages) {
      walk.reasons.push(
        `the feed states no total and still named a next page after ${walk.pagesRead} pages (CRAWL_MAX_LISTING_PAGES=${maxPages})`,
      );
      walk.cutUrl = next.url;
      return;
    }
    if (signal?.aborted) return;
    seen.add(key);
    const result = await read(next.url, next.offset, walk.pagesRead + 1);
    if (!record(result) || !result.ok) {
      if (!walk.aborted)
        walk.reasons.push(`${next.url} could not be read, so the pages after it are unknown`);
      return;
    }
    here = result.page;
  }
}
