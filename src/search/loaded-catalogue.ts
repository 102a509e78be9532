import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type pg from "pg";
import { currentSnapshot } from "../catalogue/catalogue-changes";
import { type EndpointHit, type ListedEndpoint, listedEndpoints } from "../catalogue/endpoint-queries";
import { allEntryFacets, type EntryFacets, NO_FACETS } from "../catalogue/entry-facets";
import { allEntries, type ServiceRecord } from "../catalogue/service-queries";
import type { ReadPool } from "../db/read-pool";
import { amountOf, lowestAmount } from "./amounts";
import { type EndpointEntry, EndpointTable } from "./endpoint-table";
import type { ServiceEntry } from "./service-entry";
import { ServiceTable } from "./service-table";
import { mapInSlices } from "./slices";
import { TextIndex } from "./text-index";

/**
 * The catalogue as the list and search endpoints read it, held in memory: loaded in one
 * consistent database snapshot. A change of its shape (a crawl's writes) loads a newer one beside
 * it, which replaces it whole; probe results are brought in place (see probe-refresh.ts), which
 * moves its snapshot forward.
 */
export interface LoadedCatalogue {
  /** The database snapshot it reflects (pg_snapshot text): what it knows of the catalogue. */
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

/** An entry of the services list: `sortRanks` are the entry's places in the whole catalogue's sorts. */
export function serviceEntry(
  record: ServiceRecord,
  sortRanks: ServiceEntry["sortRanks"],
  facets: EntryFacets,
  payableEndpoints: number,
  serialise: CatalogueSerialisers["service"],
): ServiceEntry {
  return {
    id: record.id,
    rowId: record.rowId,
    status: record.status,
    category: record.category?.toLowerCase() ?? null,
    domain: record.domain,
    uptime30d: record.uptime30d,
    avgResponseMs30d: record.avgResponseMs30d,
    volume: record.volumeUsdc30d === null ? null : amountOf(record.volumeUsdc30d),
    txCount30d: record.txCount30d,
    payerCount30d: record.payerCount30d,
    infoUpdatedAt: time(record.infoUpdatedAt),
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
    ...withLastSeenAtOffset(serialise(record), record.lastSeenAt),
  };
}

/** The item's JSON, and where the value of its `last_seen_at` starts in it (in bytes). */
function withLastSeenAtOffset(json: string, lastSeenAt: Date): { json: Buffer; lastSeenAtOffset: number } {
  const field = `"last_seen_at":"${lastSeenAt.toISOString()}"`;
  const at = json.indexOf(field);
  if (at < 0) throw new Error("a service item without its last_seen_at");
  return {
    json: Buffer.from(json),
    lastSeenAtOffset: Buffer.byteLength(json.slice(0, at)) + `"last_seen_at":"`.length,
  };
}

export function endpointEntry(
  row: ListedEndpoint,
  serialise: CatalogueSerialisers["endpoint"],
): EndpointEntry {
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
    minPrice: lowestAmount(prices),
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

/**
 * Runs `work` in one read-only REPEATABLE READ transaction: everything it reads is one consistent
 * snapshot of the catalogue, which pg_current_snapshot() names.
 */
export async function readInOneSnapshot<T>(
  pool: ReadPool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    // The whole catalogue is read here, well beyond the pool's limit for one API query.
    await client.query("SET LOCAL statement_timeout = '300s'");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Reads the whole catalogue in one REPEATABLE READ snapshot, which it records with the data. */
export async function loadCatalogue(
  pool: ReadPool,
  serialisers: CatalogueSerialisers,
): Promise<LoadedCatalogue> {
  const [snapshot, entries, facets, endpoints] = await readInOneSnapshot(
    pool,
    async (client) =>
      [
        await currentSnapshot(client),
        await allEntries(client),
        await allEntryFacets(client),
        await listedEndpoints(client),
      ] as const,
  );
  // Built in steps with the event loop free in between (see TextIndex.build).
  const payable = payableEndpointCounts(endpoints);
  const serviceEntries = await mapInSlices(entries, ({ document: _document, sortRanks, ...record }) =>
    serviceEntry(
      record,
      sortRanks,
      facets.get(record.rowId) ?? NO_FACETS,
      payable.get(record.id) ?? 0,
      serialisers.service,
    ),
  );
  const serviceText = await TextIndex.build(entries.map((row) => row.document));
  await yieldToEventLoop();
  const endpointEntries = await mapInSlices(endpoints, (row) => endpointEntry(row, serialisers.endpoint));
  const endpointText = await TextIndex.build(endpoints.map((row) => row.document));
  return {
    snapshot,
    services: new ServiceTable(serviceEntries, serviceText),
    endpoints: new EndpointTable(endpointEntries, endpointText),
  };
}
