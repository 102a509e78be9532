import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { countRows, entryWhere, type HistoryWindow, serviceExists } from "./history-queries";
import { completePage, type Page, type Paging } from "./paging";
import { shownId } from "./service-queries";
import { volumeText } from "./sql";

/**
 * The history's daily series of observed payments (src/activity, service_activity_days): per UTC
 * day, what the chain shows the entry's pay_tos received, raw and with flagged transfers left
 * out. The history API and history.csv answer it with `series=observed_daily`.
 */

export interface ObservedDayRecord {
  /** YYYY-MM-DD (UTC). */
  day: string;
  observedVolumeUsdc: string;
  adjustedVolumeUsdc: string;
  observedTxCount: number;
  adjustedTxCount: number;
  observedUniquePayers: number;
  adjustedUniquePayers: number;
}

/** Days that overlap the window: the day of `from` and the day of `to` are in it. */
function dayConditions(window: HistoryWindow): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (window.from)
    where.push(Prisma.sql`d.day >= (${window.from.toISOString()}::timestamptz AT TIME ZONE 'UTC')::date`);
  if (window.to)
    where.push(Prisma.sql`d.day <= (${window.to.toISOString()}::timestamptz AT TIME ZONE 'UTC')::date`);
  return where;
}

function daysWhere(serviceId: string | undefined, window: HistoryWindow): Prisma.Sql {
  return entryWhere("d", serviceId, dayConditions(window));
}

/** The entry's observed days, oldest first; null when there is no such service. */
export async function getObservedDays(
  pool: ReadPool,
  serviceId: string,
  window: HistoryWindow,
  paging: Paging,
): Promise<Page<ObservedDayRecord> | null> {
  const where = daysWhere(serviceId, window);
  const [exists, rows] = await Promise.all([
    serviceExists(pool, serviceId),
    queryRows<ObservedDayRecord>(
      pool,
      Prisma.sql`
        SELECT d.day::text AS day, ${volumeText(Prisma.sql`d.volume_usdc`)} AS "observedVolumeUsdc",
          ${volumeText(Prisma.sql`d.adjusted_volume_usdc`)} AS "adjustedVolumeUsdc", d.tx_count AS "observedTxCount",
          d.adjusted_tx_count AS "adjustedTxCount", d.unique_payers AS "observedUniquePayers",
          d.adjusted_unique_payers AS "adjustedUniquePayers"
        FROM service_activity_days d
        WHERE ${where}
        ORDER BY d.day ASC
        LIMIT ${paging.limit} OFFSET ${paging.offset}`,
      { prepared: true },
    ),
  ]);
  if (!exists) return null;
  return completePage(rows, paging, async () => countObservedDays(pool, serviceId, window));
}

export const OBSERVED_DAYS_EXPORT_COLUMNS = [
  "service_id",
  "day",
  "observed_volume_usdc",
  "adjusted_volume_usdc",
  "observed_tx_count",
  "adjusted_tx_count",
  "observed_unique_payers",
  "adjusted_unique_payers",
] as const;

/** Observed days of one service or of all, by service then oldest first, as CSV cells (see historyExportQuery). */
export function observedDaysExportQuery(
  serviceId: string | undefined,
  window: HistoryWindow,
  limit?: number,
): Prisma.Sql {
  return Prisma.sql`
    SELECT ${shownId("s")}::text, d.day::text, ${volumeText(Prisma.sql`d.volume_usdc`)},
      ${volumeText(Prisma.sql`d.adjusted_volume_usdc`)}, d.tx_count::text, d.adjusted_tx_count::text,
      d.unique_payers::text, d.adjusted_unique_payers::text
    FROM service_activity_days d JOIN services s ON s.id = d.service_id
    WHERE ${daysWhere(serviceId, window)}
    ORDER BY d.service_id, d.day
    ${limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}`;
}

/** How many rows observedDaysExportQuery yields. */
export async function countObservedDays(
  pool: ReadPool,
  serviceId: string | undefined,
  window: HistoryWindow,
): Promise<number> {
  return countRows(pool, Prisma.sql`service_activity_days d`, daysWhere(serviceId, window));
}
