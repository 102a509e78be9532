import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import type pg from "pg";
import { endpointDocumentsQuery } from "../catalogue/endpoint-queries";
import { entryDocumentsQuery } from "../catalogue/service-queries";
import { rowsInBatches } from "../db/cursor";
import { type PayableCounts, readEndpointColumns } from "./endpoint-load";
import { columnBuffers, type EndpointColumnData, EndpointTable } from "./endpoint-table";
import { type TextData, TextIndex } from "./text-index";
import { type Documents, PostingsBuilder } from "./text-postings";

/**
 * The large parts of a catalogue load, built on the caller's connection or on a worker thread
 * with a connection of its own reading the same snapshot: the endpoints list (half a million rows
 * at 100,000 services: its columns and its text index) and the services' text index. A large
 * catalogue's rows and documents are then read, and their garbage collected, off the thread
 * that answers requests, and on another core; the results are typed arrays and strings, moved
 * back rather than copied.
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

/** The endpoints list and the entries' payable counts, built on this thread from `client`'s snapshot. */
export async function buildEndpointsHere(
  client: pg.PoolClient,
  signal?: AbortSignal,
): Promise<{ table: EndpointTable; payable: PayableCounts }> {
  const { columns, payable } = await readEndpointColumns(client, signal);
  return { table: EndpointTable.of(columns, await buildTextIndexHere(client, "endpoints", signal)), payable };
}

/** What a worker sends back. */
export type BuildResult =
  | { text: TextData }
  | { endpoints: { columns: EndpointColumnData; payable: PayableCounts; text: TextData } }
  | { error: string };

/** What a worker is given. */
export interface BuildTask {
  connectionString: string;
  /** pg_export_snapshot() of the transaction the rest of the catalogue is read in. */
  exported: string;
  /** The services' text index, or the whole endpoints list. */
  build: "services text" | "endpoints";
}

/** In the worker: the task's result, and the buffers to move with it. */
export async function runBuildTask(
  client: pg.PoolClient,
  task: BuildTask,
): Promise<[BuildResult, ArrayBuffer[]]> {
  const textOf = async (set: DocumentSet): Promise<[TextData, ArrayBuffer[]]> => {
    const text = await (await buildTextIndexHere(client, set)).data();
    const { documents, lexemes } = text;
    const arrays = [
      documents.lexemeStarts,
      documents.docs,
      documents.termStarts,
      documents.positions,
      lexemes.starts,
      lexemes.ids,
    ];
    return [text, arrays.map((array) => array.buffer as ArrayBuffer)];
  };
  if (task.build === "services text") {
    const [text, buffers] = await textOf("services");
    return [{ text }, buffers];
  }
  const { columns, payable } = await readEndpointColumns(client);
  const [text, buffers] = await textOf("endpoints");
  return [
    { endpoints: { columns, payable, text } },
    [
      ...buffers,
      ...columnBuffers(columns),
      payable.ids.buffer as ArrayBuffer,
      payable.counts.buffer as ArrayBuffer,
    ],
  ];
}

/** Run from source (tsx, tests), the worker starts from a plain module that loads its TypeScript. */
const WORKER_URL = import.meta.url.endsWith(".ts")
  ? new URL("./catalogue-build-worker-entry.mjs", import.meta.url)
  : new URL("./catalogue-build-worker.js", import.meta.url);

function runOffThread(
  task: BuildTask,
  signal?: AbortSignal,
): Promise<Exclude<BuildResult, { error: string }>> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    // A small old generation: the worker's heap holds its lexicon and a batch of rows (the arrays
    // are outside it), so it collects early rather than growing the process while it reads.
    const worker = new Worker(WORKER_URL, {
      workerData: task,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    worker.once("message", (message: BuildResult) => {
      if ("error" in message) reject(new Error(`building the ${task.build} failed: ${message.error}`));
      else resolve(message);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the ${task.build} worker exited with code ${code}`));
    });
    // Shutting down: the worker ends now (its connection with it) rather than finishing the build.
    signal?.addEventListener("abort", () => void worker.terminate(), { once: true });
  });
}

/** The services' text index, built on a worker thread in the exported snapshot. */
export async function buildServicesTextOffThread(
  task: Omit<BuildTask, "build">,
  signal?: AbortSignal,
): Promise<TextIndex> {
  const result = await runOffThread({ ...task, build: "services text" }, signal);
  if (!("text" in result)) throw new Error("the worker built something else");
  return TextIndex.fromData(result.text);
}

/** The endpoints list and the entries' payable counts, built on a worker thread in the exported snapshot. */
export async function buildEndpointsOffThread(
  task: Omit<BuildTask, "build">,
  signal?: AbortSignal,
): Promise<{ table: EndpointTable; payable: PayableCounts }> {
  const result = await runOffThread({ ...task, build: "endpoints" }, signal);
  if (!("endpoints" in result)) throw new Error("the worker built something else");
  const { columns, payable, text } = result.endpoints;
  return { table: EndpointTable.of(columns, TextIndex.fromData(text)), payable };
}
