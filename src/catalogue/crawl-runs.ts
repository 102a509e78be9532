import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import { emitEvents } from "../events/emit";
import type { CrawlStatus, SourceKind } from "../generated/prisma/enums";

export interface CrawlCounts {
  listingComplete: boolean;
  pagesFetched: number;
  pagesFailed: number;
  pagesUnchanged: number;
  servicesSeen: number;
  servicesNew: number;
  servicesUpdated: number;
  servicesUnchanged: number;
  servicesDelisted: number;
  valueProblems: number;
}

export interface CrawlErrorRecord {
  kind: "fetch" | "value" | "store" | "robots" | "skipped";
  url: string;
  statusCode?: number | null;
  field?: string | null;
  rawText?: string | null;
  message: string;
}

/** The most recent crawl run of any source, for health and status answers. */
export function getLatestCrawlRun(db: Database) {
  return db.crawlRun.findFirst({
    orderBy: { startedAt: "desc" },
    select: {
      id: true,
      status: true,
      startedAt: true,
      finishedAt: true,
      source: { select: { baseUrl: true } },
    },
  });
}

/**
 * Runs left `running` by a process that died. Only called while holding the source's crawl lock,
 * so none of them can still be running.
 */
export async function abandonStaleRuns(db: Database, sourceId: string): Promise<number> {
  const { count } = await db.crawlRun.updateMany({
    where: { sourceId, status: "running" },
    data: {
      status: "aborted",
      finishedAt: new Date(),
      message: "the crawling process stopped before the run ended",
    },
  });
  return count;
}

export function startCrawlRun(db: Database, sourceId: string, trigger: string) {
  return db.crawlRun.create({ data: { sourceId, trigger, status: "running" } });
}

export async function finishCrawlRun(
  db: Database,
  runId: string,
  startedAt: Date,
  status: CrawlStatus,
  counts: CrawlCounts,
  message: string | null,
): Promise<void> {
  const finishedAt = new Date();
  await inTransaction(db, async (tx) => {
    const run = await tx.crawlRun.update({
      where: { id: runId },
      data: {
        ...counts,
        status,
        message,
        finishedAt,
        durationMs: finishedAt.getTime() - startedAt.getTime(),
      },
      select: { source: { select: { kind: true } } },
    });
    // completed and partial runs completed; failed and aborted ones failed (message says why).
    const failed = status === "failed" || status === "aborted";
    await emitEvents(tx, [
      {
        type: failed ? "crawl.failed" : "crawl.completed",
        data: { crawl_run_id: runId, source: run.source.kind, status, error: failed ? message : null },
      },
    ]);
  });
}

export async function recordCrawlErrors(
  db: Database,
  runId: string,
  errors: CrawlErrorRecord[],
): Promise<void> {
  if (errors.length === 0) return;
  await db.crawlError.createMany({
    data: errors.map((e) => ({
      crawlRunId: runId,
      kind: e.kind,
      url: e.url,
      statusCode: e.statusCode ?? null,
      field: e.field ?? null,
      rawText: e.rawText?.slice(0, 2000) ?? null,
      message: e.message.slice(0, 2000),
    })),
  });
}

/** Which of these sources (by kind and base URL) had a completed run start at or after `since`, as "kind baseUrl" keys. */
export async function sourcesCrawledSince(
  db: Database,
  sources: { kind: SourceKind; baseUrl: string }[],
  since: Date,
): Promise<Set<string>> {
  if (sources.length === 0) return new Set();
  const rows = await db.source.findMany({
    where: {
      OR: sources.map(({ kind, baseUrl }) => ({ kind, baseUrl })),
      // Only a run that read the whole listing counts: a failed start-up crawl must be retried.
      crawlRuns: { some: { startedAt: { gte: since }, status: "completed" } },
    },
    select: { kind: true, baseUrl: true },
  });
  return new Set(rows.map((r) => `${r.kind} ${r.baseUrl}`));
}
