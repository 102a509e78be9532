import { feedPageUrl, pageSizeOf } from "./feed-url";
import { fetchJson, type HttpSettings } from "./fetch-json";
import { createPacer } from "./pacer";
import { PagePlan } from "./page-plan";
import { BazaarFeedError, feedItemsOf, parseBazaarPage } from "./parse";
import type { BazaarPage } from "./types";

export interface FeedSettings extends HttpSettings {
  /** Items asked for per page (`limit`), unless the configured URL names its own. */
  pageSize: number;
  /** Pages in flight at once. */
  concurrency: number;
  /** Least time between two request starts. */
  delayMs: number;
  /** Most pages one walk reads (a guard against a runaway `total`). */
  maxPages: number;
}

export interface FeedPage {
  url: string;
  offset: number;
  page: BazaarPage;
  /** The page's `items` as received, so a skipped item can be recorded as it was. */
  rawItems: unknown[];
  /** Pages the walk expects to read in all, as known when this page arrived. */
  pagesPlanned: number;
}

export interface FeedFailure {
  url: string;
  offset: number;
  status: number | null;
  message: string;
}

export interface FeedHandlers {
  onPage(page: FeedPage): void;
  onFailure(failure: FeedFailure): void;
}

export interface FeedWalk {
  /** Every page the feed announced was read, in one consistent state: missing items may be delisted. */
  complete: boolean;
  aborted: boolean;
  pagesRead: number;
  pagesFailed: number;
  /** Why the walk is not complete; empty when it is. */
  reasons: string[];
  /** The first page the page guard cut off (the feed's total grew past it), or null. */
  cutUrl: string | null;
}

type PageRead = { ok: true; page: FeedPage } | { ok: false; aborted: boolean; failure: FeedFailure };

/**
 * Walks a discovery feed page by page (`offset`/`limit`) up to the `total` it states, politely:
 * paced, `concurrency` pages at a time, each retried on transient failures. A page that fails for
 * good is reported and skipped; the walk goes on but is then incomplete.
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
  let plan: PagePlan | null = null;

  const read = async (offset: number): Promise<PageRead> => {
    const url = feedPageUrl(feedUrl, offset, limit);
    const result = await fetchJson(url, settings, pace, signal);
    if (!result.ok) {
      const failure = { url, offset, status: result.status, message: result.message };
      return { ok: false, aborted: result.aborted, failure };
    }
    try {
      const page = parseBazaarPage(result.json);
      const rawItems = feedItemsOf(result.json);
      return { ok: true, page: { url, offset, page, rawItems, pagesPlanned: plan?.pageCount ?? 1 } };
    } catch (error) {
      if (!(error instanceof BazaarFeedError)) throw error;
      return { ok: false, aborted: false, failure: { url, offset, status: null, message: error.message } };
    }
  };
  const record = (result: PageRead): boolean => {
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

  const first = await read(0);
  if (!record(first) || !first.ok) {
    if (!walk.aborted) walk.reasons.push("the first page could not be read");
    return walk;
  }
  const received = first.page.rawItems.length;
  const pagination = first.page.page.pagination;
  if (pagination === null) {
    // No total: only a page holding fewer items than asked for is surely the whole feed.
    walk.complete = received < limit;
    if (!walk.complete)
      walk.reasons.push(`the feed states no total; only its first ${received} items were read`);
    return walk;
  }

  const activePlan = new PagePlan(pagination, received, settings.maxPages);
  plan = activePlan;
  // The first page gets the same checks as the others (an empty first page with a total, say).
  activePlan.observe(0, received, pagination);
  const worker = async () => {
    for (let offset = activePlan.take(); offset !== null; offset = activePlan.take()) {
      if (signal?.aborted) return;
      const result = await read(offset);
      if (result.ok) activePlan.observe(offset, result.page.rawItems.length, result.page.page.pagination);
      record(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, settings.concurrency) }, worker));

  if (signal?.aborted) walk.aborted = true;
  if (walk.pagesFailed > 0) walk.reasons.push(`${walk.pagesFailed} page(s) could not be read`);
  walk.reasons.push(...activePlan.incompleteReasons());
  const cut = activePlan.firstUnplanned;
  walk.cutUrl = cut === null ? null : feedPageUrl(feedUrl, cut, limit);
  walk.complete = !walk.aborted && walk.reasons.length === 0;
  return walk;
}
