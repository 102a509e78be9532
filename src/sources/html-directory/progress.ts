import type { CrawlSession } from "../../crawl-run/crawl-session";
import type { Logger } from "../../logging/logger";

/** Logs pages done / discovered and the rate every interval while a crawl runs. */
export function reportProgress(session: CrawlSession, logger: Logger, intervalMs: number): () => void {
  const started = Date.now();
  const timer = setInterval(() => {
    const { pagesFetched, pagesUnchanged, pagesFailed } = session.counts;
    const done = pagesFetched + pagesUnchanged + pagesFailed;
    const discovered = session.listingUrls.size + session.listed.size;
    const seconds = (Date.now() - started) / 1000;
    logger.info(
      { pagesDone: done, pagesDiscovered: discovered, pagesPerSecond: Number((done / seconds).toFixed(1)) },
      `crawl progress: ${done}/${discovered} pages`,
    );
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
