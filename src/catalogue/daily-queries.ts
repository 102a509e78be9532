import { fixedStatement, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { isEntryMember } from "./catalogue-entries";
import {
  CHALLENGE_OPTIONS,
  CHALLENGE_PRICE,
  entryShownEndpoints,
  type ProbeWindowStats,
  probeAggregates,
  probeFiguresOf,
} from "./probe-stats";
import { fromEntryOfRow } from "./service-queries";
import { utcDays, volumeText } from "./sql";

/**
 * A catalogue entry's figures per UTC day, built set-based from what is stored over time: our
 * probes (endpoint_probes), the listings' claims (stats_snapshots) and the chain's payments
 * (service_activity_days). Every day of the range has a row, so a series has no gaps in time.
 */

/** The most days one answer covers. */
export const MAX_DAILY_DAYS = 365;

export interface DailyRecord {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  probes: ProbeWindowStats;
  /** Lowest and highest USDC price per call the day's valid challenges asked. */
  priceMinUsdc: string | null;
  priceMaxUsdc: string | null;
  /** The listings' 30-day volume as it stood at the day's end (the newest history row then). */
  claimedVolumeUsdc30d: string | null;
  /** USDC paid to the entry's pay_tos over the 30 days ending with the day, raw and without flagged transfers; null when no chain is read for it. */
  observedVolumeUsdc30d: string | null;
  adjustedVolumeUsdc30d: string | null;
}

interface DailyRow {
  day: string;
  probes: number | null;
  attempted: number | null;
  up: number | null;
  p50: number | null;
  p99: number | null;
  priceMin: string | null;
  priceMax: string | null;
  claimed: string | null;
  observed: string | null;
  adjusted: string | null;
}

/** $1: any id of the entry's rows; $2: the end of the last day's range (now); $3: how many days. */
const DAILY = fixedStatement(Prisma.sql`
  WITH entry AS MATERIALIZED (SELECT s.id FROM ${fromEntryOfRow(Prisma.raw("$1::uuid"))}),
  days AS (SELECT * FROM ${utcDays(Prisma.raw("$2::timestamptz"), Prisma.raw("$3::int"))}),
  shown AS MATERIALIZED (SELECT x.id FROM entry CROSS JOIN LATERAL (${entryShownEndpoints("entry")}) x),
  probes AS (
    SELECT (p.probed_at AT TIME ZONE 'UTC')::date AS day,
      ${probeAggregates(Prisma.sql`TRUE`, "")},
      min(price.low) AS low, max(price.high) AS high
    FROM shown JOIN endpoint_probes p ON p.endpoint_id = shown.id
    LEFT JOIN LATERAL (
      SELECT min(${CHALLENGE_PRICE}) AS low, max(${CHALLENGE_PRICE}) AS high FROM ${CHALLENGE_OPTIONS}
    ) price ON TRUE
    WHERE p.probed_at >= (SELECT min(starts) FROM days) AND p.probed_at <= $2::timestamptz
    GROUP BY 1
  ),
  members AS MATERIALIZED (SELECT m.id FROM entry JOIN services m ON ${isEntryMember("m", "entry")}),
  observed AS (
    SELECT d.day, sum(a.volume_usdc) AS raw, sum(a.adjusted_volume_usdc) AS adjusted
    FROM days d JOIN service_activity_days a ON a.service_id = (SELECT id FROM entry)
      AND a.day > d.day - 30 AND a.day <= d.day
    GROUP BY d.day
  )
  SELECT to_char(d.day, 'YYYY-MM-DD') AS day, p.probes, p.attempted, p.up, p.p50, p.p99,
    trim_scale(p.low)::text AS "priceMin", trim_scale(p.high)::text AS "priceMax",
    ${volumeText(Prisma.sql`c.volume`)} AS claimed,
    CASE WHEN a.read THEN ${volumeText(Prisma.sql`coalesce(o.raw, 0)`)} END AS observed,
    CASE WHEN a.read THEN ${volumeText(Prisma.sql`coalesce(o.adjusted, 0)`)} END AS adjusted
  FROM days d
  CROSS JOIN (SELECT EXISTS (SELECT 1 FROM service_activity sa WHERE sa.service_id = (SELECT id FROM entry)) AS read) a
  LEFT JOIN probes p ON p.day = d.day
  LEFT JOIN observed o ON o.day = d.day
  LEFT JOIN LATERAL (
    SELECT h.volume_usdc_30d AS volume FROM stats_snapshots h
    WHERE h.service_id IN (SELECT id FROM members) AND h.observed_from < d.ends AND h.observed_to >= d.starts
    ORDER BY h.observed_from DESC, h.id DESC LIMIT 1
  ) c ON TRUE
  WHERE EXISTS (SELECT 1 FROM entry)
  ORDER BY d.day`);

/**
 * The entry's figures per UTC day over the `days` days ending with the day of `asOf`, oldest first;
 * null when no row has the id.
 */
export async function getServiceDaily(
  pool: ReadPool,
  id: string,
  days: number,
  asOf: Date = new Date(),
): Promise<DailyRecord[] | null> {
  const { rows } = await pool.query<DailyRow>({ ...DAILY, values: [id, asOf, days] });
  if (rows.length === 0) return null;
  return rows.map(({ day, probes, attempted, up, p50, p99, ...row }) => ({
    day,
    probes: probeFiguresOf({ probes, attempted, up, p50, p99 }, ""),
    priceMinUsdc: row.priceMin,
    priceMaxUsdc: row.priceMax,
    claimedVolumeUsdc30d: row.claimed,
    observedVolumeUsdc30d: row.observed,
    adjustedVolumeUsdc30d: row.adjusted,
  }));
}
