import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { currentSnapshot } from "../catalogue/catalogue-changes";
import { type EndpointHit, type ListedEndpoint, listedEndpoints } from "../catalogue/endpoint-queries";
import { allEntryFacets, type EntryFacets, NO_FACETS } from "../catalogue/entry-facets";
import { allEntries, type EntryRow, type ServiceRecord } from "../catalogue/service-queries";
import type { ReadPool } from "../db/read-pool";
import { type Amount, amountOf, compareAmounts } from "./amounts";
import { type EndpointEntry, EndpointTable } from "./endpoint-table";
import type { ServiceEntry } from "./service-entry";
import { ServiceTable } from "./service-table";
import { TextIndex } from "./text-index";

/**
 * The catalogue as the list and search endpoints read it, held in memory: loaded in one
 * consistent database snapshot and never changed afterwards (a newer one is loaded beside it and
 * replaces it whole).
 */
export interface LoadedCatalogue {
  /** The database snapshot it was loaded from (pg_snapshot text): what it knows of the catalogue. */
  snapshot: string;
  services: ServiceTable;
  endpoints: EndpointTable;
}

/** How items become the API's JSON: given by the HTTP layer, which owns the wire format. */
export interface CatalogueSerialisers {
  service(record: ServiceRecord): string;
  /** The endpoint item split around `verified`, which depends on the time of the request. */
  endpoint(hit: EndpointHit): { head: string; tail: string };
}

const time = (date: Date | null) => date?.getTime() ?? null;

function serviceEntry(
  row: EntryRow,
  facets: EntryFacets,
  payableEndpoints: number,
  serialise: CatalogueSerialisers["service"],
): ServiceEntry {
  const { document: _document, sortRanks, ...record } = row;
  return {
    id: row.id,
    rowId: row.rowId,
    status: row.status,
    category: row.category?.toLowerCase() ?? null,
    domain: row.domain,
    uptime30d: row.uptime30d,
    avgResponseMs30d: row.avgResponseMs30d,
    volume: row.volumeUsdc30d === null ? null : amountOf(row.volumeUsdc30d),
    txCount30d: row.txCount30d,
    payerCount30d: row.payerCount30d,
    infoUpdatedAt: time(row.infoUpdatedAt),
    tags: new Set(facets.tags),
    methods: new Set(facets.methods),
    sourceKinds: facets.sourceKinds,
    sourceUrls: facets.sourceUrls,
    paymentOptions: facets.paymentOptions.map((option) => ({
      ...option,
      price: option.price === null ? null : amountOf(option.price),
    })),
    lastVerifiedAt: time(facets.lastVerifiedAt),
    drift: facets.drift,
    payableEndpoints,
    sortRanks,
    json: Buffer.from(serialise(record)),
  };
}

function endpointEntry(row: ListedEndpoint, serialise: CatalogueSerialisers["endpoint"]): EndpointEntry {
  const { head, tail } = serialise(row);
  const prices = row.paymentOptions.flatMap((o) => (o.priceUsdc === null ? [] : [amountOf(o.priceUsdc)]));
  return {
    id: row.id,
    method: row.method,
    category: row.category?.toLowerCase() ?? null,
    networks: row.paymentOptions.flatMap((o) =>
      [o.network, o.networkName].flatMap((n) => (n === null ? [] : [n.toLowerCase()])),
    ),
    prices,
    minPrice: prices.reduce<Amount | null>(
      (min, p) => (min === null || compareAmounts(p, min) < 0 ? p : min),
      null,
    ),
    drift: row.drift !== null,
    lastVerifiedAt: time(row.lastVerifiedAt),
    payable: row.payability.payable,
    jsonHead: Buffer.from(head),
    jsonTail: Buffer.from(tail),
  };
}

/** Payable endpoints per catalogue entry (endpoints carry their entry's id). */
function payableEndpointCounts(endpoints: readonly ListedEndpoint[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const endpoint of endpoints) {
    if (endpoint.payability.payable)
      counts.set(endpoint.serviceId, (counts.get(endpoint.serviceId) ?? 0) + 1);
  }
  return counts;
}

/** Reads the whole catalogue in one REPEATABLE READ snapshot, which it records with the data. */
export async function loadCatalogue(
  pool: ReadPool,
  serialisers: CatalogueSerialisers,
): Promise<LoadedCatalogue> {
  const client = await pool.connect();
  let loaded: [string, EntryRow[], Map<string, EntryFacets>, ListedEndpoint[]];
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    // The whole catalogue is read here, well beyond the pool's limit for one API query.
    await client.query("SET LOCAL statement_timeout = '300s'");
    loaded = [
      await currentSnapshot(client),
      await allEntries(client),
      await allEntryFacets(client),
      await listedEndpoints(client),
    ];
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  const [snapshot, entries, facets, endpoints] = loaded;
  // Built in steps with the event loop free in between (see TextIndex.build).
  const payable = payableEndpointCounts(endpoints);
  const serviceEntries = entries.map((row) =>
    serviceEntry(row, facets.get(row.rowId) ?? NO_FACETS, payable.get(row.id) ?? 0, serialisers.service),
  );
  const serviceText = await TextIndex.build(entries.map((row) => row.document));
  await yieldToEventLoop();
  const endpointEntries = endpoints.map((row) => endpointEntry(row, serialisers.endpoint));
  const endpointText = await TextIndex.build(endpoints.map((row) => row.document));
  return {
    snapshot,
    services: new ServiceTable(serviceEntries, serviceText),
    endpoints: new EndpointTable(endpointEntries, endpointText),
  };
}
