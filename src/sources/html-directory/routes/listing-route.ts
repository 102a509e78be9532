import { type HttpCrawlingContext, NonRetryableError } from "@crawlee/http";
import { loadExtracted, type PageCacheWrite } from "../../../catalogue/page-cache";
import { pageFingerprint } from "../../../crawl-run/crawl-session";
import { pageFromUrl } from "../../../extract/pagination";
import type { ListingPage } from "../../../extract/types";
import { canonicalPageUrl, sameHost } from "../url-identity";
import { LISTING } from "./labels";
import { statusOf, validatorsOf } from "./response";
import type { RouteDeps } from "./route-deps";

/**
 * A listing page: every service on it joins the run's listing (its detail page is planned once
 * the whole listing is read, see detail-plan.ts), and every other listing page it reveals is
 * queued under this same label. An unchanged page (304, or the same bytes) is not parsed again:
 * what it yielded last time is read back from the page cache.
 */
export function listingRoute(deps: RouteDeps) {
  const { session, settings } = deps;
  return async (context: HttpCrawlingContext) => {
    const { request, response } = context;
    const status = statusOf(response);
    if (status >= 400) throw new NonRetryableError(`${status} - listing page ${request.url}`);
    const cachedCopy = status === 304 ? await storedListing(deps, request.url) : null;
    if (status === 304 && !cachedCopy) {
      request.headers = {}; // the cache lost the page: ask again, unconditionally
      throw new Error(`304 for ${request.url} without a cached copy; retrying without validators`);
    }
    if (cachedCopy) {
      session.counts.pagesUnchanged += 1;
      session.recordPageChecked(request.url);
    }
    const page = cachedCopy ?? (await readListing(context, deps));

    // The unnumbered URL a crawl starts from is the first page unless the page says otherwise.
    const number =
      page.pageInfo?.current ??
      pageFromUrl(new URL(request.url)) ??
      (request.url === session.startUrl ? 1 : null);
    session.recordListingPageRead(number);
    if (page.pageInfo) {
      session.statedListingPages = Math.max(session.statedListingPages ?? 0, page.pageInfo.total);
    }

    for (const entry of page.entries) {
      if (!sameHost(entry.detailUrl, session.startUrl)) continue;
      const detailUrl = canonicalPageUrl(entry.detailUrl);
      // A service shown on two pages is one service.
      if (!session.listed.has(detailUrl)) session.listed.set(detailUrl, entry);
    }

    // The guard bounds only pages no stated count speaks for: a listing that says "Page 1 of
    // 4,000" is followed to its end, one that keeps linking onwards stops at the limit.
    const allowed = Math.max(settings.maxListingPages, session.statedListingPages ?? 0);
    const listings = [];
    for (const href of page.listingUrls) {
      if (!sameHost(href, session.startUrl)) continue;
      const url = canonicalPageUrl(href);
      if (session.listingUrls.has(url)) continue;
      if (session.listingUrls.size >= allowed) {
        session.recordListingPageNotFollowed(url, settings.maxListingPages);
        continue;
      }
      session.listingUrls.add(url);
      listings.push({ url, label: LISTING, headers: session.conditionalHeaders(url) });
    }
    await context.addRequests(listings);
  };
}

/** What an unchanged listing page yielded when it was last read (our own earlier write). */
async function storedListing({ db, session }: RouteDeps, url: string): Promise<ListingPage | null> {
  const extracted = await loadExtracted(db, session.sourceId, url);
  return extracted && typeof extracted === "object" && !Array.isArray(extracted)
    ? (extracted as unknown as ListingPage)
    : null;
}

async function readListing(context: HttpCrawlingContext, deps: RouteDeps): Promise<ListingPage> {
  const { session, settings, extraction } = deps;
  const { request, response, body } = context;
  const url = request.loadedUrl ?? request.url;
  const fingerprint = pageFingerprint(body);
  const cached = session.pageCache.get(request.url);
  const previous = cached?.contentHash === fingerprint ? await storedListing(deps, request.url) : null;
  if (previous) {
    session.counts.pagesUnchanged += 1;
    session.recordPageChecked(request.url);
    return previous;
  }
  session.counts.pagesFetched += 1;
  const read = await extraction.run({
    kind: "listing",
    html: body.toString(),
    pageUrl: url,
    aliases: settings.labelAliases(new URL(url).host),
  });
  if (read.kind !== "listing") throw new Error("extraction answered a listing page with a detail");
  const { page } = read;
  session.rememberPage({
    url: request.url,
    ...validatorsOf(response),
    contentHash: fingerprint,
    extracted: page as unknown as PageCacheWrite["extracted"],
    fetchedAt: new Date(),
  });
  return page;
}
