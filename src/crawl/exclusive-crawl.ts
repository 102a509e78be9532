import { pruneCatalogueChanges } from "../catalogue/catalogue-changes";
import { abandonStaleRuns } from "../catalogue/crawl-runs";
import { ensureSource } from "../catalogue/sources";
import type { Database } from "../db/prisma-client";
import type { SourceKind } from "../generated/prisma/enums";
import type { Logger } from "../logging/logger";
import { tryLockSource } from "../scheduling/source-lock";
import type { CrawlOutcome } from "./crawl-directory";

/**
 * Runs one crawl of a source while holding its advisory lock, so no two crawls of a source ever
 * run at once across the processes sharing the database; a crawl that finds the lock taken is
 * skipped with a message. Runs left `running` by a dead process are closed as aborted first.
 */
export async function crawlExclusively(
  deps: { db: Database; databaseUrl: string; logger: Logger },
  kind: SourceKind,
  url: string,
  crawl: (sourceId: string) => Promise<CrawlOutcome>,
): Promise<CrawlOutcome> {
  const { db, logger } = deps;
  const source = await ensureSource(db, kind, url);
  const lock = await tryLockSource(deps.databaseUrl, source.id);
  if (!lock) {
    const reason = `a crawl of ${url} is already running (another process holds its lock); skipping this one`;
    logger.warn({ source: url }, reason);
    return { status: "skipped", reason };
  }
  try {
    const abandoned = await abandonStaleRuns(db, source.id);
    if (abandoned > 0)
      logger.warn({ source: url, runs: abandoned }, "marked runs of a dead process as aborted");
    const outcome = await crawl(source.id);
    await pruneCatalogueChanges(db); // the change log a crawl grows (see catalogue-changes.ts)
    return outcome;
  } finally {
    await lock.release();
  }
}
