import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type pg from "pg";
import { currentSnapshot } from "../catalogue/catalogue-changes";
import {
  type EndpointHit,
  endpointIndexQuery,
  type IndexedEndpointRow,
  withVerdicts,
} from "../catalogue/endpoint-queries";
import { allEntryFacets, type EntryFacets, NO_FACETS } from "../catalogue/entry-facets";
import {
  allEntriesQuery,
  type EntryFields,
  type EntryRow,
  type ServiceRecord,
  sortRanksOf,
} from "../catalogue/service-queries";
import { rowsInBatches } from "../db/cursor";
import type { ReadPool } from "../db/read-pool";
import { amountOf } from "./amounts";
import { type EndpointTable, EndpointTableBuilder, endpointFields } from "./endpoint-table";
import { IntList } from "./int-list";
import { Interned } from "./interned";
import type { ServiceEntry } from "./service-entry";
import { ServiceTable } from "./service-table";
import { TextIndex } from "./text-index";
import { PostingsBuilder } from "./text-postings";

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

/**
 * Runs `work` in one read-only REPEATABLE READ transaction: everything it reads is one consistent
 * snapshot of the catalogue, which pg_current_snapshot() names. With `exported` (what
 * pg_export_snapshot() returned in another open transaction), the transaction reads that same
 * snapshot, so two connections can read one catalogue at once.
 */
export async function readInOneSnapshot<T>(
  pool: ReadPool,
  work: (client: pg.PoolClient) => Promise<T>,
  exported?: string,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    if (exported !== undefined) {
      if (!/^[0-9A-F-]+$/i.test(exported)) throw new Error(`not a snapshot id: ${exported}`);
      await client.query(`SET TRANSACTION SNAPSHOT '${exported}'`);
    }
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

/** Rows read (and parsed, and indexed) per step, with the event loop free between steps. */
const BATCH = 500;

/** The endpoints list read and indexed, and each catalogue entry's number of payable endpoints. */
async function readEndpoints(
  client: pg.PoolClient,
): Promise<{ table: EndpointTable; payable: Map<string, number> }> {
  const table = new EndpointTableBuilder();
  const text = new PostingsBuilder();
  /** By entry id (endpoints carry their entry's id). */
  const payable = new Map<string, number>();
  for await (const rows of rowsInBatches<IndexedEndpointRow>(client, endpointIndexQuery(), BATCH)) {
    for (const endpoint of await withVerdicts(client, rows)) {
      table.add(endpointFields(endpoint), endpoint.idPlace);
      text.add(endpoint.document);
      if (endpoint.payability.payable)
        payable.set(endpoint.serviceId, (payable.get(endpoint.serviceId) ?? 0) + 1);
    }
    await yieldToEventLoop();
  }
  return { table: table.build(await TextIndex.of(text)), payable };
}

/** The services list's entries read and indexed; their payable endpoints are counted later (0 here). */
async function readEntries(
  client: pg.PoolClient,
): Promise<{ entries: ServiceEntry[]; text: TextIndex; idPlace: Int32Array }> {
  const facets = await allEntryFacets(client);
  await yieldToEventLoop();
  const entries: ServiceEntry[] = [];
  const text = new PostingsBuilder();
  const idPlaces = new IntList();
  const strings = new Interned();
  for await (const rows of rowsInBatches<EntryRow>(client, allEntriesQuery(), BATCH)) {
    for (const { document, ranks, idPlace, ...record } of rows) {
      entries.push(
        serviceEntry(record, sortRanksOf(ranks), facets.get(record.rowId) ?? NO_FACETS, 0, strings),
      );
      text.add(document);
      idPlaces.push(idPlace);
    }
    await yieldToEventLoop();
  }
  return { entries, text: await TextIndex.of(text), idPlace: idPlaces.done() };
}

/**
 * Reads the whole catalogue in one REPEATABLE READ snapshot, which it records with the data.
 * Endpoints and services are read at once on two connections sharing the snapshot (Postgres
 * works on one while this process indexes the other). Rows come through cursors a batch at a
 * time, each batch made into columns and documents before the next is read, with the event loop
 * free in between: memory holds the index being built and a batch, never every row at once, and
 * requests keep being answered (from the previous catalogue) while a new one loads.
 */
export async function loadCatalogue(pool: ReadPool): Promise<LoadedCatalogue> {
  return readInOneSnapshot(pool, async (client) => {
    const snapshot = await currentSnapshot(client);
    const exported = await client.query<{ id: string }>("SELECT pg_export_snapshot() AS id");
    const [endpoints, services] = await Promise.all([
      readEndpoints(client),
      readInOneSnapshot(pool, readEntries, exported.rows[0]?.id),
    ]);
    for (const entry of services.entries) entry.payableEndpoints = endpoints.payable.get(entry.id) ?? 0;
    return {
      snapshot,
      services: await ServiceTable.build(services.entries, services.text, services.idPlace),
      endpoints: endpoints.table,
    };
  });
}
