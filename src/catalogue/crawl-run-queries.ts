import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import type { CrawlCounts } from "./crawl-runs";
import { completePage, type Page, type Paging } from "./paging";
import { isoText } from "./sql";

/** Errors shown per run; the rest are counted (a broken directory can fail on every page). */
export const ERRORS_PER_RUN = 20;

export interface CrawlErrorRow {
  kind: string;
  url: string;
  statusCode: number | null;
  field: string | null;
  rawText: string | null;
  message: string;
  createdAt: Date;
}

export interface CrawlRunRecord extends CrawlCounts {
  id: string;
  sourceKind: string;
  sourceUrl: string;
  status: string;
  trigger: string;
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  message: string | null;
  errorCount: number;
  /** The first ERRORS_PER_RUN errors, raw JSON from Postgres (dates as ISO strings). */
  errors: Array<Omit<CrawlErrorRow, "createdAt"> & { createdAt: string }>;
}

/** Recent crawl runs, newest first, with their counts and first errors. */
export async function listCrawlRuns(pool: ReadPool, paging: Paging): Promise<Page<CrawlRunRecord>> {
  const rows = await queryRows<CrawlRunRecord>(
    pool,
    Prisma.sql`
      SELECT r.id, src.kind::text AS "sourceKind", src.base_url AS "sourceUrl", r.status::text AS status, r.trigger,
        r.started_at AS "startedAt", r.finished_at AS "finishedAt", r.duration_ms AS "durationMs",
        r.listing_complete AS "listingComplete", r.pages_fetched AS "pagesFetched", r.pages_failed AS "pagesFailed",
        r.pages_unchanged AS "pagesUnchanged", r.services_seen AS "servicesSeen", r.services_new AS "servicesNew",
        r.services_updated AS "servicesUpdated", r.services_unchanged AS "servicesUnchanged",
        r.services_delisted AS "servicesDelisted", r.value_problems AS "valueProblems", r.message,
        (SELECT count(*)::int FROM crawl_errors ce WHERE ce.crawl_run_id = r.id) AS "errorCount",
        coalesce((
          SELECT json_agg(json_build_object('kind', ce.kind, 'url', ce.url, 'statusCode', ce.status_code,
                   'field', ce.field, 'rawText', ce.raw_text, 'message', ce.message, 'createdAt', ${isoText(Prisma.sql`ce.created_at`)})
                 ORDER BY ce.id)
          FROM (SELECT * FROM crawl_errors WHERE crawl_run_id = r.id ORDER BY id LIMIT ${ERRORS_PER_RUN}) ce
        ), '[]'::json) AS errors
      FROM crawl_runs r JOIN sources src ON src.id = r.source_id
      ORDER BY r.started_at DESC, r.id DESC
      LIMIT ${paging.limit} OFFSET ${paging.offset}`,
  );
  return completePage(rows, paging, async () => {
    const [count] = await queryRows<{ total: number }>(
      pool,
      Prisma.sql`SELECT count(*)::int AS total FROM crawl_runs`,
    );
    return count?.total ?? 0;
  });
}
