import type { HttpCrawlingContext } from "@crawlee/http";
import { serviceFingerprint } from "../../../catalogue/service-fingerprint";
import {
  type KnownService,
  type ListingOnlyService,
  saveListingOnlyServices,
} from "../../../catalogue/service-writes";
import { type CrawlSession, pageFingerprint } from "../../../crawl-run/crawl-session";
import type { Database } from "../../../db/prisma-client";
import { parseDomain } from "../../../normalise/values";
import type { DetailUserData } from "./labels";
import { statusOf, validatorsOf } from "./response";
import type { RouteDeps } from "./route-deps";

/**
 * A detail page: extract → normalise → store, unless nothing changed. Unchanged is decided as
 * cheaply as possible: a 304, then the same bytes as last time, then the same normalised content.
 */
export function detailRoute({ db, session, settings, batcher, extraction }: RouteDeps) {
  return async (context: HttpCrawlingContext<DetailUserData>) => {
    const { request, response, body } = context;
    const { detailUrl } = request.userData;
    const entry = session.listed.get(detailUrl) ?? { detailUrl, name: null, domain: null, description: null };
    const known = session.known.get(detailUrl);
    const status = statusOf(response);

    if (status >= 400) {
      // A vanished detail page: recorded and skipped. The listing still shows the service, so it
      // stays listed with its last good data (or, if new, with what the listing says).
      session.counts.pagesFailed += 1;
      session.recordError({ kind: "fetch", url: request.url, statusCode: status, message: `HTTP ${status}` });
      await saveFromListing(db, session, [detailUrl]);
      return;
    }
    if (status === 304 && known) return markUnchanged(session, known, detailUrl);

    const fingerprint = pageFingerprint(body);
    if (known && session.pageCache.get(detailUrl)?.contentHash === fingerprint)
      return markUnchanged(session, known, detailUrl);

    session.counts.pagesFetched += 1;
    const pageUrl = request.loadedUrl ?? request.url;
    const read = await extraction.run({
      kind: "detail",
      html: body.toString(),
      pageUrl,
      aliases: settings.labelAliases(new URL(pageUrl).host),
      listing: entry,
      readAt: Date.now(),
    });
    if (read.kind !== "detail") throw new Error("extraction answered a detail page with a listing");
    const { service, problems } = read.detail;
    session.recordValueProblems(problems);
    const name = service.name ?? entry.name ?? service.domain ?? detailUrl;
    const contentHash = serviceFingerprint({ ...service, name });

    const page = {
      url: detailUrl,
      ...validatorsOf(response),
      contentHash: fingerprint,
      extracted: null,
      fetchedAt: new Date(),
    };
    if (known && known.contentHash === contentHash) {
      markUnchanged(session, known, detailUrl);
      session.rememberPage(page);
      return;
    }
    // Counted as new or updated by the batcher, once stored.
    await batcher.add({
      detailUrl,
      service: { ...service, name },
      contentHash,
      observedAt: new Date(),
      page,
    });
  };
}

export function markUnchanged(session: CrawlSession, known: KnownService, detailUrl: string): void {
  session.counts.pagesUnchanged += 1;
  session.recordPageChecked(detailUrl);
  session.unchangedServiceIds.push(known.id);
  // A delisted service seen again is relisted at the end of the run: that is a change.
  if (known.status === "delisted") session.counts.servicesUpdated += 1;
  else session.counts.servicesUnchanged += 1;
}

/**
 * Services whose detail page was not read (it could not be, or waits for a later run): a new one
 * is created from its listing entry, a known one keeps what is stored. Set-based, so a run that
 * leaves 90,000 detail pages for later stores them in a few statements per batch.
 */
export async function saveFromListing(
  db: Database,
  session: CrawlSession,
  detailUrls: readonly string[],
): Promise<void> {
  const services: ListingOnlyService[] = [];
  for (const detailUrl of detailUrls) {
    const entry = session.known.has(detailUrl) ? undefined : session.listed.get(detailUrl);
    if (!entry) continue;
    const domain = parseDomain(entry.domain);
    services.push({
      detailUrl,
      name: entry.name ?? entry.domain ?? detailUrl,
      domain: domain.kind === "value" ? domain.value : null,
      description: entry.description,
    });
  }
  const saved = await saveListingOnlyServices(db, session.sourceId, services, new Date());
  for (const [detailUrl, { id, created }] of saved) {
    if (created) session.counts.servicesNew += 1;
    session.known.set(detailUrl, { id, contentHash: null, status: "listed" });
  }
}
