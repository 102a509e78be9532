// Worker-thread entry: reads pages handed over by ExtractionPool, off the crawler's event loop.
import { parentPort } from "node:worker_threads";
import { type ExtractionTask, runExtraction } from "./run-extraction";

parentPort?.on("message", ({ id, task }: { id: number; task: ExtractionTask }) => {
  try {
    parentPort?.postMessage({ id, result: runExtraction(task) });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
