import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type pg from "pg";
import { currentSnapshot } from "../catalogue/catalogue-changes";
import {
  type EndpointHit,
  endpointDocumentsQuery,
  endpointIndexQuery,
  type IndexedEndpointRow,
  withVerdicts,
} from "../catalogue/endpoint-queries";
import { allEntryFacets, type EntryFacets, NO_FACETS } from "../catalogue/entry-facets";
import {
  allEntriesQuery,
  type EntryFields,
  type EntryRow,
  entryDocumentsQuery,
  type ServiceRecord,
  sortRanksOf,
} from "../catalogue/service-queries";
import { rowsInBatches } from "../db/cursor";
import type { ReadPool } from "../db/read-pool";
import { readInOneSnapshot } from "../db/read-snapshot";
import { amountOf } from "./amounts";
import { type EndpointTable, EndpointTableBuilder, endpointFields } from "./endpoint-table";
import { IntList } from "./int-list";
import { Interned } from "./interned";
import type { ServiceEntry } from "./service-entry";
import { ServiceTable } from "./service-table";
import { buildTextIndexHere, buildTextIndexOffThread, type DocumentSet } from "./text-build";

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
    tags: facets.tags.map((tag) => shared.of(tag)),
    methods: facets.methods.map((method) => shared.of(method)),
    sourceKinds: facets.sourceKinds.map((kind) => shared.of(kind)),
    sourceUrls: facets.sourceUrls.map((url) => shared.of(url)),
    paymentOptions: facets.paymentOptions.map((option) => ({
      network: shared.of(option.network),
      networkName: shared.of(option.networkName),
      asset: shared.of(option.asset),
      assetSymbol: shared.of(option.assetSymbol),
      payTo: shared.of(option.payTo),
      price: option.price === null ? null : amountOf(option.price),
    })),
    lastVerifiedAt: time(facets.lastVerifiedAt),
    drift: facets.drift,
    payableEndpoints,
    sortRanks,
  };
}

/** Rows read (and parsed, and indexed) per step, with the event loop free between steps. */
const BATCH = 500;

/** The endpoints list's columns, and each catalogue entry's number of payable endpoints. */
async function readEndpoints(
  client: pg.PoolClient,
): Promise<{ table: EndpointTableBuilder; payable: Map<string, number> }> {
  const table = new EndpointTableBuilder();
  /** By entry id (endpoints carry their entry's id). */
  const payable = new Map<string, number>();
  for await (const rows of rowsInBatches<IndexedEndpointRow>(client, endpointIndexQuery(), BATCH)) {
    for (const endpoint of await withVerdicts(client, rows)) {
      table.add(endpointFields(endpoint), endpoint.idPlace);
      if (endpoint.payability.payable)
        payable.set(endpoint.serviceId, (payable.get(endpoint.serviceId) ?? 0) + 1);
    }
    await yieldToEventLoop();
  }
  return { table, payable };
}

/** The services list's entries; their payable endpoints are counted later (0 here). */
async function readEntries(client: pg.PoolClient): Promise<{ entries: ServiceEntry[]; idPlace: Int32Array }> {
  const facets = await allEntryFacets(client);
  await yieldToEventLoop();
  const entries: ServiceEntry[] = [];
  const idPlaces = new IntList();
  const strings = new Interned();
  for await (const rows of rowsInBatches<EntryRow>(client, allEntriesQuery(), BATCH)) {
    for (const { ranks, idPlace, ...record } of rows) {
      entries.push(
        serviceEntry(record, sortRanksOf(ranks), facets.get(record.rowId) ?? NO_FACETS, 0, strings),
      );
      idPlaces.push(idPlace);
    }
    await yieldToEventLoop();
  }
  return { entries, idPlace: idPlaces.done() };
}

export interface LoadOptions {
  /**
   * From how many documents a text index is built on a worker thread (its own connection, same
   * snapshot) rather than on the loading connection: a thread costs ~0.5 s to start, so small
   * catalogues (tests, a first directory) build in place.
   */
  offThreadFrom?: number;
}

const OFF_THREAD_FROM = 20_000;

/** How many documents each text index will hold, counted in the load's snapshot. */
async function documentCounts(client: pg.PoolClient): Promise<Record<DocumentSet, number>> {
  const [entries, endpoints] = await Promise.all(
    [entryDocumentsQuery(), endpointDocumentsQuery()].map(async (query) => {
      const { rows } = await client.query<{ count: string }>({
        text: `SELECT count(*) FROM (${query.text}) documents`,
        values: query.values,
      });
      return Number(rows[0]?.count ?? 0);
    }),
  );
  return { services: entries ?? 0, endpoints: endpoints ?? 0 };
}

/**
 * Reads the whole catalogue in one REPEATABLE READ snapshot, which it records with the data.
 * Endpoints and services are read at once on two connections sharing the snapshot
 * (`pg_export_snapshot`), and a large catalogue's text indexes are built on worker threads
 * (text-build.ts) meanwhile. Rows come through cursors a batch at a time, each batch made into
 * columns before the next is read, with the event loop free in between: memory holds what is
 * being built and a batch, never every row at once, and requests keep being answered (from the
 * previous catalogue) while a new one loads.
 */
export async function loadCatalogue(pool: ReadPool, options: LoadOptions = {}): Promise<LoadedCatalogue> {
  const offThreadFrom = options.offThreadFrom ?? OFF_THREAD_FROM;
  return readInOneSnapshot(pool, async (client) => {
    const snapshot = await currentSnapshot(client);
    const exported =
      (await client.query<{ id: string }>("SELECT pg_export_snapshot() AS id")).rows[0]?.id ?? "";
    const counts = await documentCounts(client);
    const offThread = (set: DocumentSet) =>
      counts[set] >= offThreadFrom
        ? buildTextIndexOffThread({ connectionString: connectionStringOf(pool), exported, set })
        : null;
    const [endpointTextOffThread, serviceTextOffThread] = [offThread("endpoints"), offThread("services")];
    const [endpoints, services] = await Promise.all([
      (async () => {
        const read = await readEndpoints(client);
        return { ...read, text: await (endpointTextOffThread ?? buildTextIndexHere(client, "endpoints")) };
      })(),
      readInOneSnapshot(
        pool,
        async (other) => {
          const read = await readEntries(other);
          return { ...read, text: await (serviceTextOffThread ?? buildTextIndexHere(other, "services")) };
        },
        exported,
      ),
    ]);
    for (const entry of services.entries) entry.payableEndpoints = endpoints.payable.get(entry.id) ?? 0;
    if (services.text.size !== services.entries.length || endpoints.text.size !== endpoints.table.size)
      throw new Error("the search documents read do not match the catalogue's rows");
    return {
      snapshot,
      services: await ServiceTable.build(services.entries, services.text, services.idPlace),
      endpoints: endpoints.table.build(endpoints.text),
    };
  });
}

/** The connection string a worker thread connects with: the pool's own. */
function connectionStringOf(pool: ReadPool): string {
  const { connectionString } = pool.options;
  if (connectionString === undefined) throw new Error("the read pool has no connection string");
  return connectionString;
}
