import { endpointKey, storedEndpointKeys } from "../../catalogue/endpoint-keys";
import type { KnownService } from "../../catalogue/service-writes";
import type { CrawlSession } from "../../crawl-run/crawl-session";
import type { ServiceBatcher } from "../../crawl-run/service-batcher";
import type { Database } from "../../db/prisma-client";
import { bazaarFingerprint } from "./fingerprint";
import type { BazaarService } from "./services";

export interface StoreOptions {
  /** The walk read the whole feed: what a service no longer lists can be dropped. */
  complete: boolean;
  observedAt: Date;
}

/**
 * Stores the services a feed walk found, in batches, skipping those whose fingerprint is
 * unchanged. After an incomplete walk a known service that showed only some of its stored
 * endpoints is left as stored: writing it would drop the endpoints (and payment options) that
 * sat on the pages we missed. Returns how many services were held back that way.
 */
export async function storeFeedServices(
  db: Database,
  session: CrawlSession,
  batcher: ServiceBatcher,
  services: BazaarService[],
  options: StoreOptions,
): Promise<{ heldBack: number }> {
  const partlySeen = options.complete ? new Set<string>() : await findPartlySeen(db, services, session.known);
  for (const feedService of services) {
    const known = session.known.get(feedService.detailUrl);
    if (partlySeen.has(feedService.detailUrl)) {
      session.counts.servicesUnchanged += 1;
      continue;
    }
    const contentHash = bazaarFingerprint(feedService);
    if (known && known.contentHash === contentHash) {
      markUnchanged(session, known);
      continue;
    }
    // Recorded only when the service is written: an unchanged one would repeat them every hour.
    // The batcher counts it as new or updated once it is stored.
    recordWarnings(session, feedService);
    await batcher.add({
      detailUrl: feedService.detailUrl,
      service: feedService.service,
      contentHash,
      observedAt: options.observedAt,
      page: null,
      listingPaymentOptions: feedService.paymentOptions,
    });
  }
  await batcher.flush();
  return { heldBack: partlySeen.size };
}

async function findPartlySeen(
  db: Database,
  services: BazaarService[],
  known: Map<string, KnownService>,
): Promise<Set<string>> {
  const knownIds = services.flatMap((s) => {
    const id = known.get(s.detailUrl)?.id;
    return id === undefined ? [] : [{ detailUrl: s.detailUrl, id, service: s }];
  });
  const stored = await storedEndpointKeys(
    db,
    knownIds.map((k) => k.id),
  );
  const partly = new Set<string>();
  for (const { detailUrl, id, service } of knownIds) {
    const seen = new Set(service.service.endpoints.map((e) => endpointKey(e.method, e.url)));
    for (const key of stored.get(id) ?? []) {
      if (!seen.has(key)) {
        partly.add(detailUrl);
        break;
      }
    }
  }
  return partly;
}

function markUnchanged(session: CrawlSession, known: KnownService): void {
  session.unchangedServiceIds.push(known.id);
  // A delisted service seen again is relisted at the end of the run: that is a change.
  if (known.status === "delisted") session.counts.servicesUpdated += 1;
  else session.counts.servicesUnchanged += 1;
}

function recordWarnings(session: CrawlSession, service: BazaarService): void {
  session.counts.valueProblems += service.warnings.length;
  for (const warning of service.warnings) {
    session.recordError({ kind: "value", url: warning.url, field: "item", message: warning.message });
  }
}
