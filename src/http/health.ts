import type { Router } from "express";
import { getLatestCrawlRun } from "../catalogue/crawl-runs";
import type { Database } from "../db/prisma-client";
import { safeError } from "../logging/safe-error";
import { apiRouter } from "./router";

const DATABASE_CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** GET /healthz: 200 when the database answers, 503 otherwise (load balancers, Docker HEALTHCHECK). */
export function healthRouter(db: Database): Router {
  const router = apiRouter();
  router.get("/healthz", async (_req, res) => {
    res.set("Cache-Control", "no-store");
    try {
      const latest = await withTimeout(
        db.$queryRaw`SELECT 1`.then(() => getLatestCrawlRun(db)),
        DATABASE_CHECK_TIMEOUT_MS,
      );
      res.json({
        status: "ok",
        database: "up",
        last_crawl: latest
          ? {
              id: latest.id,
              source_url: latest.source.baseUrl,
              status: latest.status,
              started_at: latest.startedAt.toISOString(),
              finished_at: latest.finishedAt?.toISOString() ?? null,
            }
          : null,
      });
    } catch (error) {
      res.status(503).json({
        status: "unavailable",
        database: "down",
        last_crawl: null,
        message: safeError(error).message,
      });
    }
  });
  return router;
}
