import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import { serviceRef } from "../events/catalogue-events";
import { emitEvents } from "../events/emit";
import type { Prisma } from "../generated/prisma/client";

/**
 * The writes at the end of a complete crawl of a source: the services it listed are marked
 * listed, those it read unchanged have their history interval extended, and those it no longer
 * lists are delisted (with their status events).
 */

type Transaction = Prisma.TransactionClient;

/**
 * Ids or URLs per statement in the end-of-run writes (mark listed, extend history, delist): a
 * 100,000-service run sends them in slices instead of one array parameter of 100,000, which the
 * client holds in several copies at once (values, serialised parameters, the wire message).
 */
const END_OF_RUN_SLICE = 5_000;
/** An end-of-run transaction over a whole catalogue (100,000 rows) may take longer than a batch's. */
const END_OF_RUN_TIMEOUT_MS = 300_000;

function* slices<T>(items: readonly T[], size = END_OF_RUN_SLICE): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** Services whose detail page was read and found unchanged: extend their open history interval. */
export async function extendUnchangedHistory(db: Database, serviceIds: string[], at: Date): Promise<void> {
  if (serviceIds.length === 0) return;
  await inTransaction(
    db,
    async (tx) => {
      for (const ids of slices(serviceIds)) {
        await tx.$executeRaw`
          UPDATE stats_snapshots s SET observed_to = ${at}, updated_at = now()
          FROM (
            SELECT DISTINCT ON (service_id) id FROM stats_snapshots
            WHERE service_id = ANY(${ids}::uuid[])
            ORDER BY service_id, observed_from DESC, id DESC
          ) latest
          WHERE s.id = latest.id AND s.observed_to < ${at}`;
      }
    },
    { timeoutMs: END_OF_RUN_TIMEOUT_MS },
  );
}

/**
 * Every service on the listing is listed and seen now, including ones that had been delisted
 * (each of those emits service.relisted in the same transaction), except those their origin's
 * owner had delisted (delist_reason owner_request), which stay as they are.
 */
export async function markListed(
  db: Database,
  sourceId: string,
  detailUrls: string[],
  at: Date,
): Promise<void> {
  if (detailUrls.length === 0) return;
  await inTransaction(
    db,
    async (tx) => {
      for (const urls of slices(detailUrls)) {
        const relisted = await tx.$queryRaw<ChangedStatus[]>`
          UPDATE services s SET last_seen_at = ${at}, status = 'listed', delisted_at = NULL, updated_at = now()
          FROM services old JOIN sources src ON src.id = old.source_id
          WHERE old.id = s.id AND s.source_id = ${sourceId}::uuid AND s.detail_url = ANY(${urls}::text[])
            AND (s.last_seen_at < ${at} OR s.status <> 'listed') AND s.delist_reason IS NULL
          RETURNING s.id::text, s.name, s.detail_url, src.kind::text AS source, old.status::text AS was`;
        await emitStatusEvents(
          tx,
          "service.relisted",
          relisted.filter((row) => row.was === "delisted"),
        );
      }
    },
    { timeoutMs: END_OF_RUN_TIMEOUT_MS },
  );
}

interface ChangedStatus {
  id: string;
  name: string;
  detail_url: string;
  source: string;
  was: string;
}

async function emitStatusEvents(
  tx: Transaction,
  type: "service.relisted" | "service.delisted",
  rows: ChangedStatus[],
): Promise<void> {
  await emitEvents(
    tx,
    rows.map((row) => ({
      type,
      serviceId: row.id,
      data: {
        service: serviceRef({ id: row.id, name: row.name, source: row.source, detailUrl: row.detail_url }),
      },
    })),
  );
}

/**
 * After a complete crawl: listed services that were not on the listing are delisted (kept, with
 * history), each with a service.delisted event in the same transaction.
 */
export async function delistMissing(
  db: Database,
  sourceId: string,
  seenUrls: string[],
  at: Date,
): Promise<number> {
  return inTransaction(
    db,
    async (tx) => {
      // The seen URLs go in slices into a table of the transaction's own, so no statement carries
      // them all; the delisting itself stays one statement.
      await tx.$executeRaw`CREATE TEMPORARY TABLE seen_urls (detail_url text PRIMARY KEY) ON COMMIT DROP`;
      for (const urls of slices(seenUrls)) {
        await tx.$executeRaw`
          INSERT INTO seen_urls SELECT * FROM unnest(${urls}::text[]) ON CONFLICT DO NOTHING`;
      }
      const delisted = await tx.$queryRaw<ChangedStatus[]>`
        UPDATE services s SET status = 'delisted', delisted_at = ${at}, updated_at = now()
        FROM sources src
        WHERE src.id = s.source_id AND s.source_id = ${sourceId}::uuid AND s.status = 'listed'
          AND NOT EXISTS (SELECT 1 FROM seen_urls u WHERE u.detail_url = s.detail_url)
        RETURNING s.id::text, s.name, s.detail_url, src.kind::text AS source, 'listed' AS was`;
      await emitStatusEvents(tx, "service.delisted", delisted);
      return delisted.length;
    },
    { timeoutMs: END_OF_RUN_TIMEOUT_MS },
  );
}
