import { type Queryable, queryRows } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { entryOf } from "./catalogue-entries";
import { latestDriftJson } from "./probe-stats";
import { decimalText } from "./sql";

/**
 * What the list's filters ask of a catalogue entry as a whole (every row merged into it): tags,
 * endpoint methods, latest verification, sources and payment options, for every entry at once
 * (the in-memory catalogue loads them; see src/search/).
 */

const entryIdOfRow = Prisma.sql`${entryOf("m")}::text`;

export interface EntryFacets {
  tags: string[];
  methods: string[];
  lastVerifiedAt: Date | null;
  /** Some endpoint's latest live challenge differed from its listing (what /v1/endpoints shows as drift). */
  drift: boolean;
  sourceKinds: string[];
  /** Base URLs without trailing slashes. */
  sourceUrls: string[];
  paymentOptions: PaymentFacetRow[];
}

/** A payment option's filterable fields, text lower-cased (filters are case-insensitive). */
export interface PaymentFacetRow {
  network: string | null;
  networkName: string | null;
  asset: string | null;
  assetSymbol: string | null;
  /** Exact decimal text. */
  price: string | null;
  payTo: string | null;
}

const emptyFacets = (): EntryFacets => ({
  tags: [],
  methods: [],
  lastVerifiedAt: null,
  drift: false,
  sourceKinds: [],
  sourceUrls: [],
  paymentOptions: [],
});

/** One facet query's rows, each for one entry (by its primary row's id, `entry`). */
type FacetRow = { entry: string } & Record<string, unknown>;

/** What each facet query's rows add to their entry's facets. */
interface FacetQuery {
  sql: (scope: Prisma.Sql) => Prisma.Sql;
  apply: (facets: EntryFacets, row: FacetRow) => void;
}

/**
 * The facet queries, each grouped or ordered by entry (ascending as uuids, which is the order of
 * their text, as the entries cursor reads them) so that a load can walk them in step with the
 * entries (see FacetStreams).
 */
const FACET_QUERIES: FacetQuery[] = [
  {
    sql: (scope) => Prisma.sql`SELECT ${entryIdOfRow} AS entry, array_agg(DISTINCT t.tag) AS tags
        FROM services m JOIN service_tags t ON t.service_id = m.id ${scope} GROUP BY ${entryOf("m")} ORDER BY ${entryOf("m")}`,
    apply: (facets, row) => {
      facets.tags = row.tags as string[];
    },
  },
  {
    sql: (scope) => Prisma.sql`SELECT ${entryIdOfRow} AS entry, array_agg(DISTINCT e.method) AS methods,
          max(e.last_verified_at) AS "lastVerifiedAt",
          bool_or(${latestDriftJson("e", Prisma.sql`now()`)} IS NOT NULL) AS drift
        FROM services m JOIN endpoints e ON e.service_id = m.id ${scope} GROUP BY ${entryOf("m")} ORDER BY ${entryOf("m")}`,
    apply: (facets, row) => {
      facets.methods = row.methods as string[];
      facets.lastVerifiedAt = row.lastVerifiedAt as Date | null;
      facets.drift = row.drift as boolean;
    },
  },
  {
    sql: (scope) => Prisma.sql`SELECT ${entryIdOfRow} AS entry, array_agg(DISTINCT src.kind::text) AS kinds,
          array_agg(DISTINCT rtrim(src.base_url, '/')) AS urls
        FROM services m JOIN sources src ON src.id = m.source_id ${scope} GROUP BY ${entryOf("m")} ORDER BY ${entryOf("m")}`,
    apply: (facets, row) => {
      facets.sourceKinds = row.kinds as string[];
      facets.sourceUrls = row.urls as string[];
    },
  },
  {
    sql: (scope) => Prisma.sql`SELECT ${entryIdOfRow} AS entry, lower(po.network) AS network,
          lower(po.network_name) AS "networkName", lower(po.asset) AS asset,
          lower(po.asset_symbol) AS "assetSymbol", ${decimalText(Prisma.sql`po.price_usdc`)} AS price,
          lower(po.pay_to) AS "payTo"
        FROM services m JOIN endpoints e ON e.service_id = m.id
        JOIN payment_options po ON po.endpoint_id = e.id ${scope} ORDER BY ${entryOf("m")}`,
    apply: (facets, { entry: _entry, ...option }) => {
      facets.paymentOptions.push(option as unknown as PaymentFacetRow);
    },
  },
];

/** Facets by entry id (the primary row's id) of these entries (an in-place refresh). */
export async function entryFacets(
  db: Queryable,
  entryIds: readonly string[],
): Promise<Map<string, EntryFacets>> {
  const scope = Prisma.sql`WHERE ${entryOf("m")} = ANY(${entryIds}::uuid[])`;
  const facets = new Map<string, EntryFacets>();
  // One after another: `db` may be a single connection.
  for (const query of FACET_QUERIES) {
    for (const row of await queryRows<FacetRow>(db, query.sql(scope))) {
      let found = facets.get(row.entry);
      if (found === undefined) {
        found = emptyFacets();
        facets.set(row.entry, found);
      }
      query.apply(found, row);
    }
  }
  return facets;
}

/**
 * Every entry's facets, read through one cursor per facet query in step with the entries (both
 * ascending by the primary row's id): a load asks for the facets of each batch of entries and
 * only those rows are in memory, never every entry's at once.
 */
export class FacetStreams {
  private readonly streams: Array<{
    query: FacetQuery;
    rows: AsyncGenerator<FacetRow[]>;
    /** The batch read last, and how far it is used. */
    pending: FacetRow[];
    used: number;
  }>;

  constructor(open: (sql: Prisma.Sql) => AsyncGenerator<FacetRow[]>) {
    this.streams = FACET_QUERIES.map((query) => ({
      query,
      rows: open(query.sql(Prisma.empty)),
      pending: [],
      used: 0,
    }));
  }

  /** The facets of these entries (primary row ids, ascending, after every id asked before). */
  async next(entryIds: readonly string[]): Promise<Map<string, EntryFacets>> {
    const facets = new Map(entryIds.map((id) => [id, emptyFacets()]));
    const last = entryIds[entryIds.length - 1];
    if (last === undefined) return facets;
    for (const stream of this.streams) {
      for (;;) {
        if (stream.used === stream.pending.length) {
          const next = await stream.rows.next();
          if (next.done) break;
          stream.pending = next.value;
          stream.used = 0;
        }
        const row = stream.pending[stream.used] as FacetRow;
        if (row.entry > last) break;
        stream.used += 1;
        const found = facets.get(row.entry);
        if (found !== undefined) stream.query.apply(found, row);
      }
    }
    return facets;
  }

  /** Closes the cursors (when the entries ended first). */
  async close(): Promise<void> {
    for (const stream of this.streams) await stream.rows.return(undefined);
  }
}

export const NO_FACETS: EntryFacets = Object.freeze(emptyFacets());
