import { Worker } from "node:worker_threads";
import type pg from "pg";
import type { PayableCounts } from "../load/endpoint-load";
import { readEndpointColumns } from "../load/endpoint-load";
import {
  type BuiltEndpoints,
  buildEndpointsHere,
  buildTextIndexHere,
  type DocumentSet,
  type SnapshotTask,
  type StartParts,
} from "../load/parts";
import { columnBuffers, type EndpointColumnData } from "../tables/endpoint-columns";
import { EndpointTable } from "../tables/endpoint-table";
import { type TextData, TextIndex } from "../text/text-index";
import { textData } from "./text-data";
import { BUILD_OFF_THREAD_FROM } from "./thresholds";

/**
 * A large catalogue's load parts (load/parts.ts) built on worker threads, each with a connection
 * of its own reading the load's snapshot: its rows and documents are then read, and their
 * garbage collected, off the thread that answers requests, and on another core; the results are
 * typed arrays and strings, moved back rather than copied. Below BUILD_OFF_THREAD_FROM documents
 * the parts are built on the loading connection.
 */

/** What a worker sends back. */
export type BuildResult =
  | { text: TextData }
  | { endpoints: { columns: EndpointColumnData; payable: PayableCounts; text: TextData } }
  | { error: string };

/** What a worker is given. */
export interface BuildTask extends SnapshotTask {
  /** The services' text index, or the whole endpoints list. */
  build: "services text" | "endpoints";
}

/** In the worker: the task's result, and the buffers to move with it. */
export async function runBuildTask(
  client: pg.PoolClient,
  task: BuildTask,
): Promise<[BuildResult, ArrayBuffer[]]> {
  const textOf = async (set: DocumentSet): Promise<[TextData, ArrayBuffer[]]> => {
    const text = await textData(await buildTextIndexHere(client, set));
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
  ? new URL("./build-worker-entry.mjs", import.meta.url)
  : new URL("./build-worker.js", import.meta.url);

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
async function buildServicesTextOffThread(task: SnapshotTask, signal?: AbortSignal): Promise<TextIndex> {
  const result = await runOffThread({ ...task, build: "services text" }, signal);
  if (!("text" in result)) throw new Error("the worker built something else");
  return TextIndex.fromData(result.text);
}

/** The endpoints list and the entries' payable counts, built on a worker thread in the exported snapshot. */
async function buildEndpointsOffThread(task: SnapshotTask, signal?: AbortSignal): Promise<BuiltEndpoints> {
  const result = await runOffThread({ ...task, build: "endpoints" }, signal);
  if (!("endpoints" in result)) throw new Error("the worker built something else");
  const { columns, payable, text } = result.endpoints;
  return { table: EndpointTable.of(columns, TextIndex.fromData(text)), payable };
}

/**
 * Builds the load's parts: the endpoints list (on the load's connection or a worker), and the
 * services' text index when it is large enough for a worker (null: the caller builds it on its
 * connection to the same snapshot); a part is built on a worker from `offThreadFrom` documents.
 * Rejections are also handled here, so a part the caller has not awaited yet never goes unhandled.
 */
export function partsOnWorkers(offThreadFrom = BUILD_OFF_THREAD_FROM): StartParts {
  return (client, task, { counts, onePartAtATime, signal }) => {
    const endpoints =
      counts.endpoints >= offThreadFrom
        ? buildEndpointsOffThread(task, signal)
        : buildEndpointsHere(client, signal);
    endpoints.catch(() => undefined);
    const servicesTextOffThread = () => buildServicesTextOffThread(task, signal);
    const servicesText =
      counts.services < offThreadFrom
        ? null
        : onePartAtATime === true
          ? endpoints.then(servicesTextOffThread)
          : servicesTextOffThread();
    servicesText?.catch(() => undefined);
    return { endpoints, servicesText };
  };
}
