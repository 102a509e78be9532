import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { completePage, type Page, type Paging } from "./paging";
import { endpointVerifiedCondition } from "./probe-stats";
import { type PaymentOptionRecord, paymentOptionsOf } from "./service-details";
import { whereAll } from "./sql";
import { correctedQuery, type TextQuery, textMatches, textRank, typed } from "./text-search";

export interface EndpointFilters {
  q?: string;
  /** Upper-case, as methods are stored. */
  method?: string;
  /** The service's category, compared case-insensitively. */
  category?: string;
}

export interface EndpointHit {
  /** The catalogue entry's id (its primary row's), whichever row of the entry lists the endpoint. */
  serviceId: string;
  serviceName: string;
  domain: string | null;
  method: string;
  url: string;
  description: string | null;
  lastVerifiedAt: Date | null;
  /** A valid x402 challenge within the last 24 hours. */
  verified: boolean;
  paymentOptions: PaymentOptionRecord[];
}

type EndpointRow = Omit<EndpointHit, "paymentOptions"> & { id: string; total: number | null };

/** Endpoints of listed services only: a delisted service cannot be called. */
function candidates(filters: EndpointFilters, text: TextQuery | undefined): Prisma.Sql {
  const where: Prisma.Sql[] = [Prisma.sql`s.status = 'listed'`];
  if (filters.method !== undefined) where.push(Prisma.sql`e.method = ${filters.method}`);
  if (filters.category !== undefined) where.push(Prisma.sql`lower(s.category) = lower(${filters.category})`);
  if (text) where.push(textMatches(text));
  return Prisma.sql`
    SELECT e.id, coalesce(s.canonical_id, s.id) AS "serviceId", s.name AS "serviceName", s.domain, e.method,
      e.url, e.description, e.position, e.last_verified_at AS "lastVerifiedAt",
      coalesce(${endpointVerifiedCondition("e")}, false) AS verified, s.volume_usdc_30d AS volume, ${text ? textRank(text) : Prisma.sql`NULL::real`} AS rank
    FROM endpoints e
    JOIN services s ON s.id = e.service_id
    ${text ? Prisma.sql`JOIN endpoint_search d ON d.endpoint_id = e.id` : Prisma.empty}
    WHERE ${whereAll(where)}`;
}

/**
 * Most relevant first when searching; otherwise the endpoints of the busiest services first (the
 * services list's default), in page order. Ties by id keep paging stable.
 */
function orderBy(text: TextQuery | undefined): Prisma.Sql {
  return text
    ? Prisma.sql`ORDER BY c.rank DESC, c.id`
    : Prisma.sql`ORDER BY c.volume DESC NULLS LAST, c."serviceId", c.position, c.id`;
}

async function endpointPage(
  pool: ReadPool,
  filters: EndpointFilters,
  text: TextQuery | undefined,
  paging: Paging,
): Promise<Page<EndpointHit>> {
  // As for services: a text search counts its matches in the ranking pass.
  const total = text ? Prisma.sql`count(*) OVER ()::int` : Prisma.sql`NULL::int`;
  const rows = await queryRows<EndpointRow>(
    pool,
    Prisma.sql`
      SELECT c.id, c."serviceId", c."serviceName", c.domain, c.method, c.url, c.description,
        c."lastVerifiedAt", c.verified, ${total} AS total
      FROM (${candidates(filters, text)}) c
      ${orderBy(text)}
      LIMIT ${paging.limit} OFFSET ${paging.offset}`,
  );
  // One query for the options of the whole page.
  const options = await paymentOptionsOf(
    pool,
    rows.map((row) => row.id),
  );
  const items = rows.map(({ total: _total, id, ...hit }) => ({
    ...hit,
    paymentOptions: options.get(id) ?? [],
  }));
  const countAll = async () => {
    const [count] = await queryRows<{ total: number }>(
      pool,
      Prisma.sql`SELECT count(*)::int AS total FROM (${candidates(filters, text)}) c`,
    );
    return count?.total ?? 0;
  };
  return completePage(items, paging, countAll, rows[0]?.total ?? undefined);
}

export async function listEndpoints(
  pool: ReadPool,
  filters: EndpointFilters,
  paging: Paging,
): Promise<Page<EndpointHit>> {
  if (filters.q === undefined) return endpointPage(pool, filters, undefined, paging);
  const page = await endpointPage(pool, filters, typed(filters.q), paging);
  if (page.total > 0) return page;
  const corrected = await correctedQuery(pool, "endpoint_search", filters.q);
  return corrected ? endpointPage(pool, filters, corrected, paging) : page;
}
