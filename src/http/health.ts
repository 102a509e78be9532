import type { Router } from "express";
import { getLatestCrawlRun } from "../catalogue/crawl-runs";
import type { Database } from "../db/prisma-client";
import { safeError } from "../logging/safe-error";
import { errorBody } from "./errors";
import { apiRouter } from "./router";

const DATABASE_CHECK_TIMEOUT_MS = 2_000;

/** Liveness and readiness, as load balancers, Docker and Kubernetes probe them (deploy/). */
export const LIVENESS_PATH = "/healthz";
export const READINESS_PATH = "/readyz";

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What readiness needs of the catalogue search: its first load, started or joined. */
export interface PreloadingSearch {
  preload(): Promise<void>;
}

/**
 * Whether the in-memory catalogue has loaded once (it then stays in memory: a failed reload keeps
 * the previous one answering). The search tells through its onLoaded callback; asked before any
 * load, readiness starts one (or joins the one under way), so a process that does not preload
 * becomes ready too.
 */
export class CatalogueReadiness {
  private ready = false;
  private loading: Promise<void> | null = null;

  /** A catalogue is in place (the search's onLoaded). */
  loaded(): void {
    this.ready = true;
  }

  isReady(search: PreloadingSearch): boolean {
    if (!this.ready) {
      // A failed load is logged by the search; the next question tries again.
      this.loading ??= search
        .preload()
        .catch(() => undefined)
        .finally(() => {
          this.loading = null;
        });
    }
    return this.ready;
  }
}

/**
 * GET /healthz (liveness): 200 when the process and its database answer, 503 otherwise.
 * GET /readyz (readiness): 200 once the in-memory catalogue has loaded and while the database
 * answers; 503 with the error body and the reason before that and whenever the database does
 * not answer, so a load balancer sends no traffic to a replica that would keep it waiting.
 */
export function healthRouter(db: Database, search: PreloadingSearch, readiness: CatalogueReadiness): Router {
  const router = apiRouter();
  router.get(READINESS_PATH, async (_req, res) => {
    res.set("Cache-Control", "no-store");
    try {
      await withTimeout(db.$queryRaw`SELECT 1`, DATABASE_CHECK_TIMEOUT_MS);
    } catch (error) {
      res.status(503).json(errorBody(503, `the database does not answer: ${safeError(error).message}`));
      return;
    }
    if (!readiness.isReady(search)) {
      res.status(503).json(errorBody(503, "the catalogue is loading"));
      return;
    }
    res.json({ status: "ready" });
  });
  router.get(LIVENESS_PATH, async (_req, res) => {
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
