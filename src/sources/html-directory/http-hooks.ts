import { type HttpCrawlingContext, NonRetryableError } from "@crawlee/http";
import type { CrawlSettings } from "../../crawl-run/settings";

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;
const MAX_RETRY_DELAY_MS = 30_000;

type Context = Pick<HttpCrawlingContext, "request" | "response">;

/** The headers every request of ours carries: who we are and what we read. */
export function crawlerHeaders(settings: CrawlSettings): Record<string, string> {
  return { "user-agent": settings.userAgent, accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1" };
}

/**
 * Names the product in every request. got-scraping would otherwise generate a browser-like header
 * set per request (costly, and pointless for a crawler that says who it is).
 */
export function identifyCrawler(settings: CrawlSettings) {
  return (
    _context: Context,
    gotOptions: { headers?: Record<string, string | string[] | undefined>; useHeaderGenerator?: boolean },
  ) => {
    gotOptions.useHeaderGenerator = false;
    gotOptions.headers = { ...gotOptions.headers, ...crawlerHeaders(settings) };
  };
}

/**
 * Runs once the response headers are in, before the body is read: refuses what is not HTML or
 * is larger than we accept, without downloading it, and without retrying (it would not change).
 */
export function guardResponse(settings: CrawlSettings) {
  return ({ request, response }: Context) => {
    const status = response.statusCode ?? 0;
    if (status === 304 || status >= 400) return; // no body to judge; handlers deal with these
    const type = String(response.headers["content-type"] ?? "");
    if (!HTML_TYPES.test(type)) {
      throw new NonRetryableError(`not an HTML page (Content-Type: ${type || "none"}) at ${request.url}`);
    }
    const length = Number(response.headers["content-length"]);
    if (Number.isFinite(length) && length > settings.maxPageBytes) {
      throw new NonRetryableError(`page too large: ${length} bytes, limit ${settings.maxPageBytes}`);
    }
  };
}

/** Exponential backoff with jitter before a retry, honouring Retry-After when the server sends it. */
export function retryDelayMs(
  settings: CrawlSettings,
  retryCount: number,
  retryAfter: string | undefined,
): number {
  const seconds = Number(retryAfter);
  if (retryAfter && Number.isFinite(seconds) && seconds >= 0)
    return Math.min(seconds * 1000, MAX_RETRY_DELAY_MS);
  const exponential = settings.retryBaseDelayMs * 2 ** Math.max(0, retryCount - 1);
  return Math.min(exponential * (0.75 + Math.random() * 0.5), MAX_RETRY_DELAY_MS);
}

/** "503 - Internal Server Error: …" and the like: the status code Crawlee put in its error. */
export function statusFromError(error: Error): number | null {
  const match = /^(\d{3}) - /.exec(error.message);
  return match ? Number(match[1]) : null;
}

/**
 * The size check for responses that did not announce a Content-Length (chunked): Crawlee has
 * read the body by now, but an oversized page is still refused before anything parses it.
 */
export function rejectOversizedBody(
  settings: CrawlSettings,
  handler: (context: HttpCrawlingContext) => unknown,
) {
  return async (context: HttpCrawlingContext) => {
    const bytes = context.body ? Buffer.byteLength(context.body) : 0;
    if (bytes > settings.maxPageBytes) {
      throw new NonRetryableError(`page too large: ${bytes} bytes, limit ${settings.maxPageBytes}`);
    }
    await handler(context);
  };
}
