// Worker-thread entry: builds one large part of a catalogue load (see build-workers.ts) and
// moves its arrays back.
import { parentPort, workerData } from "node:worker_threads";
import { createReadPool } from "../../db/read-pool";
import { readInOneSnapshot } from "../../db/read-snapshot";
import { type BuildTask, runBuildTask } from "./build-workers";
import { lowerThisThreadsPriority } from "./thread-priority";

// A build is background work beside requests: when the cores are all busy (two cores shared with
// Postgres here) the kernel runs the answering thread before this one rather than taking turns
// (harness at 100,000 services with one core kept busy by another process: gaps of 73-160 ms at
// normal priority, at most 63 ms at nice 10; the reload takes longer only while the CPU is short).
lowerThisThreadsPriority();
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
