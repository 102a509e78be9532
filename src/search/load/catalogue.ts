import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type pg from "pg";
import { currentSnapshot } from "../../catalogue/catalogue-changes";
import { type EndpointHit, listedEndpointCountQuery } from "../../catalogue/endpoint-queries";
import { type EntryFacets, FacetStreams, NO_FACETS } from "../../catalogue/entry-facets";
import {
  allEntriesQuery,
  type EntryFields,
  type EntryRow,
  entryCountQuery,
  SERVICE_SORTS,
  type ServiceRecord,
  serviceOrder,
  sortRanksOf,
} from "../../catalogue/service-queries";
import { rowsInBatches } from "../../db/cursor";
import { queryRows, type ReadPool } from "../../db/read-pool";
import { readInOneSnapshot } from "../../db/read-snapshot";
import type { Prisma } from "../../generated/prisma/client";
import { amountOf } from "../tables/amounts";
import type { EndpointTable } from "../tables/endpoint-table";
import { packedIdAt } from "../tables/id-lookup";
import { IntList } from "../tables/int-list";
import { type PassRunner, runPassesNow } from "../tables/page-order";
import { ServiceColumnsBuilder } from "../tables/service-columns-builder";
import type { ServiceEntry } from "../tables/service-entry";
import { ServiceTable } from "../tables/service-table";
import type { PayableCounts } from "./endpoint-load";
import { Interned } from "./interned";
import { buildTextIndexHere, type DocumentSet, type StartParts, startPartsHere } from "./parts";

/**
 * The catalogue as the list and search endpoints read it, held in memory: loaded in one
 * consistent database snapshot. A change of its shape (a crawl's writes) loads a newer one beside
 * it, which replaces it whole; probe results are brought in place (see freshness/in-place-refresh.ts), which
 * moves its snapshot forward.
 */
export interface Catalogue {
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
  record: EntryFields,
  sortRanks: ServiceEntry["sortRanks"],
  facets: EntryFacets,
  payableEndpoints: number,
  /** Strings of the entries being made together (a load, a refresh), each kept once. */
  shared: Interned,
): ServiceEntry {
  return {
    id: record.id,
    rowId: record.rowId,
    status: record.status,
    category: shared.of(record.category?.toLowerCase() ?? null),
    domain: record.domain,
    uptime30d: record.uptime30d,
    avgResponseMs30d: record.avgResponseMs30d,
    volume: record.volumeUsdc30d === null ? null : amountOf(record.volumeUsdc30d),
    txCount30d: record.txCount30d,
    payerCount30d: record.payerCount30d,
    infoUpdatedAt: time(record.infoUpdatedAt),
    tags: shared.list(facets.tags),
    methods: shared.list(facets.methods),
    sourceKinds: shared.list(facets.sourceKinds),
    sourceUrls: shared.list(facets.sourceUrls),
    paymentOptions: facets.paymentOptions.map((option) => ({
      network: shared.of(option.network),
      networkName: shared.of(option.networkName),
      asset: shared.of(option.asset),
      assetSymbol: shared.of(option.assetSymbol),
      payTo: shared.of(option.payTo),
      price: option.price === null ? null : shared.amount(option.price),
    })),
    lastVerifiedAt: time(facets.lastVerifiedAt),
    drift: facets.drift,
    payableEndpoints,
    health: record.health,
    grade: record.grade,
    score: record.score,
    warnings: shared.list(record.trustWarnings),
    ownerVerified: record.ownerVerified,
    observedVolume: record.observedVolumeUsdc30d === null ? null : amountOf(record.observedVolumeUsdc30d),
    observedUniquePayers: record.observedUniquePayers30d,
    sortRanks,
  };
}

/** Rows read (and parsed, and indexed) per step, with the event loop free between steps. */
const BATCH = 500;

/**
 * The services list's entries with their facets (read in step, a batch at a time: see
 * FacetStreams) and their columns; their payable endpoints are counted later (0 here).
 */
async function readEntries(
  client: pg.PoolClient,
  signal: AbortSignal | undefined,
): Promise<{ entries: ServiceEntry[]; columns: ServiceColumnsBuilder; idPlace: Int32Array }> {
  const facets = new FacetStreams((sql) => rowsInBatches(client, sql, BATCH));
  const entries: ServiceEntry[] = [];
  const columns = new ServiceColumnsBuilder();
  const idPlaces = new IntList();
  const strings = new Interned();
  try {
    for await (const rows of rowsInBatches<EntryRow>(client, allEntriesQuery(), BATCH)) {
      signal?.throwIfAborted();
      const batchFacets = await facets.next(rows.map((row) => row.rowId));
      for (const { ranks, idPlace, ...record } of rows) {
        const entryFacets = batchFacets.get(record.rowId) ?? NO_FACETS;
        const entry = serviceEntry(record, sortRanksOf(ranks), entryFacets, 0, strings);
        entries.push(entry);
        columns.add(entry);
        idPlaces.push(idPlace);
      }
      await yieldToEventLoop();
    }
  } finally {
    await facets.close();
  }
  return { entries, columns, idPlace: idPlaces.done() };
}

/**
 * Sets each entry's payable endpoint count: the entries in id order (their idPlace) walked beside
 * the counts (ascending by id, as uuids' text orders), in slices with the event loop free in between.
 */
async function countPayable(
  entries: ServiceEntry[],
  idPlace: Int32Array,
  { ids, counts }: PayableCounts,
): Promise<void> {
  const byId = new Int32Array(idPlace.length);
  for (let i = 0; i < idPlace.length; i += 1) byId[idPlace[i] as number] = i;
  let k = 0;
  for (let place = 0; place < byId.length && k < counts.length; place += 1) {
    if (place % 10_000 === 9_999) await yieldToEventLoop();
    const entry = entries[byId[place] as number] as ServiceEntry;
    while (k < counts.length && packedIdAt(ids, k) < entry.id) k += 1;
    if (k < counts.length && packedIdAt(ids, k) === entry.id) entry.payableEndpoints = counts[k] as number;
  }
}

export interface LoadOptions {
  /** How the large parts are built: here unless given (scale/build-workers.ts gives worker threads). */
  startParts?: StartParts;
  /** Stops the load at its next batch (the process is shutting down). */
  signal?: AbortSignal;
  /**
   * Read and build one part at a time (the endpoints list, then the services' text index, then
   * the services), each on one connection: for a reload, beside a catalogue that keeps answering,
   * the answering thread's share of the CPU and memory matter more than time. Two workers' builds
   * at once are the memory peak, and two connections streaming at once keep two Postgres
   * backends busy: on two cores shared with Postgres, the answering thread then waits 60-116 ms
   * for a core (harness at 100,000 services; one part at a time: reloads take 27-29 s rather than
   * 22 s, the longest wait 86 ms, most under 50). A first load, with nothing to answer from, does all at once.
   */
  onePartAtATime?: boolean;
}

/** How many documents each text index will hold (its table's rows), counted in the load's snapshot. */
async function documentCounts(client: pg.PoolClient): Promise<Record<DocumentSet, number>> {
  const count = async (query: Prisma.Sql) =>
    (await queryRows<{ count: number }>(client, query))[0]?.count ?? 0;
  return { services: await count(entryCountQuery()), endpoints: await count(listedEndpointCountQuery()) };
}

/**
 * Reads the whole catalogue in one REPEATABLE READ snapshot, which it records with the data.
 * Services are read here on a second connection sharing the snapshot (`pg_export_snapshot`);
 * the endpoints list and the services' text index are built meanwhile, or before with
 * `onePartAtATime` (by `startParts`: on this connection unless given, on worker threads for a large catalogue).
 * Rows come through cursors a batch at a time, each batch made into columns before the next is
 * read, with the event loop free in between: memory holds what is being built and a batch, never every row at once, and requests
 * keep being answered (from the previous catalogue) while a new one loads.
 */
export async function loadCatalogue(pool: ReadPool, options: LoadOptions = {}): Promise<Catalogue> {
  return readInOneSnapshot(pool, async (client) => {
    const snapshot = await currentSnapshot(client);
    const exported =
      (await client.query<{ id: string }>("SELECT pg_export_snapshot() AS id")).rows[0]?.id ?? "";
    const counts = await documentCounts(client);
    const { signal } = options;
    const task = { connectionString: connectionStringOf(pool), exported };
    const startParts = options.startParts ?? startPartsHere;
    const { onePartAtATime } = options;
    const { endpoints: endpointsBuilt, servicesText } = startParts(client, task, {
      counts,
      onePartAtATime,
      signal,
    });
    if (onePartAtATime === true) await (servicesText ?? endpointsBuilt);
    const services = await readInOneSnapshot(
      pool,
      async (other) => {
        const read = await readEntries(other, signal);
        return { ...read, text: await (servicesText ?? buildTextIndexHere(other, "services", signal)) };
      },
      exported,
    );
    const endpoints = await endpointsBuilt;
    await countPayable(services.entries, services.idPlace, endpoints.payable);
    if (services.text.size !== services.entries.length)
      throw new Error("the search documents read do not match the catalogue's entries");
    const { entries, columns, text, idPlace } = services;
    return {
      snapshot,
      services: ServiceTable.of(entries, await columns.finish(entries), text, idPlace),
      endpoints: endpoints.table,
    };
  });
}

/** Each sort in the direction a request gets when it names none. */
const NATURAL_ORDERS = SERVICE_SORTS.map((sort) => serviceOrder(undefined, sort));

/**
 * Computes ahead, with `run` (at once unless given; a large catalogue is given a runner that works
 * a slice per turn of the event loop), the sort orders a catalogue otherwise computes when a
 * request first needs one (after a load, or after probes moved prices): each service sort in its
 * natural direction and each endpoint sort's order. Returns how many it computed.
 */
export async function prepareOrders(catalogue: Catalogue, run: PassRunner = runPassesNow): Promise<number> {
  const computed = await catalogue.services.prepareOrders(NATURAL_ORDERS, run);
  return computed + (await catalogue.endpoints.prepareOrders(run));
}

/** The connection string a worker thread connects with: the pool's own. */
function connectionStringOf(pool: ReadPool): string {
  const { connectionString } = pool.options;
  if (connectionString === undefined) throw new Error("the read pool has no connection string");
  return connectionString;
}
