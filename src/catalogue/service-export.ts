import { Prisma } from "../generated/prisma/client";
import { serviceEndpoints, serviceTags } from "./search-index";
import { decimalText } from "./sql";

/** CSV columns of services.csv, in order; multi-valued cells are joined (tags by "|", endpoints by line). */
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
  "payable_endpoints",
] as const;

/**
 * These services, in this order (the list's matches, from the catalogue index), as CSV cells for
 * cursorBatches (it turns the timestamps into ISO text). Numbers come as text, as the CSV writes them.
 * `payableEndpoints` (the index's payability counts, in the order of `ids`) is a column of its own:
 * the verdict is computed in TypeScript, not in SQL.
 */
export function serviceExportQuery(ids: string[], payableEndpoints: number[]): Prisma.Sql {
  return Prisma.sql`
    SELECT s.id::text, s.name, s.domain, s.description, s.category,
      nullif(array_to_string(coalesce(r.tags, ${serviceTags(Prisma.sql`s`)}), '|'), ''),
      (SELECT string_agg((x ->> 'method') || ' ' || (x ->> 'url'), E'\n' ORDER BY n)
       FROM jsonb_array_elements(coalesce(r.endpoints, ${serviceEndpoints(Prisma.sql`s`)})) WITH ORDINALITY AS a(x, n)),
      s.uptime_30d::text, s.avg_response_ms_30d::text, s.info_updated_at,
      ${decimalText(Prisma.sql`s.volume_usdc_30d`)}, s.tx_count_30d::text, s.payer_count_30d::text, s.status::text,
      s.first_seen_at, s.last_seen_at, s.detail_url, c.payable::text
    FROM unnest(${ids}::uuid[], ${payableEndpoints}::int[]) WITH ORDINALITY AS c(id, payable, ord)
    JOIN services s ON s.id = c.id
    LEFT JOIN service_search r ON r.service_id = s.id
    ORDER BY c.ord`;
}
