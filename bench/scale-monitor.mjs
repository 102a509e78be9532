// Loaded into the API process by bench/scale.ts (`node --import ./bench/scale-monitor.mjs
// dist/main.js`): every 250 ms it writes to file descriptor 3 the longest event-loop delay since
// the last line, the live JavaScript heap, and how the longest gap between two 10 ms ticks split
// into the thread running and the thread waiting for a core (Linux's /proc/thread-self/schedstat:
// time on a CPU, time runnable on a run queue), so the benchmark sees stalls inside the product
// process, and whether the process or a busy machine made them, without a hook in the product.
// Plain JavaScript: the product runs from its build, without tsx.
// Worker threads inherit `--import`, so this module also runs in every build worker: only the
// answering (main) thread is measured; a worker's long turn is not a request's wait.
import { readFileSync, writeSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import v8 from "node:v8";
import { isMainThread } from "node:worker_threads";

const TICK_MS = 10;

if (isMainThread) startMonitor();

/** This thread's time on a CPU and waiting for one, in ms; null where the kernel does not say. */
function schedulerTimes() {
  try {
    const [run, wait] = readFileSync("/proc/thread-self/schedstat", "latin1").split(" ").map(Number);
    return { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return null;
  }
}

function startMonitor() {
  const delays = monitorEventLoopDelay({ resolution: 10 });
  delays.enable();
  const noGap = { ms: 0, runMs: null, waitMs: null };
  let longestGap = noGap;
  let tickAt = performance.now();
  let times = schedulerTimes();
  setInterval(() => {
    const now = performance.now();
    const next = schedulerTimes();
    const ms = now - tickAt - TICK_MS;
    if (ms > longestGap.ms) {
      const split = times !== null && next !== null;
      longestGap = {
        ms,
        runMs: split ? next.runMs - times.runMs : null,
        waitMs: split ? next.waitMs - times.waitMs : null,
      };
    }
    tickAt = now;
    times = next;
  }, TICK_MS).unref();
  setInterval(() => {
    const line = {
      stallMs: delays.max / 1e6,
      gap: longestGap,
      heapMb: v8.getHeapStatistics().used_heap_size / 1024 / 1024,
    };
    delays.reset();
    longestGap = noGap;
    try {
      writeSync(3, `${JSON.stringify(line)}\n`);
    } catch {
      // no benchmark listening on fd 3
    }
  }, 250).unref();
}
