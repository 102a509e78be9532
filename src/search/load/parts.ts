import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type pg from "pg";
import { endpointDocumentsQuery } from "../../catalogue/endpoint-queries";
import { entryDocumentsQuery } from "../../catalogue/service-queries";
import { rowsInBatches } from "../../db/cursor";
import { EndpointTable } from "../tables/endpoint-table";
import { TextIndex } from "../text/text-index";
import { type Documents, PostingsBuilder } from "../text/text-postings";
import { type PayableCounts, readEndpointColumns } from "./endpoint-load";

/**
 * The large parts of a catalogue load, built on a connection reading the load's snapshot: the
 * endpoints list (half a million rows at 100,000 services: its columns and its text index) and
 * a text index of documents. A large catalogue builds them on worker threads
 * (scale/build-workers.ts), which run these same functions.
 */

/** Which documents: the services list's entries or the listed endpoints (each in its table's order). */
export type DocumentSet = "services" | "endpoints";

const DOCUMENTS: Record<DocumentSet, () => ReturnType<typeof entryDocumentsQuery>> = {
  services: entryDocumentsQuery,
  endpoints: endpointDocumentsQuery,
};

/** Documents read per step. */
const BATCH = 1_000;
/**
 * Documents added between two turns of the event loop: a batch of 1,000 services' documents
 * took ~50 ms, which matters when a small catalogue is built on the answering thread.
 */
const DOCUMENTS_PER_TURN = 100;

/** Reads a set's documents through a cursor on `client` (in its transaction) into postings. */
async function readDocuments(
  client: pg.PoolClient,
  set: DocumentSet,
  signal?: AbortSignal,
): Promise<{ lexicon: Map<string, number>; documents: Documents }> {
  const builder = new PostingsBuilder();
  const batches = rowsInBatches<{ document: string | null }>(client, DOCUMENTS[set](), BATCH, {
    readAhead: true,
  });
  for await (const rows of batches) {
    signal?.throwIfAborted();
    for (const [k, row] of rows.entries()) {
      builder.add(row.document);
      if (k % DOCUMENTS_PER_TURN === DOCUMENTS_PER_TURN - 1 || k === rows.length - 1)
        await yieldToEventLoop();
    }
  }
  return builder.finish();
}

/** The text index of a set's documents, built on this thread from `client`'s snapshot. */
export async function buildTextIndexHere(
  client: pg.PoolClient,
  set: DocumentSet,
  signal?: AbortSignal,
): Promise<TextIndex> {
  const { lexicon, documents } = await readDocuments(client, set, signal);
  return new TextIndex(lexicon, documents);
}

/** What a worker building a part is given besides the part: how to read the load's snapshot. */
export interface SnapshotTask {
  connectionString: string;
  /** pg_export_snapshot() of the transaction the rest of the catalogue is read in. */
  exported: string;
}

export interface PartsOptions {
  /** How many documents each part holds, counted in the load's snapshot. */
  counts: Record<DocumentSet, number>;
  /** Build the endpoints first, then the services' text (see LoadOptions.onePartAtATime). */
  onePartAtATime?: boolean;
  signal?: AbortSignal;
}

/** The parts being built: the endpoints list, and the services' text index (null: the caller builds it). */
export interface StartedParts {
  endpoints: Promise<BuiltEndpoints>;
  servicesText: Promise<TextIndex> | null;
}

/**
 * Starts building a load's parts. A catalogue given none builds them here (startPartsHere); a
 * large one is given startParts of scale/build-workers.ts, which builds them on worker threads.
 */
export type StartParts = (client: pg.PoolClient, task: SnapshotTask, options: PartsOptions) => StartedParts;

/** The endpoints list with each entry's number of payable endpoints. */
export interface BuiltEndpoints {
  table: EndpointTable;
  payable: PayableCounts;
}

/** The endpoints list and the entries' payable counts, built on this thread from `client`'s snapshot. */
export async function buildEndpointsHere(
  client: pg.PoolClient,
  signal?: AbortSignal,
): Promise<BuiltEndpoints> {
  const { columns, payable } = await readEndpointColumns(client, signal);
  return { table: EndpointTable.of(columns, await buildTextIndexHere(client, "endpoints", signal)), payable };
}

/** Builds the endpoints list on the load's connection; the caller builds the services' text. */
export const startPartsHere: StartParts = (client, _task, { signal }) => {
  const endpoints = buildEndpointsHere(client, signal);
  endpoints.catch(() => undefined);
  return { endpoints, servicesText: null };
};
