import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { entryOf } from "./catalogue-entries";
import { completePage, type Page, type Paging } from "./paging";
import { shownId } from "./service-queries";
import { volumeText, whereAll } from "./sql";

/** A window of time: history rows whose observed interval overlaps it are kept. */
export interface HistoryWindow {
  from?: Date;
  to?: Date;
}

export interface HistoryRecord {
  observedFrom: Date;
  observedTo: Date;
  uptime30d: number | null;
  avgResponseMs30d: number | null;
  volumeUsdc30d: string | null;
  txCount30d: number | null;
  payerCount30d: number | null;
  infoUpdatedAt: Date | null;
}

function windowConditions(window: HistoryWindow): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (window.from) where.push(Prisma.sql`h.observed_to >= ${window.from.toISOString()}::timestamptz`);
  if (window.to) where.push(Prisma.sql`h.observed_from <= ${window.to.toISOString()}::timestamptz`);
  return where;
}

/**
 * The shown id of the entry that `id` names (as the detail resolves it: the id an entry is shown
 * under, else a row's own id); NULL when nothing has that id.
 */
function shownEntryOf(id: string): Prisma.Sql {
  return Prisma.sql`(SELECT ${shownId("x")} FROM services x WHERE x.entry_id = ${id}::uuid OR x.id = ${id}::uuid
    ORDER BY (x.entry_id = ${id}::uuid) IS TRUE DESC LIMIT 1)`;
}

/**
 * Ids of every row of the entry shown under `shown`: its history is theirs together. Spelled as
 * shownId("m") = shown, split so that each half is an index lookup (entry_id, services_entry_idx).
 */
function entryRows(shown: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT m.id FROM services m WHERE m.entry_id = ${shown}
    OR (m.entry_id IS NULL AND ${entryOf("m")} = ${shown}))`;
}

export async function serviceExists(pool: ReadPool, id: string): Promise<boolean> {
  const rows = await queryRows(pool, Prisma.sql`SELECT 1 WHERE ${shownEntryOf(id)} IS NOT NULL`, {
    prepared: true,
  });
  return rows.length > 0;
}

/** The service's history, oldest first; null when there is no such service. */
export async function getServiceHistory(
  pool: ReadPool,
  serviceId: string,
  window: HistoryWindow,
  paging: Paging,
): Promise<Page<HistoryRecord> | null> {
  // The entry's id or any of its rows' ids answers with the entry's history, as the detail does:
  // the figures every source listed for it, over time.
  const where = whereAll([
    Prisma.sql`h.service_id IN ${entryRows(shownEntryOf(serviceId))}`,
    ...windowConditions(window),
  ]);
  const [exists, rows] = await Promise.all([
    serviceExists(pool, serviceId),
    queryRows<HistoryRecord>(
      pool,
      Prisma.sql`
        SELECT h.observed_from AS "observedFrom", h.observed_to AS "observedTo", h.uptime_30d AS "uptime30d",
          h.avg_response_ms_30d AS "avgResponseMs30d", ${volumeText(Prisma.sql`h.volume_usdc_30d`)} AS "volumeUsdc30d",
          h.tx_count_30d AS "txCount30d", h.payer_count_30d AS "payerCount30d",
          h.info_updated_at AS "infoUpdatedAt"
        FROM stats_snapshots h
        WHERE ${where}
        ORDER BY h.observed_from ASC, h.id ASC
        LIMIT ${paging.limit} OFFSET ${paging.offset}`,
      { prepared: true },
    ),
  ]);
  if (!exists) return null;
  return completePage(rows, paging, async () => {
    const [count] = await queryRows<{ total: number }>(
      pool,
      Prisma.sql`SELECT count(*)::int AS total FROM stats_snapshots h WHERE ${where}`,
      { prepared: true },
    );
    return count?.total ?? 0;
  });
}

export const HISTORY_EXPORT_COLUMNS = [
  "service_id",
  "observed_from",
  "observed_to",
  "uptime_30d",
  "avg_response_ms_30d",
  "volume_usdc_30d",
  "tx_count_30d",
  "payer_count_30d",
  "info_updated_at",
] as const;

/**
 * History of one service or of all, by service then oldest first (the index order: no sort), as
 * CSV cells for cursorBatches (which turns the timestamps into ISO text). Numbers come as text:
 * the CSV writes text anyway, and parsing then printing 2.5 million numbers is a measurable cost.
 */
export function historyExportQuery(
  serviceId: string | undefined,
  window: HistoryWindow,
  limit?: number,
): Prisma.Sql {
  const where = historyExportWhere(serviceId, window);
  // service_id is the entry's shown id, as in services.csv: the two files join on it.
  return Prisma.sql`
    SELECT ${shownId("s")}::text, h.observed_from, h.observed_to,
      h.uptime_30d::text, h.avg_response_ms_30d::text, ${volumeText(Prisma.sql`h.volume_usdc_30d`)},
      h.tx_count_30d::text, h.payer_count_30d::text, h.info_updated_at
    FROM stats_snapshots h JOIN services s ON s.id = h.service_id
    WHERE ${where}
    ORDER BY h.service_id, h.observed_from, h.id
    ${limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}`;
}

function historyExportWhere(serviceId: string | undefined, window: HistoryWindow): Prisma.Sql {
  return entryWhere("h", serviceId, windowConditions(window));
}

/**
 * The rows of `alias` (a table of history keyed by service_id) of the entry `serviceId` names
 * (every entry when undefined) that meet the conditions.
 */
export function entryWhere(
  alias: string,
  serviceId: string | undefined,
  conditions: Prisma.Sql[],
): Prisma.Sql {
  const rows = Prisma.raw(alias);
  return whereAll([
    ...(serviceId === undefined
      ? []
      : [Prisma.sql`${rows}.service_id IN ${entryRows(shownEntryOf(serviceId))}`]),
    ...conditions,
  ]);
}

/** How many rows of `from` (a table and its alias) meet `where`. */
export async function countRows(pool: ReadPool, from: Prisma.Sql, where: Prisma.Sql): Promise<number> {
  const [row] = await queryRows<{ rows: number }>(
    pool,
    Prisma.sql`SELECT count(*)::int AS rows FROM ${from} WHERE ${where}`,
  );
  return row?.rows ?? 0;
}

/** How many rows historyExportQuery yields (an export reserves them against its allowance first). */
export async function countHistoryExport(
  pool: ReadPool,
  serviceId: string | undefined,
  window: HistoryWindow,
): Promise<number> {
  return countRows(pool, Prisma.sql`stats_snapshots h`, historyExportWhere(serviceId, window));
}
