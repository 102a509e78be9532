import type { RequestOptions } from "@crawlee/http";
import type { CrawlSession } from "../../crawl-run/crawl-session";
import type { DetailPlan } from "./detail-plan";
import { type DetailUserData, REVALIDATE, type RevalidateUserData } from "./routes/labels";
import { detailRequest, REVALIDATION_BATCH } from "./routes/revalidate-route";

/** Detail pages per crawler run: bounds Crawlee's in-memory queue, costs one drain per chunk. */
const PAGES_PER_CHUNK = 5_000;

type CrawlerRequest = RequestOptions<DetailUserData> | RequestOptions<RevalidateUserData>;

/**
 * The plan as Crawlee requests, in chunks: full fetches first, then revalidation batches (known
 * pages, oldest check first), each batch one request that sends its conditional GETs itself.
 * A batch is not fetched: its URL is the listing's start URL (robots.txt allowed that already);
 * the revalidate route checks each of its pages against robots.txt.
 */
export function* detailRequestChunks(session: CrawlSession, plan: DetailPlan): Generator<CrawlerRequest[]> {
  let chunk: CrawlerRequest[] = [];
  let pages = 0;
  for (const [request, size] of planRequests(session, plan)) {
    chunk.push(request);
    pages += size;
    if (pages >= PAGES_PER_CHUNK) {
      yield chunk;
      chunk = [];
      pages = 0;
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** Each request with the number of pages it covers. */
function* planRequests(session: CrawlSession, plan: DetailPlan): Generator<[CrawlerRequest, number]> {
  for (const detailUrl of plan.fetch) yield [detailRequest(session, { detailUrl }), 1];
  for (let i = 0; i < plan.revalidate.length; i += REVALIDATION_BATCH) {
    const pages = plan.revalidate.slice(i, i + REVALIDATION_BATCH).map((detailUrl) => ({ detailUrl }));
    const batch: CrawlerRequest = {
      url: session.startUrl,
      uniqueKey: `${REVALIDATE} ${i}`,
      label: REVALIDATE,
      skipNavigation: true,
      userData: { pages },
    };
    yield [batch, pages.length];
  }
}
