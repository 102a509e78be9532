import { type Queryable, queryRows } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { ownerColumns, ownerVerifiedOfEveryEntry, type ReportRecord } from "../ownership/owner-columns";
import { entryMinPrice, entryPaymentOptions, isEntryPrimary } from "./catalogue-entries";
import { serviceEndpoints, serviceTags } from "./search-documents";
import { decimalText, type SortDirection, volumeText } from "./sql";
import { type ListedTrust, listedTrustColumns } from "./trust-queries";

/** A column of the entry's observed figures (service_activity, keyed by the primary row `s`). */
function observedColumn(column: string): Prisma.Sql {
  return Prisma.sql`(SELECT a.${Prisma.raw(column)} FROM service_activity a WHERE a.service_id = s.id)`;
}

/**
 * The allow-list of sorts, one entry each: its SQL key (ranked by Postgres when the in-memory
 * catalogue loads, so the search orders by it with no other code), the direction people expect by
 * default, and what the API's description says of it beyond its name.
 */
const SORT_KEYS = {
  relevance: { key: Prisma.sql`NULL::real`, order: "desc", about: "default with q" }, // ordered by ts_rank instead
  volume: { key: Prisma.sql`s.volume_usdc_30d`, order: "desc", about: "default otherwise" },
  tx_count: { key: Prisma.sql`s.tx_count_30d`, order: "desc" },
  payers: { key: Prisma.sql`s.payer_count_30d`, order: "desc" },
  uptime: { key: Prisma.sql`s.uptime_30d`, order: "desc" },
  response_ms: { key: Prisma.sql`s.avg_response_ms_30d`, order: "asc" },
  name: { key: Prisma.sql`lower(s.name)`, order: "asc" },
  updated: { key: Prisma.sql`s.info_updated_at`, order: "desc" },
  first_seen: { key: Prisma.sql`s.first_seen_at`, order: "desc" },
  // The cheapest call of the entry: people looking at prices want the cheapest first.
  price: { key: entryMinPrice("s"), order: "asc", about: "the lowest price per call in USDC" },
  // The trust score (src/trust): people sorting by it want the most trustworthy first.
  score: { key: Prisma.sql`s.score`, order: "desc", about: "the trust score 0–100; unscored last" },
  // What the chain shows the entry's pay_tos received over 30 days (src/activity): raw, and with
  // flagged transfers left out.
  observed_volume: {
    key: observedColumn("observed_volume_usdc_30d"),
    order: "desc",
    about: "the observed 30-day USDC volume on chain; entries no chain reads last",
  },
  adjusted_volume: {
    key: observedColumn("adjusted_volume_usdc_30d"),
    order: "desc",
    about: "the observed volume without flagged transfers",
  },
} satisfies Record<string, { key: Prisma.Sql; order: SortDirection; about?: string }>;

export type ServiceSort = keyof typeof SORT_KEYS;
export const SERVICE_SORTS = Object.keys(SORT_KEYS) as [ServiceSort, ...ServiceSort[]];

export interface ServiceOrder {
  sort: ServiceSort;
  order: SortDirection;
}

/** Each sort with what the API says of it: "volume (default otherwise)". */
export function describedSorts(): string[] {
  return Object.entries(SORT_KEYS).map(([sort, entry]) =>
    "about" in entry ? `${sort} (${entry.about})` : sort,
  );
}

/** The sorts whose default direction is `order`. */
export function sortsOrdered(order: SortDirection): ServiceSort[] {
  return SERVICE_SORTS.filter((sort) => SORT_KEYS[sort].order === order);
}

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

export interface ServiceRecord extends ListedTrust {
  /** The entry's stable id (see shownId); what the API shows. */
  id: string;
  /** The primary row's own id: the key of the entry's rows and facets inside the catalogue. */
  rowId: string;
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
  /** owner_request when its origin's owner had it delisted. */
  delistReason: "owner_request" | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  sourceUrl: string;
  /** The lowest price per call of any payment option of the entry, as exact decimal text. */
  priceUsdcMin: string | null;
  /** CAIP-2 networks the entry's payment options use, sorted. */
  networks: string[];
  /** An origin of the entry's endpoints has a verified owner (src/ownership). */
  ownerVerified: boolean;
  /** What that owner reports of its services; null when it reported nothing. */
  ownerReported: ReportRecord | null;
  /** What the chain shows its pay_tos received over 30 days (raw; null when no chain reads them). */
  observedVolumeUsdc30d: string | null;
  observedUniquePayers30d: number | null;
}

/**
 * The id the API shows for the entry of row `alias`: the entry's stable id once the merge step
 * has given it one (see entry_id in the schema), else its primary's id, else the row's own.
 */
export function shownId(alias: string): Prisma.Sql {
  const s = Prisma.raw(alias);
  return Prisma.sql`coalesce(${s}.entry_id, ${s}.canonical_id, ${s}.id)`;
}

/** CAIP-2 networks of every payment option of the entry of `s`, sorted. */
const entryNetworks = Prisma.sql`(SELECT
  coalesce(array_agg(DISTINCT po.network ORDER BY po.network) FILTER (WHERE po.network IS NOT NULL), '{}')
  ${entryPaymentOptions("s")})`;

/** The entry's observed 30-day volume (exact text) and payers, from service_activity. */
const observedColumns = Prisma.sql`${decimalText(observedColumn("observed_volume_usdc_30d"))} AS "observedVolumeUsdc30d",
  ${observedColumn("unique_payers_30d")} AS "observedUniquePayers30d"`;

/**
 * Columns of a service `s` LEFT JOINed to its read model `r` (service_search). Tags and endpoints
 * come from the read model; a service whose read model was never built falls back to reading
 * them directly (COALESCE evaluates the subquery only then).
 */
export const SERVICE_COLUMNS = Prisma.sql`
  ${shownId("s")} AS id, s.id AS "rowId", s.name, s.domain, s.description, s.category,
  coalesce(r.tags, ${serviceTags(Prisma.sql`s`)}) AS tags,
  coalesce(r.endpoints, ${serviceEndpoints(Prisma.sql`s`)}) AS endpoints,
  s.uptime_30d AS "uptime30d", s.avg_response_ms_30d AS "avgResponseMs30d",
  s.info_updated_at AS "infoUpdatedAt", ${volumeText(Prisma.sql`s.volume_usdc_30d`)} AS "volumeUsdc30d",
  s.tx_count_30d AS "txCount30d", s.payer_count_30d AS "payerCount30d", s.status::text AS status,
  s.delist_reason AS "delistReason", s.first_seen_at AS "firstSeenAt", s.last_seen_at AS "lastSeenAt", s.detail_url AS "sourceUrl",
  ${decimalText(entryMinPrice("s"))} AS "priceUsdcMin", ${entryNetworks} AS networks,
  ${listedTrustColumns("s")}, ${ownerColumns("s")}, ${observedColumns}`;

export type SortKey = Exclude<ServiceSort, "relevance">;

/** What the in-memory catalogue keeps of an entry's own row (its filters and sorts). */
export type EntryFields = Pick<
  ServiceRecord,
  | "id"
  | "rowId"
  | "status"
  | "category"
  | "domain"
  | "uptime30d"
  | "avgResponseMs30d"
  | "volumeUsdc30d"
  | "txCount30d"
  | "payerCount30d"
  | "infoUpdatedAt"
  | "health"
  | "grade"
  | "score"
  | "trustWarnings"
  | "ownerVerified"
  | "observedVolumeUsdc30d"
  | "observedUniquePayers30d"
>;

/** Every catalogue entry (its primary row), with its place in each sort. */
export interface EntryRow extends EntryFields {
  /** Dense rank of the entry's value for each sort (SORT_RANK_KEYS), ascending; 0 when it has no value. */
  ranks: number[];
  /** The entry's place in id order (0 first): the tie-break of every sort. */
  idPlace: number;
}

/** The sort keys in the order of EntryRow.ranks. */
const SORT_RANK_KEYS = SERVICE_SORTS.filter((sort): sort is SortKey => sort !== "relevance");

/**
 * The order entries are read in, the same for their rows, their search documents and their
 * facets (entry-facets.ts): by primary row id, as uuids (the order of their text).
 */
const ENTRY_ORDER = Prisma.sql`s.id`;

/**
 * Every catalogue entry (read through a cursor: see src/search/load/catalogue.ts). Ranks and id places
 * come from Postgres so that the order is Postgres's (collation for names, exact numeric),
 * whoever sorts by them; NULLS LAST puts missing values after every real one, and they become 0.
 * Ids are uuids, whose order is their text's. Their search documents come from
 * entryDocumentsQuery, in the same order.
 */
export function allEntriesQuery(): Prisma.Sql {
  const ranks = Prisma.join(
    SORT_RANK_KEYS.map(
      (sort) => Prisma.sql`CASE WHEN ${SORT_KEYS[sort].key} IS NULL THEN 0
        ELSE dense_rank() OVER (ORDER BY ${SORT_KEYS[sort].key} NULLS LAST) END::int`,
    ),
  );
  return Prisma.sql`
      SELECT ${shownId("s")}::text AS id, s.id::text AS "rowId", s.status::text AS status, s.category,
        s.domain, s.uptime_30d AS "uptime30d", s.avg_response_ms_30d AS "avgResponseMs30d",
        ${volumeText(Prisma.sql`s.volume_usdc_30d`)} AS "volumeUsdc30d", s.tx_count_30d AS "txCount30d",
        s.payer_count_30d AS "payerCount30d", s.info_updated_at AS "infoUpdatedAt", ${listedTrustColumns("s")},
        ${ownerVerifiedOfEveryEntry("s")} AS "ownerVerified",
        ${observedColumns},
        ARRAY[${ranks}] AS ranks, (row_number() OVER (ORDER BY ${shownId("s")}, s.id) - 1)::int AS "idPlace"
      FROM services s
      WHERE ${isEntryPrimary("s")}
      ORDER BY ${ENTRY_ORDER}`;
}

/** How many rows allEntriesQuery reads. */
export function entryCountQuery(): Prisma.Sql {
  return Prisma.sql`SELECT count(*)::int AS count FROM services s WHERE ${isEntryPrimary("s")}`;
}

/** The service_search documents (tsvector text; null until built) of allEntriesQuery's rows, in its order. */
export function entryDocumentsQuery(): Prisma.Sql {
  return Prisma.sql`
      SELECT r.document::text AS document
      FROM services s LEFT JOIN service_search r ON r.service_id = s.id
      WHERE ${isEntryPrimary("s")}
      ORDER BY ${ENTRY_ORDER}`;
}

/** An entry's ranks by sort key. */
export function sortRanksOf(ranks: readonly number[]): Record<SortKey, number> {
  return Object.fromEntries(SORT_RANK_KEYS.map((sort, i) => [sort, ranks[i] ?? 0])) as Record<
    SortKey,
    number
  >;
}

/** These entries' records (by primary row id), without ranks: what an in-place refresh serialises again. */
export async function entryRecords(db: Queryable, rowIds: readonly string[]): Promise<ServiceRecord[]> {
  return queryRows<ServiceRecord>(
    db,
    Prisma.sql`
      SELECT ${SERVICE_COLUMNS}
      FROM services s LEFT JOIN service_search r ON r.service_id = s.id
      WHERE s.id = ANY(${rowIds}::uuid[])`,
  );
}

/**
 * `s` (with its read model `r`) is the catalogue entry that `id` (a uuid expression) names: the
 * entry shown under that id, else the entry of the row with that id (an id an entry was shown
 * under before, or a source row's own id). Its primary row if it has one (a row whose primary has
 * gone is answered as itself rather than lost). Select SERVICE_COLUMNS from it; no row when
 * nothing has that id.
 */
export function fromEntryOfRow(id: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(
      SELECT s.id FROM services asked
      JOIN services s ON s.id IN (asked.id, asked.canonical_id)
      WHERE asked.entry_id = ${id} OR asked.id = ${id}
      ORDER BY (asked.entry_id = ${id}) IS TRUE DESC, (s.id = asked.canonical_id) DESC
      LIMIT 1
    ) entry
    JOIN services s ON s.id = entry.id
    LEFT JOIN service_search r ON r.service_id = s.id`;
}
