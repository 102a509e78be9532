import type { Database } from "../db/prisma-client";

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
