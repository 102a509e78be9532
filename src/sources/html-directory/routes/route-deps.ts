import type { CrawlSession } from "../../../crawl-run/crawl-session";
import type { ServiceBatcher } from "../../../crawl-run/service-batcher";
import type { CrawlSettings } from "../../../crawl-run/settings";
import type { Database } from "../../../db/prisma-client";
import type { ExtractionPool } from "../extraction/extraction-pool";
import type { RequestPacer } from "../request-pacer";
import type { RunConnections } from "../run-connections";

/** What the request handlers of one crawl run share. */
export interface RouteDeps {
  db: Database;
  session: CrawlSession;
  settings: CrawlSettings;
  batcher: ServiceBatcher;
  extraction: ExtractionPool;
  pacer: RequestPacer;
  /** The current run's keep-alive connections (closed between runs, see run-connections.ts). */
  connections: RunConnections;
  /** Whether robots.txt lets us fetch a URL (always true when the crawl ignores robots.txt). */
  robotsAllow: (url: string) => Promise<boolean>;
  /** Fires when the crawl is asked to stop: no retry waits its delay out then. */
  signal?: AbortSignal;
}
