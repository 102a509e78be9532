import { type ServiceWrite, saveServices } from "../catalogue/service-writes";
import type { Database } from "../db/prisma-client";
import type { Logger } from "../logging/logger";
import type { CrawlSession } from "./crawl-session";

/**
 * Collects changed services and stores them in batches: one transaction of set-based statements
 * per batch instead of one per service, which is what lets storing keep pace with fetching.
 * Batches are written one after another. A batch that fails is retried service by service, so
 * one bad row costs only itself (recorded as a store error), never its neighbours. A service
 * counts as new or updated in the run once it is stored, so the run's counts say what was written.
 */
interface PendingWrite {
  write: ServiceWrite;
  /** The run knew no service at its URL when the write was queued. */
  isNew: boolean;
}

export class ServiceBatcher {
  private pending: PendingWrite[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly session: CrawlSession,
    private readonly logger: Logger,
    private readonly batchSize = 100,
  ) {}

  /** Queues a write; the caller that fills a batch waits for it, which bounds memory. */
  async add(write: ServiceWrite): Promise<void> {
    this.pending.push({ write, isNew: !this.session.known.has(write.detailUrl) });
    if (this.pending.length >= this.batchSize) await this.flush();
  }

  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.chain = this.chain.then(() => this.store(batch));
    return this.chain;
  }

  private async store(batch: PendingWrite[]): Promise<void> {
    try {
      const ids = await saveServices(
        this.db,
        this.session.sourceId,
        batch.map((pending) => pending.write),
      );
      this.remember(batch, ids);
    } catch (error) {
      if (batch.length === 1) {
        const url = batch[0]!.write.detailUrl;
        this.logger.error({ err: error, url }, "could not store a service");
        this.session.recordError({ kind: "store", url, message: String(error) });
        return;
      }
      this.logger.warn({ err: error, services: batch.length }, "batch store failed; storing one by one");
      for (const write of batch) await this.store([write]);
    }
  }

  private remember(batch: PendingWrite[], ids: Map<string, string>): void {
    const { counts, known } = this.session;
    for (const { write, isNew } of batch) {
      const id = ids.get(write.detailUrl);
      if (!id) continue;
      known.set(write.detailUrl, { id, contentHash: write.contentHash, status: "listed" });
      if (isNew) counts.servicesNew += 1;
      else counts.servicesUpdated += 1;
    }
  }
}
