// Worker-thread entry: builds one text index (see buildTextIndexOffThread) and sends its arrays back.
import { parentPort, workerData } from "node:worker_threads";
import { createReadPool } from "../db/read-pool";
import { readInOneSnapshot } from "../db/read-snapshot";
import { PackedLexicon } from "./lexicon";
import { type BuiltText, readDocuments, type TextBuildTask } from "./text-build";

const task = workerData as TextBuildTask;
const pool = createReadPool(task.connectionString, 1);
try {
  const { lexicon, documents } = await readInOneSnapshot(
    pool,
    (client) => readDocuments(client, task.set),
    task.exported,
  );
  const { termEnds: _view, ...flat } = documents;
  const built: BuiltText = { lexemes: PackedLexicon.pack(lexicon.keys()), documents: flat };
  // Each array has a buffer of its own (made by the builder), never shared: moved, not copied.
  const arrays = [
    flat.lexemeStarts,
    flat.docs,
    flat.termStarts,
    flat.positions,
    built.lexemes.starts,
    built.lexemes.ids,
  ];
  const buffers = arrays.map((array) => array.buffer as ArrayBuffer);
  parentPort?.postMessage(built, buffers);
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
} finally {
  await pool.end();
}
