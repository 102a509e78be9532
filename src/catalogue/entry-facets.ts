import { setImmediate as yieldToEventLoop } from "node:timers/promises";
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

/** Facets by entry id (the primary row's id). */
export async function allEntryFacets(
  db: Queryable,
  /** Only these entries (primary rows' ids: an in-place refresh); every entry's when absent. */
  entryIds?: readonly string[],
): Promise<Map<string, EntryFacets>> {
  const scope =
    entryIds === undefined ? Prisma.empty : Prisma.sql`WHERE ${entryOf("m")} = ANY(${entryIds}::uuid[])`;
  // One after another: `db` may be a single connection (the index loads in one transaction).
  const tags = await queryRows<{ entry: string; tags: string[] }>(
    db,
    Prisma.sql`SELECT ${entryIdOfRow} AS entry, array_agg(DISTINCT t.tag) AS tags
        FROM services m JOIN service_tags t ON t.service_id = m.id ${scope} GROUP BY 1`,
  );
  const endpoints = await queryRows<{
    entry: string;
    methods: string[];
    lastVerifiedAt: Date | null;
    drift: boolean;
  }>(
    db,
    Prisma.sql`SELECT ${entryIdOfRow} AS entry, array_agg(DISTINCT e.method) AS methods,
          max(e.last_verified_at) AS "lastVerifiedAt",
          bool_or(${latestDriftJson("e", Prisma.sql`now()`)} IS NOT NULL) AS drift
        FROM services m JOIN endpoints e ON e.service_id = m.id ${scope} GROUP BY 1`,
  );
  const sources = await queryRows<{ entry: string; kinds: string[]; urls: string[] }>(
    db,
    Prisma.sql`SELECT ${entryIdOfRow} AS entry, array_agg(DISTINCT src.kind::text) AS kinds,
          array_agg(DISTINCT rtrim(src.base_url, '/')) AS urls
        FROM services m JOIN sources src ON src.id = m.source_id ${scope} GROUP BY 1`,
  );
  const options = await queryRows<PaymentFacetRow & { entry: string }>(
    db,
    Prisma.sql`SELECT ${entryIdOfRow} AS entry, lower(po.network) AS network,
          lower(po.network_name) AS "networkName", lower(po.asset) AS asset,
          lower(po.asset_symbol) AS "assetSymbol", ${decimalText(Prisma.sql`po.price_usdc`)} AS price,
          lower(po.pay_to) AS "payTo"
        FROM services m JOIN endpoints e ON e.service_id = m.id
        JOIN payment_options po ON po.endpoint_id = e.id ${scope}`,
  );
  const facets = new Map<string, EntryFacets>();
  const of = (entry: string) => {
    let found = facets.get(entry);
    if (!found) {
      found = emptyFacets();
      facets.set(entry, found);
    }
    return found;
  };
  // Each pass is over every entry: the event loop is let go between them (see loaded-catalogue.ts).
  for (const row of tags) of(row.entry).tags = row.tags;
  await yieldToEventLoop();
  for (const row of endpoints)
    Object.assign(of(row.entry), {
      methods: row.methods,
      lastVerifiedAt: row.lastVerifiedAt,
      drift: row.drift,
    });
  await yieldToEventLoop();
  for (const row of sources) Object.assign(of(row.entry), { sourceKinds: row.kinds, sourceUrls: row.urls });
  await yieldToEventLoop();
  for (const { entry, ...option } of options) of(entry).paymentOptions.push(option);
  return facets;
}

export const NO_FACETS: EntryFacets = Object.freeze(emptyFacets());
