import { type ServiceWrite, saveServices } from "../catalogue/service-writes";
import type { Database } from "../db/prisma-client";
import type { Logger } from "../logging/logger";
import type { CrawlSession } from "./crawl-session";

/**
 * Collects changed services and stores them in batches: one transaction of set-based statements
 * per batch instead of one per service, which is what lets storing keep pace with fetching.
 * Batches are written one after another. A batch that fails is retried service by service, so
 * one bad row costs only itself (recorded as a store error), never its neighbours.
 */
export class ServiceBatcher {
  private pending: ServiceWrite[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly session: CrawlSession,
    private readonly logger: Logger,
    private readonly batchSize = 100,
  ) {}

  /** Queues a write; the caller that fills a batch waits for it, which bounds memory. */
  async add(write: ServiceWrite): Promise<void> {
    this.pending.push(write);
    if (this.pending.length >= this.batchSize) await this.flush();
  }

  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.chain = this.chain.then(() => this.store(batch));
    return this.chain;
  }

  private async store(batch: ServiceWrite[]): Promise<void> {
    try {
      this.remember(batch, await saveServices(this.db, this.session.sourceId, batch));
    } catch (error) {
      if (batch.length === 1) {
        this.logger.error({ err: error, url: batch[0]!.detailUrl }, "could not store a service");
        this.session.recordError({ kind: "store", url: batch[0]!.detailUrl, message: String(error) });
        return;
      }
      this.logger.warn({ err: error, services: batch.length }, "batch store failed; storing one by one");
      for (const write of batch) await this.store([write]);
    }
  }

  private remember(batch: ServiceWrite[], ids: Map<string, string>): void {
    for (const write of batch) {
      const id = ids.get(write.detailUrl);
      if (id)
        this.session.known.set(write.detailUrl, { id, contentHash: write.contentHash, status: "listed" });
    }
  }
}
