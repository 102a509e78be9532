// Loaded into the API process by bench/scale.ts (`node --import ./bench/scale-monitor.mjs
// dist/main.js`): every 250 ms it writes to file descriptor 3 the longest event-loop delay since
// the last line and the live JavaScript heap, so the benchmark sees stalls inside the product
// process without a hook in the product. Plain JavaScript: the product runs from its build, without tsx.
// Worker threads inherit `--import`, so this module also runs in every build worker: only the
// answering (main) thread is measured; a worker's long turn is not a request's wait.
import { writeSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import v8 from "node:v8";
import { isMainThread } from "node:worker_threads";

if (isMainThread) startMonitor();

function startMonitor() {
  const delays = monitorEventLoopDelay({ resolution: 10 });
  delays.enable();
  setInterval(() => {
    const line = {
      stallMs: delays.max / 1e6,
      heapMb: v8.getHeapStatistics().used_heap_size / 1024 / 1024,
    };
    delays.reset();
    try {
      writeSync(3, `${JSON.stringify(line)}\n`);
    } catch {
      // no benchmark listening on fd 3
    }
  }, 250).unref();
}
