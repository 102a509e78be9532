import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { entryMinPrice, entryPaymentOptions, isEntryMember, isEntryPrimary } from "./catalogue-entries";
import { completePage, type Page, type Paging } from "./paging";
import { serviceVerifiedCondition } from "./probe-stats";
import { serviceEndpoints, serviceTags } from "./search-index";
import { decimalText, direction, type SortDirection, whereAll } from "./sql";
import { correctedQuery, type TextQuery, textMatches, textRank, typed } from "./text-search";

export type ServiceStatusFilter = "listed" | "delisted" | "all";

export interface ServiceFilters {
  q?: string;
  /** Compared case-insensitively. */
  category?: string;
  /** Lower-case, as tags are stored; every one must be present. */
  tags?: string[];
  /** Upper-case, as methods are stored; some endpoint must have it. */
  method?: string;
  /** Lower-case host name, as domains are stored. */
  domain?: string;
  minUptime?: number;
  maxResponseMs?: number;
  /** Exact decimal text, compared as numeric in SQL. */
  minVolume?: string;
  minTx?: number;
  minPayers?: number;
  /** On info_updated_at, the directory's "information updated" date. */
  updatedSince?: Date;
  status: ServiceStatusFilter;
  /** CAIP-2 id (eip155:8453) or network name (base); any case. */
  network?: string;
  /** Asset address or symbol (USDC); any case. */
  asset?: string;
  /** Exact decimal text: some payment option costs at most this many USDC per call. */
  maxPrice?: string;
  /** Any case: addresses are compared without their checksum casing. */
  payTo?: string;
  /** A source kind (html_directory, bazaar) or a source's base URL. */
  source?: string;
  /** true: some endpoint of the entry had a valid x402 challenge within 24 hours; false: none had. */
  verified?: boolean;
}

export const SERVICE_SORTS = [
  "relevance",
  "volume",
  "tx_count",
  "payers",
  "uptime",
  "response_ms",
  "name",
  "updated",
  "first_seen",
  "price",
] as const;
export type ServiceSort = (typeof SERVICE_SORTS)[number];

export interface ServiceOrder {
  sort: ServiceSort;
  order: SortDirection;
}

/** The allow-list of sorts: each maps to one SQL key and the direction people expect by default. */
const SORT_KEYS: Record<ServiceSort, { key: Prisma.Sql; order: SortDirection }> = {
  relevance: { key: Prisma.sql`NULL::real`, order: "desc" }, // ordered by the rank column instead
  volume: { key: Prisma.sql`s.volume_usdc_30d`, order: "desc" },
  tx_count: { key: Prisma.sql`s.tx_count_30d`, order: "desc" },
  payers: { key: Prisma.sql`s.payer_count_30d`, order: "desc" },
  uptime: { key: Prisma.sql`s.uptime_30d`, order: "desc" },
  response_ms: { key: Prisma.sql`s.avg_response_ms_30d`, order: "asc" },
  name: { key: Prisma.sql`lower(s.name)`, order: "asc" },
  updated: { key: Prisma.sql`s.info_updated_at`, order: "desc" },
  first_seen: { key: Prisma.sql`s.first_seen_at`, order: "desc" },
  // The cheapest call of the entry: people looking at prices want the cheapest first.
  price: { key: entryMinPrice("s"), order: "asc" },
};

/** Relevance when searching, volume otherwise; each sort's natural direction unless asked. */
export function serviceOrder(q: string | undefined, sort?: ServiceSort, order?: SortDirection): ServiceOrder {
  const chosen = sort ?? (q === undefined ? "volume" : "relevance");
  return { sort: chosen, order: order ?? SORT_KEYS[chosen].order };
}

export interface EndpointSummary {
  method: string;
  url: string;
  description: string | null;
}

export interface ServiceRecord {
  id: string;
  name: string;
  domain: string | null;
  description: string | null;
  category: string | null;
  tags: string[];
  endpoints: EndpointSummary[];
  uptime30d: number | null;
  avgResponseMs30d: number | null;
  infoUpdatedAt: Date | null;
  volumeUsdc30d: string | null;
  txCount30d: number | null;
  payerCount30d: number | null;
  status: "listed" | "delisted";
  firstSeenAt: Date;
  lastSeenAt: Date;
  sourceUrl: string;
  /** The lowest price per call of any payment option of the entry, as exact decimal text. */
  priceUsdcMin: string | null;
  /** CAIP-2 networks the entry's payment options use, sorted. */
  networks: string[];
}

/**
 * Columns of a service `s` LEFT JOINed to its read model `r` (service_search). Tags and endpoints
 * come from the read model; a service whose read model was never built falls back to reading
 * them directly (COALESCE evaluates the subquery only then).
 */
const SERVICE_COLUMNS = Prisma.sql`
  s.id, s.name, s.domain, s.description, s.category,
  coalesce(r.tags, ${serviceTags(Prisma.sql`s`)}) AS tags,
  coalesce(r.endpoints, ${serviceEndpoints(Prisma.sql`s`)}) AS endpoints,
  s.uptime_30d AS "uptime30d", s.avg_response_ms_30d AS "avgResponseMs30d",
  s.info_updated_at AS "infoUpdatedAt", ${decimalText(Prisma.sql`s.volume_usdc_30d`)} AS "volumeUsdc30d",
  s.tx_count_30d AS "txCount30d", s.payer_count_30d AS "payerCount30d", s.status::text AS status,
  s.first_seen_at AS "firstSeenAt", s.last_seen_at AS "lastSeenAt", s.detail_url AS "sourceUrl",
  ${decimalText(entryMinPrice("s"))} AS "priceUsdcMin",
  (SELECT coalesce(array_agg(DISTINCT po.network ORDER BY po.network) FILTER (WHERE po.network IS NOT NULL), '{}')
   ${entryPaymentOptions("s")}) AS networks`;

/** Conditions on the service row itself (the entry's primary row). */
function rowConditions(filters: ServiceFilters): Prisma.Sql[] {
  const where: Prisma.Sql[] = [isEntryPrimary("s")];
  if (filters.status !== "all") where.push(Prisma.sql`s.status = ${filters.status}::service_status`);
  if (filters.category !== undefined) where.push(Prisma.sql`lower(s.category) = lower(${filters.category})`);
  if (filters.domain !== undefined) where.push(Prisma.sql`s.domain = ${filters.domain}`);
  if (filters.minUptime !== undefined) where.push(Prisma.sql`s.uptime_30d >= ${filters.minUptime}`);
  if (filters.maxResponseMs !== undefined) {
    where.push(Prisma.sql`s.avg_response_ms_30d <= ${filters.maxResponseMs}`);
  }
  if (filters.minVolume !== undefined)
    where.push(Prisma.sql`s.volume_usdc_30d >= ${filters.minVolume}::numeric`);
  if (filters.minTx !== undefined) where.push(Prisma.sql`s.tx_count_30d >= ${filters.minTx}`);
  if (filters.minPayers !== undefined) where.push(Prisma.sql`s.payer_count_30d >= ${filters.minPayers}`);
  if (filters.updatedSince !== undefined) {
    where.push(Prisma.sql`s.info_updated_at >= ${filters.updatedSince.toISOString()}::timestamptz`);
  }
  return where;
}

/** Conditions on what any row of the entry has: tags, endpoints, sources, verification. */
function entryConditions(filters: ServiceFilters): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  for (const tag of filters.tags ?? []) {
    where.push(Prisma.sql`EXISTS (SELECT 1 FROM services tm JOIN service_tags t ON t.service_id = tm.id
      WHERE ${isEntryMember("tm", "s")} AND t.tag = ${tag})`);
  }
  if (filters.method !== undefined) {
    where.push(Prisma.sql`EXISTS (SELECT 1 FROM services em JOIN endpoints e ON e.service_id = em.id
      WHERE ${isEntryMember("em", "s")} AND e.method = ${filters.method})`);
  }
  if (filters.source !== undefined) {
    // Base URLs are stored with a trailing slash; people often leave it off.
    where.push(Prisma.sql`EXISTS (SELECT 1 FROM services sm JOIN sources src ON src.id = sm.source_id
      WHERE ${isEntryMember("sm", "s")}
        AND (src.kind::text = ${filters.source} OR rtrim(src.base_url, '/') = rtrim(${filters.source}, '/')))`);
  }
  if (filters.verified !== undefined) {
    const verified = Prisma.sql`EXISTS (SELECT 1 FROM services vm
      WHERE ${isEntryMember("vm", "s")} AND ${serviceVerifiedCondition("vm")})`;
    where.push(filters.verified ? verified : Prisma.sql`NOT ${verified}`);
  }
  return where;
}

/**
 * One EXISTS for all payment filters: a single option must satisfy them together, so that
 * network=base&asset=USDC&max_price=0.01 means "USDC on Base for at most a cent", not three
 * unrelated options.
 */
function paymentCondition(filters: ServiceFilters): Prisma.Sql[] {
  const option: Prisma.Sql[] = [];
  if (filters.network !== undefined) {
    option.push(Prisma.sql`(lower(po.network) = lower(${filters.network})
      OR lower(po.network_name) = lower(${filters.network}))`);
  }
  if (filters.asset !== undefined) {
    option.push(Prisma.sql`(lower(po.asset) = lower(${filters.asset})
      OR lower(po.asset_symbol) = lower(${filters.asset}))`);
  }
  if (filters.maxPrice !== undefined) option.push(Prisma.sql`po.price_usdc <= ${filters.maxPrice}::numeric`);
  if (filters.payTo !== undefined) option.push(Prisma.sql`lower(po.pay_to) = lower(${filters.payTo})`);
  if (option.length === 0) return [];
  return [Prisma.sql`EXISTS (SELECT 1 ${entryPaymentOptions("s")} AND ${whereAll(option)})`];
}

/** The list shows one item per catalogue entry (its primary row); see catalogue-entries.ts. */
function filterConditions(filters: ServiceFilters): Prisma.Sql[] {
  return [...rowConditions(filters), ...entryConditions(filters), ...paymentCondition(filters)];
}

/** Ids of the matching services with `sort_key` and `rank` columns (shared with the CSV export). */
export function serviceCandidates(
  filters: ServiceFilters,
  text: TextQuery | undefined,
  order: ServiceOrder,
): Prisma.Sql {
  const where = filterConditions(filters);
  if (text) where.push(textMatches(text));
  return Prisma.sql`
    SELECT s.id, ${SORT_KEYS[order.sort].key} AS sort_key, ${text ? textRank(text) : Prisma.sql`NULL::real`} AS rank
    FROM services s ${text ? Prisma.sql`JOIN service_search d ON d.service_id = s.id` : Prisma.empty}
    WHERE ${whereAll(where)}`;
}

/**
 * ORDER BY over candidate rows `c`: missing values last whatever the direction, ties by id. Written
 * as (key IS NULL), key so that the expression index on (status, (volume IS NULL), volume DESC, id)
 * serves the default list straight from the index.
 */
export function serviceOrderBy(order: ServiceOrder): Prisma.Sql {
  // A rank is never missing; writing it once also keeps Postgres from computing ts_rank twice.
  if (order.sort === "relevance") return Prisma.sql`ORDER BY c.rank ${direction(order.order)}, c.id ASC`;
  return Prisma.sql`ORDER BY (c.sort_key IS NULL), c.sort_key ${direction(order.order)}, c.id ASC`;
}

async function servicePage(
  pool: ReadPool,
  filters: ServiceFilters,
  text: TextQuery | undefined,
  order: ServiceOrder,
  paging: Paging,
): Promise<Page<ServiceRecord>> {
  // A text search ranks every match anyway, so counting them in the same pass is nearly free;
  // without text, the page may come straight from an index and the count is a separate query.
  const total = text ? Prisma.sql`count(*) OVER ()::int` : Prisma.sql`NULL::int`;
  // The page is chosen on narrow candidate rows; tags and endpoints are gathered for it alone.
  const rows = await queryRows<ServiceRecord & { total: number | null }>(
    pool,
    Prisma.sql`
      SELECT ${SERVICE_COLUMNS}, c.total
      FROM (
        SELECT c.id, c.sort_key, c.rank, ${total} AS total
        FROM (${serviceCandidates(filters, text, order)}) c
        ${serviceOrderBy(order)}
        LIMIT ${paging.limit} OFFSET ${paging.offset}
      ) c
      JOIN services s ON s.id = c.id
      LEFT JOIN service_search r ON r.service_id = s.id
      ${serviceOrderBy(order)}`,
  );
  const items = rows.map(({ total: _total, ...service }) => service);
  const countAll = async () => {
    const [count] = await queryRows<{ total: number }>(
      pool,
      Prisma.sql`SELECT count(*)::int AS total FROM (${serviceCandidates(filters, text, order)}) c`,
    );
    return count?.total ?? 0;
  };
  return completePage(items, paging, countAll, rows[0]?.total ?? undefined);
}

export async function listServices(
  pool: ReadPool,
  filters: ServiceFilters,
  order: ServiceOrder,
  paging: Paging,
): Promise<Page<ServiceRecord>> {
  if (filters.q === undefined) return servicePage(pool, filters, undefined, order, paging);
  const page = await servicePage(pool, filters, typed(filters.q), order, paging);
  if (page.total > 0) return page;
  const corrected = await correctedQuery(pool, "service_search", filters.q);
  return corrected ? servicePage(pool, filters, corrected, order, paging) : page;
}

/**
 * The catalogue entry of the row `id`: the row itself if it is a primary, else its primary (a row
 * whose primary has gone is answered as itself rather than lost).
 */
export async function getService(pool: ReadPool, id: string): Promise<ServiceRecord | null> {
  const [row] = await queryRows<ServiceRecord>(
    pool,
    Prisma.sql`
      SELECT ${SERVICE_COLUMNS}
      FROM services asked
      JOIN services s ON s.id IN (asked.id, asked.canonical_id)
      LEFT JOIN service_search r ON r.service_id = s.id
      WHERE asked.id = ${id}::uuid
      ORDER BY (s.id = asked.canonical_id) DESC
      LIMIT 1`,
  );
  return row ?? null;
}
