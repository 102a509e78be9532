// Worker-thread entry: builds one large part of a catalogue load (see catalogue-build.ts) and
// moves its arrays back.
import { parentPort, workerData } from "node:worker_threads";
import { createReadPool } from "../db/read-pool";
import { readInOneSnapshot } from "../db/read-snapshot";
import { type BuildTask, runBuildTask } from "./catalogue-build";

const task = workerData as BuildTask;
const pool = createReadPool(task.connectionString, 1);
try {
  const [result, buffers] = await readInOneSnapshot(
    pool,
    (client) => runBuildTask(client, task),
    task.exported,
  );
  parentPort?.postMessage(result, buffers);
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
} finally {
  await pool.end();
}
