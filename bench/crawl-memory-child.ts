import { writeHeapSnapshot } from "node:v8";
import { createPrismaClient } from "../src/db/prisma-client";
// One crawl in a process of its own, for bench/crawl-memory.ts: prints one JSON line with the
// outcome and the process's peak resident memory.
import { crawlDirectory } from "../src/sources/html-directory/crawl-directory";
import { benchCrawlSettings } from "./crawl-settings";
import { benchLogger } from "./support";

const [databaseUrl, listingUrl, concurrency] = process.argv.slice(2);
if (!databaseUrl || !listingUrl)
  throw new Error("usage: crawl-memory-child.ts DATABASE_URL LISTING_URL [concurrency]");
const db = createPrismaClient(databaseUrl);
const started = performance.now();
// Where the resident memory is: the main thread's JavaScript heap, or elsewhere (buffers, worker
// threads, native allocations).
let peakHeapMb = 0;
let peakHeapAtSeconds = 0;
let snapshotAt = Number(process.env.BENCH_HEAP_SNAPSHOT_MB ?? 0);
const sampler = setInterval(() => {
  const heapMb = process.memoryUsage().heapUsed / 1024 / 1024;
  if (heapMb > peakHeapMb) {
    peakHeapMb = heapMb;
    peakHeapAtSeconds = (performance.now() - started) / 1000;
  }
  if (snapshotAt && peakHeapMb > snapshotAt) {
    snapshotAt = 0;
    console.error(`heap snapshot: ${writeHeapSnapshot()}`);
  }
}, 200);
// Diagnostics: BENCH_MEMORY_TRACE_MS=5000 prints the process's memory to stderr at that
// interval; with NODE_OPTIONS=--expose-gc the heap is collected first, so heapUsed is what is live.
const traceMs = Number(process.env.BENCH_MEMORY_TRACE_MS ?? 0);
let snapshotAtSeconds = Number(process.env.BENCH_HEAP_SNAPSHOT_AT_S ?? 0);
const tracer = traceMs
  ? setInterval(() => {
      (globalThis as { gc?: () => void }).gc?.();
      if (snapshotAtSeconds && performance.now() - started > snapshotAtSeconds * 1000) {
        snapshotAtSeconds = 0;
        console.error(`heap snapshot: ${writeHeapSnapshot()}`);
      }
      const m = process.memoryUsage();
      const mb = (n: number) => Math.round(n / 1024 / 1024);
      console.error(
        `memory ${((performance.now() - started) / 1000).toFixed(0)} s: rss ${mb(m.rss)} MB, heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} MB, external ${mb(m.external)} MB, buffers ${mb(m.arrayBuffers)} MB`,
      );
    }, traceMs)
  : undefined;
const outcome = await crawlDirectory(
  {
    db,
    databaseUrl,
    logger: benchLogger,
    // The product's default guard: a 100,000-service listing states its own page count.
    settings: { ...benchCrawlSettings(Number(concurrency ?? 16)), maxListingPages: 2000 },
  },
  { url: listingUrl, trigger: "manual" },
);
clearInterval(sampler);
clearInterval(tracer);
if (traceMs) console.error(`peak main heap ${peakHeapMb.toFixed(0)} MB at ${peakHeapAtSeconds.toFixed(0)} s`);
await db.$disconnect();
const seconds = (performance.now() - started) / 1000;
const peakRssMb = process.resourceUsage().maxRSS / 1024;
const c = "counts" in outcome ? outcome.counts : null;
const note = c
  ? `${c.servicesNew} new, ${c.servicesUnchanged} unchanged, ${c.servicesDelisted} delisted; pages ${c.pagesFetched} fetched, ${c.pagesUnchanged} unchanged, ${c.pagesFailed} failed`
  : "";
console.log(JSON.stringify({ status: outcome.status, seconds, peakRssMb, peakHeapMb, note }));
