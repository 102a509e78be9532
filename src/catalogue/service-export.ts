import { Prisma } from "../generated/prisma/client";
import { serviceEndpoints, serviceTags } from "./search-index";
import { shownId } from "./service-queries";
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
] as const;

/**
 * These services, in this order (the list's matches, from the catalogue index), as CSV cells for
 * cursorBatches (it turns the timestamps into ISO text). Numbers come as text, as the CSV writes them.
 */
export function serviceExportQuery(ids: string[]): Prisma.Sql {
  return Prisma.sql`
    SELECT ${shownId("s")}::text, s.name, s.domain, s.description, s.category,
      nullif(array_to_string(coalesce(r.tags, ${serviceTags(Prisma.sql`s`)}), '|'), ''),
      (SELECT string_agg((x ->> 'method') || ' ' || (x ->> 'url'), E'\n' ORDER BY n)
       FROM jsonb_array_elements(coalesce(r.endpoints, ${serviceEndpoints(Prisma.sql`s`)})) WITH ORDINALITY AS a(x, n)),
      s.uptime_30d::text, s.avg_response_ms_30d::text, s.info_updated_at,
      ${decimalText(Prisma.sql`s.volume_usdc_30d`)}, s.tx_count_30d::text, s.payer_count_30d::text, s.status::text,
      s.first_seen_at, s.last_seen_at, s.detail_url
    FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS c(id, ord)
    JOIN services s ON s.id = c.id
    LEFT JOIN service_search r ON r.service_id = s.id
    ORDER BY c.ord`;
}
