import { Prisma } from "../generated/prisma/client";
import { ownerVerifiedOf } from "../ownership/owner-columns";
import { isEntryMember } from "./catalogue-entries";
import { probeRange, windowColumns } from "./probe-stats";
import { serviceEndpoints, serviceTags } from "./search-documents";
import { shownId } from "./service-queries";
import { decimalText, volumeText } from "./sql";

/**
 * CSV columns of services.csv, in order. What analysts filter on in JSON is here too (price,
 * networks, sources, verification, our probes' uptime and latency over 30 days, trust verdicts, owner_verified, and
 * what the chain shows the entry's pay_tos received: raw and adjusted, with the flags' rules). A
 * multi-valued cell joins its values with MULTI_VALUE_SEPARATOR; observed cells are empty when no
 * chain reads the entry's pay_tos.
 */
export const SERVICE_EXPORT_COLUMNS = [
  "id",
  "name",
  "domain",
  "description",
  "category",
  "tags",
  "endpoints",
  "uptime_30d",
  "avg_response_ms_30d",
  "info_updated_at",
  "volume_usdc_30d",
  "tx_count_30d",
  "payer_count_30d",
  "status",
  "first_seen_at",
  "last_seen_at",
  "source_url",
  "price_usdc_min",
  "networks",
  "sources",
  "verified",
  "probe_uptime_pct_30d",
  "probe_p50_ms_30d",
  "probe_p99_ms_30d",
  "payable_endpoints",
  "health",
  "grade",
  "score",
  "warnings",
  "owner_verified",
  "observed_volume_usdc_30d",
  "adjusted_volume_usdc_30d",
  "observed_tx_count_30d",
  "adjusted_tx_count_30d",
  "observed_unique_payers_30d",
  "adjusted_unique_payers_30d",
  "last_payment_at",
  "activity_flags",
] as const;

/**
 * Between the values of a multi-valued cell (tags, endpoints as "METHOD URL", networks, sources, warnings):
 * " | ". No tag holds "|" (tag lists are split on it) and no value holds a space next to it (URLs
 * are percent-encoded), so the cell splits back exactly; a cell never holds a line break.
 */
export const MULTI_VALUE_SEPARATOR = " | ";

const joined = (values: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`nullif(array_to_string(${values}, ${MULTI_VALUE_SEPARATOR}), '')`;

/**
 * These services, in this order (the list's matches, from the loaded catalogue), as CSV cells for
 * cursorBatches (it turns the timestamps into ISO text). Numbers come as text, as the CSV writes
 * them, rounded as the JSON rounds them (uptime to 0.01 %, latency to 0.1 ms). What spans an
 * entry's rows (price, networks, sources, probes) is aggregated once for all the rows asked, set
 * by set (a subquery per row made 100,000 rows several times slower); the definitions are the
 * detail's: probes of the endpoints the entry shows (one per method and URL), 30-day window.
 * `payableEndpoints` (the loaded catalogue's payability counts, in the order of `ids`) is a column of its own:
 * the verdict is computed in TypeScript, not in SQL.
 */
export function serviceExportQuery(ids: string[], payableEndpoints: number[]): Prisma.Sql {
  const now = Prisma.sql`now()`;
  const attempted = Prisma.sql`nullif(pr.attempted_30d, 0)`;
  return Prisma.sql`
    WITH members AS (
      SELECT c.id AS entry, m.id, m.source_id, m.first_seen_at
      FROM unnest(${ids}::uuid[]) AS c(id) JOIN services m ON ${isEntryMember("m", "c")}
    ),
    options AS (
      SELECT mb.entry, min(po.price_usdc) AS price,
        array_agg(DISTINCT po.network ORDER BY po.network) FILTER (WHERE po.network IS NOT NULL) AS networks
      FROM members mb JOIN endpoints e ON e.service_id = mb.id JOIN payment_options po ON po.endpoint_id = e.id
      GROUP BY mb.entry
    ),
    listed_by AS (
      SELECT mb.entry, array_agg(DISTINCT src.base_url ORDER BY src.base_url) AS sources
      FROM members mb JOIN sources src ON src.id = mb.source_id GROUP BY mb.entry
    ),
    shown AS (
      SELECT DISTINCT ON (mb.entry, e.method, e.url) mb.entry, e.id, e.last_verified_at
      FROM members mb JOIN endpoints e ON e.service_id = mb.id
      ORDER BY mb.entry, e.method, e.url, (mb.id = mb.entry) DESC, mb.first_seen_at, mb.id, e.position, e.id
    ),
    verified AS (SELECT sh.entry, max(sh.last_verified_at) AS at FROM shown sh GROUP BY sh.entry),
    pr AS (
      SELECT sh.entry, ${windowColumns(now)}
      FROM shown sh JOIN endpoint_probes p ON p.endpoint_id = sh.id
      WHERE ${probeRange(now)}
      GROUP BY sh.entry
    )
    SELECT ${shownId("s")}::text, s.name, s.domain, s.description, s.category,
      ${joined(Prisma.sql`coalesce(r.tags, ${serviceTags(Prisma.sql`s`)})`)},
      ${joined(Prisma.sql`ARRAY(SELECT (x ->> 'method') || ' ' || (x ->> 'url')
        FROM jsonb_array_elements(coalesce(r.endpoints, ${serviceEndpoints(Prisma.sql`s`)})) WITH ORDINALITY AS a(x, n)
        ORDER BY n)`)},
      s.uptime_30d::text, s.avg_response_ms_30d::text, s.info_updated_at,
      ${volumeText(Prisma.sql`s.volume_usdc_30d`)}, s.tx_count_30d::text, s.payer_count_30d::text, s.status::text,
      s.first_seen_at, s.last_seen_at, s.detail_url,
      ${decimalText(Prisma.sql`o.price`)}, ${joined(Prisma.sql`o.networks`)}, ${joined(Prisma.sql`lb.sources`)},
      -- Verified: a valid challenge within 24 hours (VERIFIED_WITHIN_MS in probe-stats.ts).
      coalesce(v.at > now() - interval '24 hours', false)::text,
      ${decimalText(Prisma.sql`round(100.0 * pr.up_30d / ${attempted}, 2)`)},
      ${decimalText(Prisma.sql`round(pr.p50_30d::numeric, 1)`)},
      ${decimalText(Prisma.sql`round(pr.p99_30d::numeric, 1)`)},
      c.payable::text, s.health, s.grade, s.score::text, ${joined(Prisma.sql`s.trust_warnings`)},
      (${ownerVerifiedOf("s")})::text,
      ${volumeText(Prisma.sql`a.observed_volume_usdc_30d`)}, ${volumeText(Prisma.sql`a.adjusted_volume_usdc_30d`)},
      a.observed_tx_count_30d::text, (a.observed_tx_count_30d - a.flagged_transfers_30d)::text,
      a.unique_payers_30d::text, a.adjusted_unique_payers_30d::text,
      (a.observed ->> 'last_payment_at')::timestamptz,
      ${joined(Prisma.sql`ARRAY(SELECT f ->> 'rule' FROM jsonb_array_elements(a.observed -> 'flags') f)`)}
    -- The rows themselves are read as before the aggregates existed (the plan streams as it did).
    FROM unnest(${ids}::uuid[], ${payableEndpoints}::int[]) WITH ORDINALITY AS c(id, payable, ord)
    JOIN services s ON s.id = c.id
    LEFT JOIN service_search r ON r.service_id = s.id
    LEFT JOIN options o ON o.entry = c.id
    LEFT JOIN listed_by lb ON lb.entry = c.id
    LEFT JOIN verified v ON v.entry = c.id
    LEFT JOIN pr ON pr.entry = c.id
    LEFT JOIN service_activity a ON a.service_id = c.id
    ORDER BY c.ord`;
}
