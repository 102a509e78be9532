import type { Database } from "../db/prisma-client";
import type { CrawlStatus } from "../generated/prisma/enums";
import type { Logger } from "../logging/logger";
import type { CrawlSession } from "./crawl-session";
import type { CrawlSettings } from "./settings";

export interface CrawlDependencies {
  db: Database;
  databaseUrl: string;
  logger: Logger;
  settings: CrawlSettings;
}

export interface CrawlRequest {
  url: string;
  trigger: "manual" | "schedule";
  /** Stops the crawl early (shutdown): the run is recorded as aborted and nothing is delisted. */
  signal?: AbortSignal;
}

/** What one crawl of one source came to, whatever its kind; exit codes and schedules read it. */
export type CrawlOutcome =
  | { status: "skipped"; reason: string }
  | {
      status: CrawlStatus;
      runId: string;
      counts: CrawlSession["counts"];
      durationMs: number;
      message: string | null;
    };
