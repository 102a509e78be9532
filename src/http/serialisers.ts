import type { CrawlRunRecord } from "../catalogue/crawl-run-queries";
import type { DailyRecord } from "../catalogue/daily-queries";
import type { EndpointHit } from "../catalogue/endpoint-queries";
import type { HistoryRecord } from "../catalogue/history-queries";
import type { ObservedDayRecord } from "../catalogue/observed-history";
import type { Page } from "../catalogue/paging";
import type { EndpointDrift, ProbeSummary, ProbeWindowStats } from "../catalogue/probe-stats";
import type {
  EndpointDetail,
  PaymentOptionRecord,
  ServiceDetail,
  SourceListing,
  TrustRecord,
} from "../catalogue/service-details";
import type { ServiceRecord } from "../catalogue/service-queries";
import type { TaxonomyCount } from "../catalogue/taxonomy-queries";
import type { ListedTrust } from "../catalogue/trust-queries";
import { transportOf } from "../mcp-tools/tool-url";
import { reportJson } from "../ownership/owner-columns";
import type { EndpointPayability } from "../payability/endpoint-verdict";
import { priceKindOf } from "../payability/requirement-verdict";
import type { QueryReading } from "../search/catalogue-search";

/** The one place records become API JSON: snake_case names, ISO 8601 dates, decimals as strings. */

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** How a search read its q: corrections, dropped words, whether results match only some words. */
export function queryReadingJson(reading: QueryReading) {
  return { corrected: reading.corrected, dropped: reading.dropped, partial: reading.partial };
}

export function listJson<T, J>(page: Page<T>, item: (record: T) => J) {
  return { items: page.items.map(item), has_more: page.hasMore, total: page.total };
}

export function serviceJson(service: ServiceRecord) {
  return {
    id: service.id,
    name: service.name,
    domain: service.domain,
    description: service.description,
    category: service.category,
    tags: service.tags,
    endpoints: service.endpoints.map((e) => ({
      method: e.method,
      transport: transportOf(e.method),
      url: e.url,
      description: e.description,
    })),
    uptime_30d: service.uptime30d,
    avg_response_ms_30d: service.avgResponseMs30d,
    info_updated_at: iso(service.infoUpdatedAt),
    volume_usdc_30d: service.volumeUsdc30d,
    tx_count_30d: service.txCount30d,
    payer_count_30d: service.payerCount30d,
    status: service.status,
    delist_reason: service.delistReason,
    first_seen_at: service.firstSeenAt.toISOString(),
    last_seen_at: service.lastSeenAt.toISOString(),
    source_url: service.sourceUrl,
    price_usdc_min: service.priceUsdcMin,
    networks: service.networks,
    ...listedTrustJson(service),
    owner_verified: service.ownerVerified,
    owner_reported:
      service.ownerReported && reportJson(service.ownerReported, service.ownerReported.reported_at),
  };
}

/** The verdicts a list item shows, under the detail's names. */
function listedTrustJson(trust: ListedTrust) {
  return { health: trust.health, grade: trust.grade, score: trust.score, warnings: trust.trustWarnings };
}

export function windowJson(stats: ProbeWindowStats) {
  return { probes: stats.probes, uptime_pct: stats.uptimePct, p50_ms: stats.p50Ms, p99_ms: stats.p99Ms };
}

export function probeJson(probe: ProbeSummary) {
  const last = probe.lastProbe;
  return {
    verified: probe.verified,
    last_verified_at: iso(probe.lastVerifiedAt),
    last_probe: last && {
      at: last.at.toISOString(),
      status_code: last.statusCode,
      outcome: last.outcome,
      challenge_valid: last.challengeValid,
      error: last.error,
    },
    windows: {
      "24h": windowJson(probe.windows["24h"]),
      "7d": windowJson(probe.windows["7d"]),
      "30d": windowJson(probe.windows["30d"]),
    },
  };
}

export function driftJson(drift: EndpointDrift | null) {
  return drift && { seen_at: drift.seenAt.toISOString(), differences: drift.differences };
}

export function paymentOptionJson(option: PaymentOptionRecord) {
  return {
    origin: option.origin,
    source: option.source,
    source_url: option.sourceUrl,
    scheme: option.scheme,
    price_kind: priceKindOf(option.scheme),
    network: option.network,
    network_name: option.networkName,
    asset: option.asset,
    asset_symbol: option.assetSymbol,
    amount_atomic: option.amountAtomic,
    price_usdc: option.priceUsdc,
    pay_to: option.payTo,
    max_timeout_seconds: option.maxTimeoutSeconds,
    warnings: option.warnings,
    payable: option.payable,
    unpayable_reasons: option.unpayableReasons,
    observed_at: option.observedAt.toISOString(),
  };
}

export function payabilityJson(payability: EndpointPayability) {
  return { payable: payability.payable, decided_by: payability.decidedBy, reasons: payability.reasons };
}

function endpointDetailJson(endpoint: EndpointDetail) {
  return {
    method: endpoint.method,
    transport: transportOf(endpoint.method),
    url: endpoint.url,
    description: endpoint.description,
    payment_options: endpoint.paymentOptions.map(paymentOptionJson),
    probe: probeJson(endpoint.probe),
    payability: payabilityJson(endpoint.payability),
    call: endpoint.call,
    self_reported: endpoint.selfReported,
    evidence: {
      pay_to_shared_with_origins: endpoint.evidence.payToSharedWithOrigins,
      answers_our_probes: endpoint.evidence.answersOurProbes,
      listed_since: endpoint.evidence.listedSince.toISOString(),
      listing_age_days: endpoint.evidence.listingAgeDays,
    },
    drift: driftJson(endpoint.drift),
    ...endpointTrustJson(endpoint.trust),
    observed: endpoint.observed,
  };
}

function serviceTrustJson(trust: TrustRecord) {
  return {
    health: trust.health,
    health_reason: trust.healthReason,
    health_changed_at: iso(trust.healthChangedAt),
    grade: trust.grade,
    score: trust.score,
    warnings: trust.warnings,
  };
}

function endpointTrustJson(trust: TrustRecord) {
  return { ...serviceTrustJson(trust), checks: trust.checks };
}

function sourceListingJson(source: SourceListing) {
  return {
    kind: source.kind,
    source: source.source,
    source_url: source.sourceUrl,
    status: source.status,
    first_seen_at: source.firstSeenAt.toISOString(),
    last_seen_at: source.lastSeenAt.toISOString(),
  };
}

/** The list item plus what is too heavy for pages of a hundred: per-endpoint detail and provenance. */
export function serviceDetailJson(detail: ServiceDetail) {
  return {
    ...serviceJson(detail.service),
    endpoints: detail.endpoints.map(endpointDetailJson),
    probe: probeJson(detail.probe),
    ...serviceTrustJson(detail.trust),
    sources: detail.sources.map(sourceListingJson),
    observed: detail.observed,
  };
}

export function observedDayJson(record: ObservedDayRecord) {
  return {
    day: record.day,
    observed_volume_usdc: record.observedVolumeUsdc,
    adjusted_volume_usdc: record.adjustedVolumeUsdc,
    observed_tx_count: record.observedTxCount,
    adjusted_tx_count: record.adjustedTxCount,
    observed_unique_payers: record.observedUniquePayers,
    adjusted_unique_payers: record.adjustedUniquePayers,
  };
}

export function historyJson(record: HistoryRecord) {
  return {
    observed_from: record.observedFrom.toISOString(),
    observed_to: record.observedTo.toISOString(),
    uptime_30d: record.uptime30d,
    avg_response_ms_30d: record.avgResponseMs30d,
    volume_usdc_30d: record.volumeUsdc30d,
    tx_count_30d: record.txCount30d,
    payer_count_30d: record.payerCount30d,
    info_updated_at: iso(record.infoUpdatedAt),
  };
}

export function dailyJson(record: DailyRecord) {
  return {
    day: record.day,
    probes: windowJson(record.probes),
    price_min_usdc: record.priceMinUsdc,
    price_max_usdc: record.priceMaxUsdc,
    claimed_volume_usdc_30d: record.claimedVolumeUsdc30d,
    observed_volume_usdc_30d: record.observedVolumeUsdc30d,
    adjusted_volume_usdc_30d: record.adjustedVolumeUsdc30d,
  };
}

/**
 * An endpoint search item, split around `verified` (a valid challenge within 24 hours: it depends
 * on when the request comes, so the loaded catalogue inserts it per request into text built once).
 */
export function endpointHitJsonParts(hit: EndpointHit): { head: string; tail: string } {
  const head = JSON.stringify({
    service_id: hit.serviceId,
    service_name: hit.serviceName,
    domain: hit.domain,
    method: hit.method,
    transport: transportOf(hit.method),
    url: hit.url,
    description: hit.description,
    payability: payabilityJson(hit.payability),
    call: hit.call,
    ...listedTrustJson(hit),
  });
  const last = hit.lastProbe;
  const tail = JSON.stringify({
    last_verified_at: iso(hit.lastVerifiedAt),
    payment_options: hit.paymentOptions.map(paymentOptionJson),
    last_probe: last && {
      at: last.at.toISOString(),
      status_code: last.statusCode,
      outcome: last.outcome,
      error: last.error,
    },
    drift: driftJson(hit.drift),
  });
  return { head: `${head.slice(0, -1)},`, tail: tail.slice(1) };
}

export const categoryJson = (count: TaxonomyCount) => ({
  category: count.value,
  service_count: count.serviceCount,
});
export const tagJson = (count: TaxonomyCount) => ({ tag: count.value, service_count: count.serviceCount });

export function crawlRunJson(run: CrawlRunRecord) {
  return {
    id: run.id,
    source_kind: run.sourceKind,
    source_url: run.sourceUrl,
    status: run.status,
    trigger: run.trigger,
    started_at: run.startedAt.toISOString(),
    finished_at: iso(run.finishedAt),
    duration_ms: run.durationMs,
    listing_complete: run.listingComplete,
    pages_fetched: run.pagesFetched,
    pages_failed: run.pagesFailed,
    pages_unchanged: run.pagesUnchanged,
    services_seen: run.servicesSeen,
    services_new: run.servicesNew,
    services_updated: run.servicesUpdated,
    services_unchanged: run.servicesUnchanged,
    services_delisted: run.servicesDelisted,
    value_problems: run.valueProblems,
    message: run.message,
    error_count: run.errorCount,
    errors: run.errors.map((e) => ({
      kind: e.kind,
      url: e.url,
      status_code: e.statusCode,
      field: e.field,
      raw_text: e.rawText,
      message: e.message,
      created_at: e.createdAt,
    })),
  };
}
