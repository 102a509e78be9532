import { Prisma } from "../generated/prisma/client";
import { entryMinPrice } from "./catalogue-entries";
import { entryProbeJson } from "./probe-stats";
import { serviceEndpoints, serviceTags } from "./search-index";
import { entryNetworks, entrySources, shownId } from "./service-queries";
import { decimalText, volumeText } from "./sql";

/**
 * CSV columns of services.csv, in order. What analysts filter on in JSON is here too (price,
 * networks, sources, verification, our probes' uptime and latency over 30 days). A multi-valued
 * cell joins its values with MULTI_VALUE_SEPARATOR.
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
] as const;

/**
 * Between the values of a multi-valued cell (tags, endpoints as "METHOD URL", networks, sources):
 * " | ". No tag holds "|" (tag lists are split on it) and no value holds a space next to it (URLs
 * are percent-encoded), so the cell splits back exactly; a cell never holds a line break.
 */
export const MULTI_VALUE_SEPARATOR = " | ";

const joined = (values: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`nullif(array_to_string(${values}, ${MULTI_VALUE_SEPARATOR}), '')`;

/** A field of the entry's probe summary over 30 days (p is entryProbeJson as `j`). */
const window30d = (field: string): Prisma.Sql => Prisma.sql`(p.j -> 'windows' ->> ${`${field}_30d`})`;

/**
 * These services, in this order (the list's matches, from the catalogue index), as CSV cells for
 * cursorBatches (it turns the timestamps into ISO text). Numbers come as text, as the CSV writes
 * them, rounded as the JSON rounds them (uptime to 0.01 %, latency to 0.1 ms).
 */
export function serviceExportQuery(ids: string[]): Prisma.Sql {
  const attempted = Prisma.sql`nullif(${window30d("attempted")}::int, 0)`;
  return Prisma.sql`
    SELECT ${shownId("s")}::text, s.name, s.domain, s.description, s.category,
      ${joined(Prisma.sql`coalesce(r.tags, ${serviceTags(Prisma.sql`s`)})`)},
      ${joined(Prisma.sql`ARRAY(SELECT (x ->> 'method') || ' ' || (x ->> 'url')
        FROM jsonb_array_elements(coalesce(r.endpoints, ${serviceEndpoints(Prisma.sql`s`)})) WITH ORDINALITY AS a(x, n)
        ORDER BY n)`)},
      s.uptime_30d::text, s.avg_response_ms_30d::text, s.info_updated_at,
      ${volumeText(Prisma.sql`s.volume_usdc_30d`)}, s.tx_count_30d::text, s.payer_count_30d::text, s.status::text,
      s.first_seen_at, s.last_seen_at, s.detail_url,
      ${decimalText(entryMinPrice("s"))}, ${joined(entryNetworks)}, ${joined(entrySources)},
      -- Verified: a valid challenge within 24 hours (VERIFIED_WITHIN_MS in probe-stats.ts).
      coalesce((p.j ->> 'last_verified_at')::timestamptz > now() - interval '24 hours', false)::text,
      ${decimalText(Prisma.sql`round(100.0 * ${window30d("up")}::int / ${attempted}, 2)`)},
      ${decimalText(Prisma.sql`round(${window30d("p50")}::numeric, 1)`)},
      ${decimalText(Prisma.sql`round(${window30d("p99")}::numeric, 1)`)}
    FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS c(id, ord)
    JOIN services s ON s.id = c.id
    LEFT JOIN service_search r ON r.service_id = s.id
    CROSS JOIN LATERAL (SELECT ${entryProbeJson("s", Prisma.sql`now()`)} AS j) p
    ORDER BY c.ord`;
}
