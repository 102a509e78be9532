import { setTimeout as sleep } from "node:timers/promises";
import { Configuration, createHttpRouter, HttpCrawler, type HttpCrawlingContext } from "@crawlee/http";
import { MemoryStorage } from "@crawlee/memory-storage";
import type { Logger } from "../../logging/logger";
import { crawleeLog } from "./crawlee-log";
import { describeFetchFailure } from "./fetch-failure";
import {
  guardResponse,
  identifyCrawler,
  rejectOversizedBody,
  retryDelayMs,
  statusFromError,
} from "./http-hooks";
import { detailRoute, saveFromListing } from "./routes/detail-route";
import { DETAIL, type DetailUserData, LISTING, REVALIDATE, type RevalidateUserData } from "./routes/labels";
import { listingRoute } from "./routes/listing-route";
import { revalidateRoute } from "./routes/revalidate-route";
import type { RouteDeps } from "./routes/route-deps";
import { useRunConnections } from "./run-connections";

/**
 * Crawlee's HttpCrawler for one run over one directory: a router with a handler per page label,
 * in-memory request storage of its own (runs never share a queue), politeness limits, retries
 * with backoff, and failure accounting into the session. Handlers get the unparsed body: pages
 * are parsed on the extraction workers, so nothing parses them on the crawler's thread.
 */
export type DirectoryCrawler = HttpCrawler<HttpCrawlingContext>;

export function buildDirectoryCrawler(deps: RouteDeps, logger: Logger): DirectoryCrawler {
  const { db, session, settings, pacer, connections } = deps;
  const router = createHttpRouter();
  router.addHandler(LISTING, listingRoute(deps));
  router.addHandler<DetailUserData>(DETAIL, detailRoute(deps));
  router.addHandler<RevalidateUserData>(REVALIDATE, revalidateRoute(deps));

  const storage = new MemoryStorage({ persistStorage: false, writeMetadata: false });
  const configuration = new Configuration({
    storageClient: storage,
    persistStorage: false,
    purgeOnStart: true,
  });

  return new HttpCrawler<HttpCrawlingContext>(
    {
      requestHandler: rejectOversizedBody(settings, router),
      log: crawleeLog(logger),
      minConcurrency: settings.maxConcurrency,
      maxConcurrency: settings.maxConcurrency,
      maxRequestsPerMinute: settings.maxRequestsPerMinute,
      maxRequestRetries: settings.maxRetries,
      // Crawlee retries a refused connection or a DNS failure as a "session error", up to 10
      // times beside maxRequestRetries: an unreachable directory took minutes to fail.
      maxSessionRotations: settings.maxRetries,
      navigationTimeoutSecs: settings.requestTimeoutSeconds,
      requestHandlerTimeoutSecs: settings.requestTimeoutSeconds + 60,
      useSessionPool: false,
      persistCookiesPerSession: false,
      respectRobotsTxtFile: settings.respectRobotsTxt ? { userAgent: settings.userAgent } : false,
      // Any type reaches our own guard, which rejects non-HTML with a clear message; a 304 has none.
      additionalMimeTypes: ["*/*"],
      additionalHttpErrorStatusCodes: [408, 425, 429],
      // The pacer, not only Crawlee's per-minute limit: revalidation batches send requests too.
      preNavigationHooks: [identifyCrawler(settings), useRunConnections(connections), () => pacer.take()],
      postNavigationHooks: [guardResponse(settings)],
      statusMessageLoggingInterval: 3600,
      errorHandler: async ({ request, response }: HttpCrawlingContext, error: Error) => {
        const retryAfter = response?.headers?.["retry-after"];
        const delay = retryDelayMs(
          settings,
          request.retryCount,
          typeof retryAfter === "string" ? retryAfter : undefined,
        );
        logger.debug(
          { url: request.url, retry: request.retryCount, delayMs: Math.round(delay), err: error.message },
          "retrying page",
        );
        await sleep(delay, undefined, { signal: deps.signal }).catch(() => {});
      },
      failedRequestHandler: async ({ request }: HttpCrawlingContext, error: Error) => {
        const failed = (url: string) => {
          session.counts.pagesFailed += 1;
          session.recordError({
            kind: "fetch",
            url,
            statusCode: statusFromError(error),
            message: describeFetchFailure(error.message),
          });
        };
        if (request.label === REVALIDATE) {
          // The batch itself failed (its requests' failures go to the DETAIL route): none was read.
          for (const page of (request.userData as RevalidateUserData).pages) failed(page.detailUrl);
          return;
        }
        failed(request.url);
        if (request.label === LISTING)
          session.recordListingPageFailed(request.url, describeFetchFailure(error.message));
        else if (request.label === DETAIL)
          await saveFromListing(db, session, [(request.userData as DetailUserData).detailUrl]);
      },
      onSkippedRequest: async ({ url, reason }) => {
        session.recordError({ kind: "robots", url, message: `skipped: ${reason}` });
        if (session.listingUrls.has(url) || url === session.startUrl) session.recordListingPageFailed(url);
      },
    },
    configuration,
  );
}
