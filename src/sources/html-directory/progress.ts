import type { CrawlSession } from "../../crawl-run/crawl-session";
import type { Logger } from "../../logging/logger";

/** Where a crawl stands, from the numbers its session keeps. */
export interface ProgressSnapshot {
  pagesDone: number;
  /** Every page the crawl will read, when the source said how many (a "Page N of M", a feed's total); else null. */
  pagesTotal: number | null;
  /** Pages found so far but not read (when the total is unknown). */
  pagesFound: number;
  /** Listing pages read, and how many the listing states (null when it does not say). */
  listing?: { read: number; of: number | null };
  servicesStored: number;
  elapsedMs: number;
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

/**
 * One line an operator can read at a glance, e.g. "crawl progress: listing page 12 of 40,
 * 600 of ~2040 pages, 4.0 pages/s, ETA 6m 00s; 580 services stored". The same numbers go in the
 * `progress` field of the JSON line.
 */
export function describeProgress(snapshot: ProgressSnapshot): {
  message: string;
  progress: Record<string, number | null>;
} {
  const { pagesDone, servicesStored } = snapshot;
  // A source's stated size is an estimate: once more is read or found than it said, the estimate
  // grows to match, so a line never reads "page 4 of 3" or "62 of ~48 pages".
  const pagesTotal =
    snapshot.pagesTotal === null ? null : Math.max(snapshot.pagesTotal, pagesDone, snapshot.pagesFound);
  const listing = snapshot.listing && {
    read: snapshot.listing.read,
    of: snapshot.listing.of === null ? null : Math.max(snapshot.listing.of, snapshot.listing.read),
  };
  const perSecond = snapshot.elapsedMs > 0 ? pagesDone / (snapshot.elapsedMs / 1000) : 0;
  const remaining = pagesTotal === null ? null : Math.max(0, pagesTotal - pagesDone);
  const etaMs = remaining !== null && perSecond > 0 ? (remaining / perSecond) * 1000 : null;
  const parts: string[] = [];
  if (listing) parts.push(`listing page ${listing.read}${listing.of ? ` of ${listing.of}` : ""}`);
  parts.push(
    pagesTotal === null
      ? `${pagesDone} pages done, ${Math.max(0, snapshot.pagesFound - pagesDone)} more found so far`
      : `${pagesDone} of ~${pagesTotal} pages`,
  );
  parts.push(`${perSecond.toFixed(1)} pages/s`);
  if (etaMs !== null) parts.push(`ETA ${duration(etaMs)}`);
  return {
    message: `crawl progress: ${parts.join(", ")}; ${servicesStored} services stored`,
    progress: {
      pagesDone,
      pagesTotal,
      pagesRemaining: remaining,
      pagesPerSecond: Number(perSecond.toFixed(1)),
      etaSeconds: etaMs === null ? null : Math.round(etaMs / 1000),
      servicesStored,
    },
  };
}

/** A directory's total: its stated listing pages plus their detail pages, at the services per page seen so far. */
function directorySnapshot(session: CrawlSession, elapsedMs: number): ProgressSnapshot {
  const { pagesFetched, pagesUnchanged, pagesFailed, servicesNew, servicesUpdated, servicesUnchanged } =
    session.counts;
  const stated = session.statedListingPages;
  const read = session.listingPagesRead;
  return {
    pagesDone: pagesFetched + pagesUnchanged + pagesFailed,
    pagesTotal: stated && read > 0 ? stated + Math.round((session.listed.size / read) * stated) : null,
    pagesFound: session.listingUrls.size + session.listed.size,
    listing: { read, of: stated },
    servicesStored: servicesNew + servicesUpdated + servicesUnchanged,
    elapsedMs,
  };
}

/** Logs one progress line every interval while a directory crawl runs. */
export function reportProgress(session: CrawlSession, logger: Logger, intervalMs: number): () => void {
  const started = Date.now();
  const timer = setInterval(() => {
    const { message, progress } = describeProgress(directorySnapshot(session, Date.now() - started));
    logger.info({ progress }, message);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
