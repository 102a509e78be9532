import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { entryOf, isEntryPrimary } from "./catalogue-entries";
import { CHALLENGE_OPTIONS, CHALLENGE_PRICE } from "./probe-stats";
import { utcDays, volumeText } from "./sql";

/**
 * The ecosystem per UTC day, built set-based from what the tables hold over time:
 * - listed entries by category and by network, and endpoint rows of listed services: each counts
 *   from the day it was first seen to the day it was delisted (a relisted service counts
 *   throughout; the network is the entry's payment options' today). Each item adds +1 on its first
 *   day and -1 on its last; a running sum per series gives every day's count in one pass.
 * - verified entries (a valid challenge that day) and their lowest challenged price, from
 *   endpoint_probes.
 */

export interface CountSeries {
  name: string;
  /** One count per day of `days`. */
  counts: number[];
}

export interface EcosystemSeries {
  /** UTC days, YYYY-MM-DD, oldest first. */
  days: string[];
  categories: CountSeries[];
  networks: CountSeries[];
  endpoints: number[];
  /** Entries with a valid challenge that day. */
  verified: number[];
  /** Verified entries by their lowest challenged price that day: band k is at most bands[k]; then above the last; then no USDC price. */
  priceBands: number[][];
}

/** Every dated item of one series kind: the entry (or endpoint row) it counts, when it started and ended. */
const ITEMS = Prisma.sql`
  SELECT 'category' AS kind, coalesce(s.category, '') AS key, s.first_seen_at AS starts, s.delisted_at AS ends
  FROM services s WHERE ${isEntryPrimary("s")}
  UNION ALL
  SELECT 'network', n.network, s.first_seen_at, s.delisted_at
  FROM (
    SELECT DISTINCT ${entryOf("pm")} AS entry, po.network
    FROM services pm JOIN endpoints pe ON pe.service_id = pm.id JOIN payment_options po ON po.endpoint_id = pe.id
    WHERE po.network IS NOT NULL
  ) n JOIN services s ON s.id = n.entry
  UNION ALL
  SELECT 'endpoints', '', greatest(e.created_at, m.first_seen_at), m.delisted_at
  FROM endpoints e JOIN services m ON m.id = e.service_id`;

interface CountRow {
  kind: "category" | "network" | "endpoints";
  key: string;
  counts: number[];
}

function runningCounts(asOf: Date, days: number): Prisma.Sql {
  const range = utcDays(Prisma.sql`${asOf.toISOString()}::timestamptz`, Prisma.sql`${days}::int`);
  return Prisma.sql`
    WITH days AS (SELECT * FROM ${range}),
    bounds AS (SELECT min(day) AS first, max(day) AS last FROM days),
    items AS (
      SELECT i.kind, i.key, (i.starts AT TIME ZONE 'UTC')::date AS from_day, (i.ends AT TIME ZONE 'UTC')::date AS to_day
      FROM (${ITEMS}) i
    ),
    deltas AS (
      SELECT kind, key, greatest(from_day, b.first) AS day, 1 AS delta
      FROM items, bounds b WHERE from_day <= b.last
      UNION ALL
      SELECT kind, key, greatest(to_day, b.first), -1
      FROM items, bounds b WHERE from_day <= b.last AND to_day <= b.last
    ),
    keyed AS (SELECT kind, key, day, sum(delta) AS delta FROM deltas GROUP BY 1, 2, 3),
    running AS (
      SELECT k.kind, k.key, d.day,
        sum(coalesce(x.delta, 0)) OVER (PARTITION BY k.kind, k.key ORDER BY d.day)::int AS count
      FROM (SELECT DISTINCT kind, key FROM keyed) k CROSS JOIN days d
      LEFT JOIN keyed x ON x.kind = k.kind AND x.key = k.key AND x.day = d.day
    )
    SELECT kind, key, array_agg(count ORDER BY day) AS counts FROM running GROUP BY kind, key`;
}

interface ProbeDayRow {
  day: string;
  band: number | null;
  entries: number;
}

function verifiedByPrice(asOf: Date, days: number, bands: readonly string[]): Prisma.Sql {
  const range = utcDays(Prisma.sql`${asOf.toISOString()}::timestamptz`, Prisma.sql`${days}::int`);
  return Prisma.sql`
    WITH per AS (
      SELECT (p.probed_at AT TIME ZONE 'UTC')::date AS day, ${entryOf("m")} AS entry, min(price.low) AS price
      FROM endpoint_probes p JOIN endpoints e ON e.id = p.endpoint_id JOIN services m ON m.id = e.service_id
      LEFT JOIN LATERAL (SELECT min(${CHALLENGE_PRICE}) AS low FROM ${CHALLENGE_OPTIONS}) price ON TRUE
      WHERE p.challenge_valid AND p.probed_at >= (SELECT min(starts) FROM ${range})
        AND p.probed_at <= ${asOf.toISOString()}::timestamptz
      GROUP BY 1, 2
    )
    SELECT to_char(day, 'YYYY-MM-DD') AS day,
      CASE WHEN price IS NOT NULL THEN (SELECT count(*) FROM unnest(${bands}::numeric[]) b WHERE price > b)::int END AS band,
      count(*)::int AS entries
    FROM per GROUP BY 1, 2`;
}

/** The ecosystem over the `days` UTC days ending with the day of `asOf`. */
export async function getEcosystemSeries(
  pool: ReadPool,
  days: number,
  bands: readonly string[],
  asOf: Date = new Date(),
): Promise<EcosystemSeries> {
  const [counts, probeDays] = await Promise.all([
    queryRows<CountRow>(pool, runningCounts(asOf, days)),
    queryRows<ProbeDayRow>(pool, verifiedByPrice(asOf, days, bands)),
  ]);
  const last = Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), asOf.getUTCDate());
  const dayList = Array.from({ length: days }, (_, k) =>
    new Date(last - (days - 1 - k) * 86_400_000).toISOString().slice(0, 10),
  );
  const position = new Map(dayList.map((day, k) => [day, k]));
  const zeroes = () => dayList.map(() => 0);
  const verified = zeroes();
  const priceBands = Array.from({ length: bands.length + 2 }, zeroes);
  for (const row of probeDays) {
    const k = position.get(row.day);
    if (k === undefined) continue;
    verified[k] = (verified[k] ?? 0) + row.entries;
    const band = priceBands[row.band ?? bands.length + 1];
    if (band) band[k] = (band[k] ?? 0) + row.entries;
  }
  const ofKind = (kind: CountRow["kind"]) =>
    counts
      .filter((row) => row.kind === kind && row.counts.some((n) => n > 0))
      .map((row) => ({ name: row.key, counts: row.counts }));
  return {
    days: dayList,
    categories: ofKind("category"),
    networks: ofKind("network"),
    endpoints: ofKind("endpoints")[0]?.counts ?? zeroes(),
    verified,
    priceBands,
  };
}

export interface ObservedTotals {
  /** Listed entries whose pay_tos the chain is read for. */
  services: number;
  volumeUsdc30d: string;
  adjustedVolumeUsdc30d: string;
}

/** What the chain shows listed entries were paid over 30 days; null when no chain is read for any. */
export async function listedObservedVolume(pool: ReadPool): Promise<ObservedTotals | null> {
  const [row] = await queryRows<ObservedTotals>(
    pool,
    Prisma.sql`SELECT count(*)::int AS services,
        ${volumeText(Prisma.sql`coalesce(sum(sa.observed_volume_usdc_30d), 0)`)} AS "volumeUsdc30d",
        ${volumeText(Prisma.sql`coalesce(sum(sa.adjusted_volume_usdc_30d), 0)`)} AS "adjustedVolumeUsdc30d"
      FROM service_activity sa JOIN services s ON s.id = sa.service_id WHERE s.status = 'listed'`,
    { prepared: true },
  );
  return row && row.services > 0 ? row : null;
}
