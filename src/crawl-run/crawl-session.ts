import { createHash } from "node:crypto";
import type { CrawlCounts, CrawlErrorRecord } from "../catalogue/crawl-runs";
import type { PageCacheWrite, PageValidators } from "../catalogue/page-cache";
import type { KnownService } from "../catalogue/service-writes";
import { pageFromUrl } from "../extract/pagination";
import type { ListingEntry } from "../extract/types";
import type { FieldProblem } from "../normalise/types";

/**
 * Bump when extraction or normalisation changes what a page yields: cached fingerprints of pages
 * read by an older version are then ignored and every page is parsed again once.
 */
const PAGE_FINGERPRINT_VERSION = "2";

export function pageFingerprint(body: string | Buffer): string {
  return createHash("sha256").update(PAGE_FINGERPRINT_VERSION).update(body).digest("base64url");
}

export interface ResponseValidators {
  etag: string | null;
  lastModified: string | null;
}

/**
 * Everything one crawl run learns, in one place: the request handlers write here and the run
 * finaliser reads it. One instance per run (never module state), so runs cannot leak into
 * each other.
 */
export class CrawlSession {
  /** Detail URL (canonical) → what the listing said. The set of services the listing shows. */
  readonly listed = new Map<string, ListingEntry>();
  readonly listingUrls = new Set<string>();
  /** Known services whose detail page was read and found unchanged. */
  readonly unchangedServiceIds: string[] = [];
  readonly counts: CrawlCounts = {
    listingComplete: false,
    pagesFetched: 0,
    pagesFailed: 0,
    pagesUnchanged: 0,
    servicesSeen: 0,
    servicesNew: 0,
    servicesUpdated: 0,
    servicesUnchanged: 0,
    servicesDelisted: 0,
    valueProblems: 0,
  };
  listingPagesRead = 0;
  listingPagesFailed = 0;
  /** Why the first listing page that failed did (the run's message when none could be read). */
  firstListingFailure: string | null = null;
  /** Page numbers of the listing pages read, and the URLs of those that failed. */
  readonly listingPageNumbers = new Set<number>();
  readonly failedListingUrls: string[] = [];
  /** The largest page count any listing page stated ("Page N of M", a last-page link). */
  statedListingPages: number | null = null;
  /** Distinct listing URLs the listing-page guard refused to follow: the listing was cut. */
  readonly unfollowedListingUrls = new Set<string>();
  private errors: CrawlErrorRecord[] = [];
  private pageWrites: PageCacheWrite[] = [];
  private checkedPages: string[] = [];

  constructor(
    readonly sourceId: string,
    readonly runId: string,
    readonly startUrl: string,
    readonly known: Map<string, KnownService>,
    readonly pageCache: Map<string, PageValidators>,
  ) {}

  /** Headers for a conditional GET when we hold validators from an earlier fetch of the page. */
  conditionalHeaders(url: string): Record<string, string> {
    const cached = this.pageCache.get(url);
    const headers: Record<string, string> = {};
    if (cached?.etag) headers["If-None-Match"] = cached.etag;
    if (cached?.lastModified) headers["If-Modified-Since"] = cached.lastModified;
    return headers;
  }

  hasValidators(url: string): boolean {
    const cached = this.pageCache.get(url);
    return Boolean(cached?.etag || cached?.lastModified);
  }

  /** Validators of a page whose content is already stored (listing pages, unchanged details). */
  rememberPage(page: PageCacheWrite): void {
    this.pageWrites.push(page);
  }

  /** A page found unchanged without being read again (a 304, the same bytes). */
  recordPageChecked(url: string): void {
    this.checkedPages.push(url);
  }

  takeCheckedPages(): string[] {
    const taken = this.checkedPages;
    this.checkedPages = [];
    return taken;
  }

  recordError(error: CrawlErrorRecord): void {
    this.errors.push(error);
  }

  recordValueProblems(problems: FieldProblem[]): void {
    this.counts.valueProblems += problems.length;
    for (const p of problems) {
      this.errors.push({ kind: "value", url: p.page, field: p.field, rawText: p.text, message: p.reason });
    }
  }

  takeErrors(): CrawlErrorRecord[] {
    const taken = this.errors;
    this.errors = [];
    return taken;
  }

  takePageWrites(): PageCacheWrite[] {
    const taken = this.pageWrites;
    this.pageWrites = [];
    return taken;
  }

  recordListingPageRead(pageNumber: number | null): void {
    this.listingPagesRead += 1;
    if (pageNumber !== null) this.listingPageNumbers.add(pageNumber);
  }

  recordListingPageFailed(url: string, reason?: string): void {
    this.firstListingFailure ??= reason ?? null;
    this.listingPagesFailed += 1;
    this.failedListingUrls.push(url);
  }

  /**
   * The listing-page guard stopped the walk before `url`: recorded once as the run's error (the
   * count is in the run's message), so a cut listing is never mistaken for a whole one.
   */
  recordListingPageNotFollowed(url: string, limit: number): void {
    if (this.unfollowedListingUrls.size === 0) {
      this.recordError({
        kind: "skipped",
        url,
        message:
          `listing page limit reached (CRAWL_MAX_LISTING_PAGES=${limit}, and no page states a larger page count): ` +
          "this page and any after it were not followed; the run is partial and delists nothing",
      });
    }
    this.unfollowedListingUrls.add(url);
  }

  /**
   * Complete when every listing page was read, none the site announced is missing and the guard
   * cut nothing. A failed
   * URL whose page number was read under another URL (a guessed `?page=1` next to the unnumbered
   * first page) loses nothing, so it does not count against completeness.
   */
  listingComplete(): boolean {
    const stated = this.statedListingPages;
    const lostPages = this.failedListingUrls.filter((url) => {
      const number = pageFromUrl(new URL(url));
      return number === null || !this.listingPageNumbers.has(number);
    });
    const allStatedRead =
      stated === null ||
      Array.from({ length: stated }, (_, i) => i + 1).every((n) => this.listingPageNumbers.has(n));
    return (
      this.listingPagesRead > 0 &&
      this.listed.size > 0 &&
      lostPages.length === 0 &&
      allStatedRead &&
      this.unfollowedListingUrls.size === 0
    );
  }
}
