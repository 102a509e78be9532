import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import type pg from "pg";
import { endpointDocumentsQuery } from "../catalogue/endpoint-queries";
import { entryDocumentsQuery } from "../catalogue/service-queries";
import { rowsInBatches } from "../db/cursor";
import { PackedLexicon } from "./lexicon";
import { TextIndex } from "./text-index";
import { type Documents, type FlatDocuments, PostingsBuilder, withTermEnds } from "./text-postings";

/**
 * Building a text index from the search documents Postgres keeps: on the caller's connection, or
 * on a worker thread with a connection of its own reading the same snapshot. A large catalogue's
 * documents (millions of lexemes at 100,000 services) are scanned, and their garbage collected,
 * off the thread that answers requests, and on another core.
 */

/** Which documents: the services list's entries or the listed endpoints (each in its table's order). */
export type DocumentSet = "services" | "endpoints";

const DOCUMENTS: Record<DocumentSet, () => ReturnType<typeof entryDocumentsQuery>> = {
  services: entryDocumentsQuery,
  endpoints: endpointDocumentsQuery,
};

/** Documents read per step. */
const BATCH = 1_000;

/** Reads a set's documents through a cursor on `client` (in its transaction) into postings. */
export async function readDocuments(
  client: pg.PoolClient,
  set: DocumentSet,
): Promise<{ lexicon: Map<string, number>; documents: Documents }> {
  const builder = new PostingsBuilder();
  for await (const rows of rowsInBatches<{ document: string | null }>(client, DOCUMENTS[set](), BATCH)) {
    for (const row of rows) builder.add(row.document);
    await yieldToEventLoop();
  }
  return builder.finish();
}

/** The text index of a set's documents, built on this thread from `client`'s snapshot. */
export async function buildTextIndexHere(client: pg.PoolClient, set: DocumentSet): Promise<TextIndex> {
  const { lexicon, documents } = await readDocuments(client, set);
  return new TextIndex(lexicon, documents);
}

/** What the worker sends back: the flat arrays (transferred, not copied) and the packed lexicon. */
export interface BuiltText {
  lexemes: ReturnType<typeof PackedLexicon.pack>;
  documents: FlatDocuments;
}

/** What the worker is given. */
export interface TextBuildTask {
  connectionString: string;
  /** pg_export_snapshot() of the transaction the rest of the catalogue is read in. */
  exported: string;
  set: DocumentSet;
}

/** Run from source (tsx, tests), the worker starts from a plain module that loads its TypeScript. */
const WORKER_URL = import.meta.url.endsWith(".ts")
  ? new URL("./text-build-worker-entry.mjs", import.meta.url)
  : new URL("./text-build-worker.js", import.meta.url);

/** The text index of a set's documents, built on a worker thread in the exported snapshot. */
export function buildTextIndexOffThread(task: TextBuildTask): Promise<TextIndex> {
  return new Promise((resolve, reject) => {
    // A small old generation: the worker's heap holds its lexicon and a batch of rows (the arrays
    // are outside it), so it collects early rather than growing the process while it reads.
    const worker = new Worker(WORKER_URL, {
      workerData: task,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    worker.once("message", (message: BuiltText | { error: string }) => {
      if ("error" in message)
        return reject(new Error(`building the ${task.set} text index failed: ${message.error}`));
      const { lexemes, documents } = message;
      resolve(new TextIndex(PackedLexicon.of(lexemes), withTermEnds(documents)));
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the ${task.set} text index worker exited with code ${code}`));
    });
  });
}
