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
  const built: BuiltText = {
    lexemes: PackedLexicon.pack(lexicon.keys()),
    documentCount: documents.documentCount,
    lexemeStarts: documents.lexemeStarts,
    docs: documents.docs,
    termStarts: documents.termStarts,
    positions: documents.positions,
  };
  // Each array has a buffer of its own (made by the builder), never shared: moved, not copied.
  const arrays = [built.lexemeStarts, built.docs, built.termStarts, built.positions];
  const buffers = [...arrays, built.lexemes.starts, built.lexemes.ids].map(
    (array) => array.buffer as ArrayBuffer,
  );
  parentPort?.postMessage(built, buffers);
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
} finally {
  await pool.end();
}
