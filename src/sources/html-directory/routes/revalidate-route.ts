import type { HttpCrawlingContext } from "@crawlee/http";
import type { CrawlSession } from "../../../crawl-run/crawl-session";
import { crawlerHeaders } from "../http-hooks";
import { markUnchanged } from "./detail-route";
import { DETAIL, type DetailUserData, type RevalidateUserData } from "./labels";
import type { RouteDeps } from "./route-deps";

/** Pages per revalidation batch: few enough that a batch ends quickly, enough to spare queue work. */
export const REVALIDATION_BATCH = 25;

/**
 * A batch of known detail pages whose validators we hold: one conditional GET each through
 * Crawlee's own HTTP client (`sendRequest`), one at a time, so the batch takes one of the crawl's
 * concurrency slots, and paced like every other request.
 * Most pages of a quiet directory answer 304, and a queue entry per page would cost more CPU than
 * the request itself. Only that answer is handled here; any other (changed content, a vanished
 * page, an error, a page robots.txt now forbids) sends the page through the DETAIL route, with
 * its retries, failure accounting and storing. After an error, a 429 or a 5xx, or once the batch
 * has taken longer than one request may, the rest of the batch goes that way too.
 */
export function revalidateRoute({ session, settings, pacer, robotsAllow, connections }: RouteDeps) {
  const timeoutMs = settings.requestTimeoutSeconds * 1000;
  const headers = crawlerHeaders(settings);
  return async (context: HttpCrawlingContext<RevalidateUserData>) => {
    const started = performance.now();
    let fastPath = true;
    const rest: DetailUserData[] = [];
    for (const page of context.request.userData.pages) {
      const known = session.known.get(page.detailUrl);
      fastPath &&= performance.now() - started < timeoutMs;
      if (fastPath && known && (await robotsAllow(page.detailUrl))) {
        await pacer.take();
        const status = await conditionalStatus(context, {
          url: page.detailUrl,
          headers: { ...headers, ...session.conditionalHeaders(page.detailUrl) },
          timeout: { request: timeoutMs },
          agent: connections.agents,
        });
        if (status === 304) {
          markUnchanged(session, known, page.detailUrl);
          continue;
        }
        if (status === null || status === 429 || status >= 500) fastPath = false;
      }
      rest.push(page);
    }
    if (rest.length > 0) await context.addRequests(rest.map((page) => detailRequest(session, page)));
  };
}

/** A DETAIL request, conditional when we hold validators for the page. */
export function detailRequest(session: CrawlSession, userData: DetailUserData) {
  const headers = session.known.has(userData.detailUrl) ? session.conditionalHeaders(userData.detailUrl) : {};
  return { url: userData.detailUrl, label: DETAIL, userData, headers };
}

type SendOptions = NonNullable<Parameters<HttpCrawlingContext["sendRequest"]>[0]>;

/**
 * The status of one conditional GET sent through Crawlee's own HTTP client (`sendRequest`), or
 * null when it failed. No retries here: a page that does not answer 304 goes to the DETAIL route.
 */
async function conditionalStatus(context: HttpCrawlingContext, options: SendOptions): Promise<number | null> {
  try {
    const response = await context.sendRequest({
      ...options,
      method: "GET",
      useHeaderGenerator: false, // our own headers only, as identifyCrawler does for every page
      throwHttpErrors: false,
      retry: { limit: 0 },
    });
    return response.statusCode;
  } catch {
    return null;
  }
}
