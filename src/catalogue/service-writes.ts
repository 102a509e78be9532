import type { Database } from "../db/prisma-client";
import type { Prisma } from "../generated/prisma/client";
import type { ServiceStatus } from "../generated/prisma/enums";
import type { NormalisedService, NormalisedStats } from "../normalise/service";

type Transaction = Prisma.TransactionClient;

/** What a crawl needs to know about a service it may meet again. */
export interface KnownService {
  id: string;
  contentHash: string | null;
  status: ServiceStatus;
}

export type StoredService = NormalisedService & { name: string };

export interface ServiceWrite {
  sourceId: string;
  detailUrl: string;
  service: StoredService;
  contentHash: string;
  observedAt: Date;
  known: KnownService | undefined;
}

export async function loadKnownServices(db: Database, sourceId: string): Promise<Map<string, KnownService>> {
  const rows = await db.service.findMany({
    where: { sourceId },
    select: { id: true, detailUrl: true, contentHash: true, status: true },
  });
  return new Map(rows.map(({ detailUrl, ...known }) => [detailUrl, known]));
}

function statsColumns(stats: NormalisedStats) {
  return {
    uptime30d: stats.uptime30d,
    avgResponseMs30d: stats.avgResponseMs30d,
    infoUpdatedAt: stats.infoUpdatedAt,
    volumeUsdc30d: stats.volumeUsdc30d,
    txCount30d: stats.txCount30d,
    payerCount30d: stats.payerCount30d,
  };
}

function sameStats(
  stats: NormalisedStats,
  row: {
    uptime30d: number | null;
    avgResponseMs30d: number | null;
    infoUpdatedAt: Date | null;
    volumeUsdc30d: Prisma.Decimal | null;
    txCount30d: number | null;
    payerCount30d: number | null;
  },
): boolean {
  return (
    stats.uptime30d === row.uptime30d &&
    stats.avgResponseMs30d === row.avgResponseMs30d &&
    (stats.infoUpdatedAt?.getTime() ?? null) === (row.infoUpdatedAt?.getTime() ?? null) &&
    stats.volumeUsdc30d === (row.volumeUsdc30d?.toFixed() ?? null) &&
    stats.txCount30d === row.txCount30d &&
    stats.payerCount30d === row.payerCount30d
  );
}

/** Endpoints are a set keyed by method + URL: rows that stay keep their id (probes refer to it). */
async function replaceEndpoints(tx: Transaction, serviceId: string, service: StoredService): Promise<void> {
  const keep = service.endpoints.map((e) => ({ method: e.method, url: e.url }));
  await tx.endpoint.deleteMany({ where: { serviceId, ...(keep.length > 0 ? { NOT: { OR: keep } } : {}) } });
  await Promise.all(
    service.endpoints.map((endpoint, position) =>
      tx.endpoint.upsert({
        where: { serviceId_method_url: { serviceId, method: endpoint.method, url: endpoint.url } },
        create: {
          serviceId,
          position,
          method: endpoint.method,
          url: endpoint.url,
          description: endpoint.description,
        },
        update: { position, description: endpoint.description },
      }),
    ),
  );
}

async function replaceTags(tx: Transaction, serviceId: string, tags: string[]): Promise<void> {
  await tx.serviceTag.deleteMany({ where: { serviceId, tag: { notIn: tags } } });
  await tx.serviceTag.createMany({ data: tags.map((tag) => ({ serviceId, tag })), skipDuplicates: true });
}

/** History: a new row only when a value changed; otherwise the open row's interval is extended. */
async function recordStats(
  tx: Transaction,
  serviceId: string,
  stats: NormalisedStats,
  at: Date,
): Promise<void> {
  const latest = await tx.statsSnapshot.findFirst({
    where: { serviceId },
    orderBy: [{ observedFrom: "desc" }, { id: "desc" }],
  });
  if (latest && sameStats(stats, latest)) {
    await tx.statsSnapshot.update({ where: { id: latest.id }, data: { observedTo: at } });
    return;
  }
  await tx.statsSnapshot.create({
    data: { serviceId, observedFrom: at, observedTo: at, ...statsColumns(stats) },
  });
}

/** Upserts a service read from its detail page, with endpoints, tags and history, atomically. */
export async function saveService(
  db: Database,
  write: ServiceWrite,
): Promise<{ id: string; created: boolean }> {
  const { service, observedAt } = write;
  const fields = {
    name: service.name,
    domain: service.domain,
    description: service.description,
    category: service.category,
    contentHash: write.contentHash,
    status: "listed" as const,
    delistedAt: null,
    lastSeenAt: observedAt,
    ...statsColumns(service.stats),
  };
  return db.$transaction(async (tx) => {
    const row = await tx.service.upsert({
      where: { sourceId_detailUrl: { sourceId: write.sourceId, detailUrl: write.detailUrl } },
      create: { sourceId: write.sourceId, detailUrl: write.detailUrl, firstSeenAt: observedAt, ...fields },
      update: fields,
      select: { id: true, firstSeenAt: true },
    });
    await replaceEndpoints(tx, row.id, service);
    await replaceTags(tx, row.id, service.tags);
    await recordStats(tx, row.id, service.stats, observedAt);
    return { id: row.id, created: write.known === undefined };
  });
}

/**
 * A service seen on the listing whose detail page could not be read: what the listing says is
 * all we know. An existing service is left as it was (its last good data stays).
 */
export async function saveListingOnlyService(
  db: Database,
  input: {
    sourceId: string;
    detailUrl: string;
    name: string;
    domain: string | null;
    description: string | null;
    observedAt: Date;
  },
): Promise<{ id: string; created: boolean }> {
  const existing = await db.service.findUnique({
    where: { sourceId_detailUrl: { sourceId: input.sourceId, detailUrl: input.detailUrl } },
    select: { id: true },
  });
  if (existing) return { id: existing.id, created: false };
  const row = await db.service.create({
    data: {
      sourceId: input.sourceId,
      detailUrl: input.detailUrl,
      name: input.name,
      domain: input.domain,
      description: input.description,
      firstSeenAt: input.observedAt,
      lastSeenAt: input.observedAt,
    },
    select: { id: true },
  });
  return { id: row.id, created: true };
}

/** Services whose detail page was read and found unchanged: extend their open history interval. */
export async function extendUnchangedHistory(db: Database, serviceIds: string[], at: Date): Promise<void> {
  if (serviceIds.length === 0) return;
  await db.$executeRaw`
    UPDATE stats_snapshots s SET observed_to = ${at}, updated_at = now()
    FROM (
      SELECT DISTINCT ON (service_id) id FROM stats_snapshots
      WHERE service_id = ANY(${serviceIds}::uuid[])
      ORDER BY service_id, observed_from DESC, id DESC
    ) latest
    WHERE s.id = latest.id AND s.observed_to < ${at}`;
}

/** Every service on the listing is listed and seen now, including ones that had been delisted. */
export async function markListed(
  db: Database,
  sourceId: string,
  detailUrls: string[],
  at: Date,
): Promise<void> {
  if (detailUrls.length === 0) return;
  await db.$executeRaw`
    UPDATE services SET last_seen_at = ${at}, status = 'listed', delisted_at = NULL, updated_at = now()
    WHERE source_id = ${sourceId}::uuid AND detail_url = ANY(${detailUrls}::text[])
      AND (last_seen_at < ${at} OR status <> 'listed')`;
}

/** After a complete crawl: listed services that were not on the listing are delisted (kept, with history). */
export async function delistMissing(
  db: Database,
  sourceId: string,
  seenUrls: string[],
  at: Date,
): Promise<number> {
  return db.$executeRaw`
    UPDATE services SET status = 'delisted', delisted_at = ${at}, updated_at = now()
    WHERE source_id = ${sourceId}::uuid AND status = 'listed'
      AND NOT (detail_url = ANY(${seenUrls}::text[]))`;
}
