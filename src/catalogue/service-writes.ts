import { randomUUID } from "node:crypto";
import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import { catalogueChangeEvents, serviceStates } from "../events/catalogue-events";
import { emitEvents } from "../events/emit";
import type { Prisma } from "../generated/prisma/client";
import type { ServiceStatus } from "../generated/prisma/enums";
import type { NormalisedService, NormalisedStats } from "../normalise/service";
import type { PaymentOption } from "../payments/types";
import { LOAD_PAGE_ROWS, type PageCacheWrite, savePageCache } from "./page-cache";
import { replaceListingPaymentOptions } from "./payment-options";
import { refreshServiceSearch } from "./search-documents";

type Transaction = Prisma.TransactionClient;

/** What a crawl needs to know about a service it may meet again. */
export interface KnownService {
  id: string;
  contentHash: string | null;
  status: ServiceStatus;
}

export type StoredService = NormalisedService & { name: string };

export interface ServiceWrite {
  detailUrl: string;
  service: StoredService;
  contentHash: string;
  observedAt: Date;
  /** The detail page's validators, saved with the data so a cached fingerprint never runs ahead of it. */
  page: PageCacheWrite | null;
  /**
   * What the source says each endpoint accepts, parallel to `service.endpoints` (a discovery feed's
   * `accepts`). Undefined: the source says nothing about payment, stored options stay as they are.
   */
  listingPaymentOptions?: PaymentOption[][];
}

/** A source's services as a crawl meets them again, read in pages of LOAD_PAGE_ROWS by detail URL. */
export async function loadKnownServices(db: Database, sourceId: string): Promise<Map<string, KnownService>> {
  const known = new Map<string, KnownService>();
  let after: string | undefined;
  for (;;) {
    const rows = await db.service.findMany({
      where: { sourceId, ...(after === undefined ? {} : { detailUrl: { gt: after } }) },
      orderBy: { detailUrl: "asc" },
      take: LOAD_PAGE_ROWS,
      select: { id: true, detailUrl: true, contentHash: true, status: true },
    });
    for (const { detailUrl, ...service } of rows) known.set(detailUrl, service);
    if (rows.length < LOAD_PAGE_ROWS) return known;
    after = rows.at(-1)!.detailUrl;
  }
}

/**
 * Saves a batch of services read from their detail pages: rows, endpoint and tag sets, history
 * and search documents, in one transaction of a few set-based statements. Returns the id of each
 * service by detail URL.
 */
export async function saveServices(
  db: Database,
  sourceId: string,
  writes: ServiceWrite[],
): Promise<Map<string, string>> {
  if (writes.length === 0) return new Map();
  return inTransaction(
    db,
    async (tx) => {
      const urls = writes.map((w) => w.detailUrl);
      const before = await serviceStates(tx, sourceId, urls);
      const ids = await upsertServiceRows(tx, sourceId, writes);
      const rows = writes.map((w) => ({ write: w, id: ids.get(w.detailUrl)! }));
      await replaceEndpoints(tx, rows);
      await replaceListingPaymentOptions(tx, sourceId, rows.flatMap(paymentOptionsOf));
      await replaceTags(tx, rows);
      await recordStats(tx, rows);
      await refreshServiceSearch(tx, [...ids.values()]);
      await savePageCache(
        tx,
        sourceId,
        writes.flatMap((w) => (w.page ? [w.page] : [])),
      );
      // The outbox: what this batch changed, committed with it (src/events).
      await emitEvents(tx, catalogueChangeEvents(before, await serviceStates(tx, sourceId, urls)));
      return ids;
    },
    { timeoutMs: 60_000 },
  );
}

async function upsertServiceRows(
  tx: Transaction,
  sourceId: string,
  writes: ServiceWrite[],
): Promise<Map<string, string>> {
  const col = <T>(pick: (w: ServiceWrite) => T) => writes.map(pick);
  const rows = await tx.$queryRaw<{ id: string; detail_url: string }[]>`
    INSERT INTO services (id, source_id, detail_url, name, domain, description, category, status, content_hash,
      first_seen_at, last_seen_at, delisted_at, uptime_30d, avg_response_ms_30d, info_updated_at, volume_usdc_30d,
      tx_count_30d, payer_count_30d, updated_at)
    SELECT n.id, ${sourceId}::uuid, n.detail_url, n.name, n.domain, n.description, n.category, 'listed', n.content_hash,
      n.seen_at, n.seen_at, NULL, n.uptime, n.response_ms, n.info_updated_at, n.volume, n.tx_count, n.payer_count, now()
    FROM unnest(
      ${col(() => randomUUID())}::uuid[], ${col((w) => w.detailUrl)}::text[], ${col((w) => w.service.name)}::text[],
      ${col((w) => w.service.domain)}::text[], ${col((w) => w.service.description)}::text[],
      ${col((w) => w.service.category)}::text[], ${col((w) => w.contentHash)}::text[],
      ${col((w) => w.observedAt)}::timestamptz[], ${col((w) => w.service.stats.uptime30d)}::float8[],
      ${col((w) => w.service.stats.avgResponseMs30d)}::float8[], ${col((w) => w.service.stats.infoUpdatedAt)}::timestamptz[],
      ${col((w) => w.service.stats.volumeUsdc30d)}::numeric[], ${col((w) => w.service.stats.txCount30d)}::int[],
      ${col((w) => w.service.stats.payerCount30d)}::int[]
    ) AS n(id, detail_url, name, domain, description, category, content_hash, seen_at, uptime, response_ms,
           info_updated_at, volume, tx_count, payer_count)
    ON CONFLICT (source_id, detail_url) DO UPDATE SET
      name = EXCLUDED.name, domain = EXCLUDED.domain, description = EXCLUDED.description,
      category = EXCLUDED.category, content_hash = EXCLUDED.content_hash,
      -- A service its origin's owner had delisted stays delisted (src/ownership).
      status = CASE WHEN services.delist_reason = 'owner_request' THEN services.status ELSE 'listed' END,
      delisted_at = CASE WHEN services.delist_reason = 'owner_request' THEN services.delisted_at END,
      last_seen_at = EXCLUDED.last_seen_at, uptime_30d = EXCLUDED.uptime_30d,
      avg_response_ms_30d = EXCLUDED.avg_response_ms_30d, info_updated_at = EXCLUDED.info_updated_at,
      volume_usdc_30d = EXCLUDED.volume_usdc_30d, tx_count_30d = EXCLUDED.tx_count_30d,
      payer_count_30d = EXCLUDED.payer_count_30d, updated_at = now()
    RETURNING id::text, detail_url`;
  return new Map(rows.map((r) => [r.detail_url, r.id]));
}

interface Row {
  write: ServiceWrite;
  id: string;
}

function paymentOptionsOf({ write, id }: Row) {
  const options = write.listingPaymentOptions;
  if (options === undefined) return [];
  const endpoints = write.service.endpoints.map((e, i) => ({
    method: e.method,
    url: e.url,
    options: options[i] ?? [],
  }));
  return [{ serviceId: id, observedAt: write.observedAt, endpoints }];
}

/** Endpoints are a set keyed by method + URL: rows that stay keep their id (probes refer to it). */
async function replaceEndpoints(tx: Transaction, rows: Row[]): Promise<void> {
  const flat = rows.flatMap(({ write, id }) =>
    write.service.endpoints.map((e, position) => ({ serviceId: id, position, ...e })),
  );
  const serviceIds = rows.map((r) => r.id);
  await tx.$executeRaw`
    DELETE FROM endpoints e
    WHERE e.service_id = ANY(${serviceIds}::uuid[])
      AND NOT EXISTS (
        SELECT 1 FROM unnest(${flat.map((f) => f.serviceId)}::uuid[], ${flat.map((f) => f.method)}::text[],
                             ${flat.map((f) => f.url)}::text[]) AS k(service_id, method, url)
        WHERE k.service_id = e.service_id AND k.method = e.method AND k.url = e.url)`;
  if (flat.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO endpoints (id, service_id, position, method, url, description, call_description, self_reported,
      updated_at)
    SELECT n.id, n.service_id, n.position, n.method, n.url, n.description, n.call_description::jsonb,
      n.self_reported::jsonb, now()
    FROM unnest(${flat.map(() => randomUUID())}::uuid[], ${flat.map((f) => f.serviceId)}::uuid[],
                ${flat.map((f) => f.position)}::int[], ${flat.map((f) => f.method)}::text[],
                ${flat.map((f) => f.url)}::text[], ${flat.map((f) => f.description)}::text[],
                ${flat.map((f) => (f.call ? JSON.stringify(f.call) : null))}::text[],
                ${flat.map((f) => (f.selfReported ? JSON.stringify(f.selfReported) : null))}::text[])
      AS n(id, service_id, position, method, url, description, call_description, self_reported)
    ON CONFLICT (service_id, method, url) DO UPDATE SET
      position = EXCLUDED.position, description = EXCLUDED.description,
      call_description = EXCLUDED.call_description, self_reported = EXCLUDED.self_reported, updated_at = now()`;
}

async function replaceTags(tx: Transaction, rows: Row[]): Promise<void> {
  const flat = rows.flatMap(({ write, id }) => write.service.tags.map((tag) => ({ serviceId: id, tag })));
  await tx.$executeRaw`
    DELETE FROM service_tags t
    WHERE t.service_id = ANY(${rows.map((r) => r.id)}::uuid[])
      AND NOT EXISTS (
        SELECT 1 FROM unnest(${flat.map((f) => f.serviceId)}::uuid[], ${flat.map((f) => f.tag)}::text[]) AS k(service_id, tag)
        WHERE k.service_id = t.service_id AND k.tag = t.tag)`;
  if (flat.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO service_tags (service_id, tag)
    SELECT * FROM unnest(${flat.map((f) => f.serviceId)}::uuid[], ${flat.map((f) => f.tag)}::text[])
    ON CONFLICT DO NOTHING`;
}

interface LatestSnapshot {
  id: bigint;
  service_id: string;
  uptime_30d: number | null;
  avg_response_ms_30d: number | null;
  info_updated_at: Date | null;
  volume_usdc_30d: string | null;
  tx_count_30d: number | null;
  payer_count_30d: number | null;
}

function sameStats(stats: NormalisedStats, row: LatestSnapshot): boolean {
  return (
    stats.uptime30d === row.uptime_30d &&
    stats.avgResponseMs30d === row.avg_response_ms_30d &&
    (stats.infoUpdatedAt?.getTime() ?? null) === (row.info_updated_at?.getTime() ?? null) &&
    stats.volumeUsdc30d === row.volume_usdc_30d &&
    stats.txCount30d === row.tx_count_30d &&
    stats.payerCount30d === row.payer_count_30d
  );
}

/** History: a new row only when a value changed; otherwise the open row's interval is extended. */
async function recordStats(tx: Transaction, rows: Row[]): Promise<void> {
  // trim_scale drops the numeric's padding zeros so the text compares with our canonical decimals.
  const latest = await tx.$queryRaw<LatestSnapshot[]>`
    SELECT DISTINCT ON (service_id) id, service_id::text, uptime_30d, avg_response_ms_30d, info_updated_at,
      trim_scale(volume_usdc_30d)::text AS volume_usdc_30d, tx_count_30d, payer_count_30d
    FROM stats_snapshots WHERE service_id = ANY(${rows.map((r) => r.id)}::uuid[])
    ORDER BY service_id, observed_from DESC, id DESC`;
  const latestByService = new Map(latest.map((s) => [s.service_id, s]));
  const extend: bigint[] = [];
  const fresh: Row[] = [];
  for (const row of rows) {
    const previous = latestByService.get(row.id);
    if (previous && sameStats(row.write.service.stats, previous)) extend.push(previous.id);
    else fresh.push(row);
  }
  const at = rows[0]!.write.observedAt;
  if (extend.length > 0) {
    await tx.$executeRaw`UPDATE stats_snapshots SET observed_to = ${at}, updated_at = now() WHERE id = ANY(${extend}::bigint[])`;
  }
  if (fresh.length === 0) return;
  const stat = <T>(pick: (s: NormalisedStats) => T) => fresh.map((r) => pick(r.write.service.stats));
  await tx.$executeRaw`
    INSERT INTO stats_snapshots (service_id, observed_from, observed_to, uptime_30d, avg_response_ms_30d,
      info_updated_at, volume_usdc_30d, tx_count_30d, payer_count_30d, updated_at)
    SELECT n.service_id, n.at, n.at, n.uptime, n.response_ms, n.info_updated_at, n.volume, n.tx_count, n.payer_count, now()
    FROM unnest(${fresh.map((r) => r.id)}::uuid[], ${fresh.map((r) => r.write.observedAt)}::timestamptz[],
                ${stat((s) => s.uptime30d)}::float8[], ${stat((s) => s.avgResponseMs30d)}::float8[],
                ${stat((s) => s.infoUpdatedAt)}::timestamptz[], ${stat((s) => s.volumeUsdc30d)}::numeric[],
                ${stat((s) => s.txCount30d)}::int[], ${stat((s) => s.payerCount30d)}::int[])
      AS n(service_id, at, uptime, response_ms, info_updated_at, volume, tx_count, payer_count)`;
}

/** What a listing says of a service: all that is stored of one whose detail page was not read. */
export interface ListingOnlyService {
  detailUrl: string;
  name: string;
  domain: string | null;
  description: string | null;
}

/**
 * Services seen on the listing whose detail page was not read (it failed, or waits for a later
 * run's budget): what the listing says is all we know. An existing service is left as it was
 * (its last good data stays); a new one is created with its search document and a
 * `service.listed` event. One transaction of set-based statements for the whole batch (it was
 * about five statements a service). Returns each service's id by detail URL, and whether this
 * call created it.
 */
export async function saveListingOnlyServices(
  db: Database,
  sourceId: string,
  services: readonly ListingOnlyService[],
  observedAt: Date,
): Promise<Map<string, { id: string; created: boolean }>> {
  if (services.length === 0) return new Map();
  const col = <T>(pick: (s: ListingOnlyService) => T) => services.map(pick);
  const urls = col((s) => s.detailUrl);
  return inTransaction(db, async (tx) => {
    const rows = await tx.$queryRaw<{ id: string; detail_url: string; created: boolean }[]>`
      WITH inserted AS (
        INSERT INTO services (id, source_id, detail_url, name, domain, description, first_seen_at, last_seen_at,
          updated_at)
        SELECT n.id, ${sourceId}::uuid, n.detail_url, n.name, n.domain, n.description, ${observedAt}, ${observedAt},
          now()
        FROM unnest(${col(() => randomUUID())}::uuid[], ${urls}::text[], ${col((s) => s.name)}::text[],
                    ${col((s) => s.domain)}::text[], ${col((s) => s.description)}::text[])
          AS n(id, detail_url, name, domain, description)
        ON CONFLICT (source_id, detail_url) DO NOTHING
        RETURNING id, detail_url)
      SELECT id::text, detail_url, true AS created FROM inserted
      UNION ALL
      -- The statement's snapshot does not see the rows it inserts: these are the existing ones.
      SELECT s.id::text, s.detail_url, false FROM services s
      WHERE s.source_id = ${sourceId}::uuid AND s.detail_url = ANY(${urls}::text[])`;
    const saved = new Map(rows.map((r) => [r.detail_url, { id: r.id, created: r.created }]));
    const created = urls.filter((url) => saved.get(url)?.created);
    await refreshServiceSearch(
      tx,
      created.map((url) => saved.get(url)!.id),
    );
    // Events in the batch's order (the listing's), as one call per service gave them.
    const states = await serviceStates(tx, sourceId, created);
    const after = new Map(
      created.flatMap((url) => (states.has(url) ? [[url, states.get(url)!] as const] : [])),
    );
    await emitEvents(tx, catalogueChangeEvents(new Map(), after));
    return saved;
  });
}
