// Scale benchmark of the API's in-memory catalogue: for a generated catalogue of N
// services × 5 endpoints, what one API process holds and what a reload costs it.
// Each size runs in its own child process (a fresh heap, RSS of that size alone), as `npm start`
// would hold it: the catalogue loaded once, then reloaded beside itself as after a crawl.
// Standalone: `node --import tsx bench/catalogue-memory.ts [services …]` (default 10000 30000).
import { spawnSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { refreshAllSearch } from "../src/catalogue/search-documents";
import { createReadPool } from "../src/db/read-pool";
import { loadCatalogue } from "../src/search/load/catalogue";
import { partsOnWorkers } from "../src/search/scale/build-workers";
import { generateCatalogue } from "./api-catalogue";
import { benchDatabase, benchLogger, collectGarbage, markdownTable } from "./support";

interface Measured {
  services: number;
  endpoints: number;
  loadSeconds: number;
  liveHeapMb: number;
  liveBuffersMb: number;
  restRssMb: number;
  reloadPeakRssMb: number;
  reloadSeconds: number;
  reloadCpuSeconds: number;
  longestStallMs: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

/** In the child: generate, load, measure, reload beside the loaded one, measure; print JSON. */
async function measureInThisProcess(services: number): Promise<Measured> {
  const database = await benchDatabase();
  const pool = createReadPool(database.url, 2, benchLogger);
  try {
    await generateCatalogue(database.url, { services, endpointsPerService: 5, historyPerService: 0 });
    await refreshAllSearch(database.db);
    collectGarbage();
    const before = process.memoryUsage();
    let started = performance.now();
    // As a process of the product loads it: its large parts built on worker threads.
    const loaded = await loadCatalogue(pool, { startParts: partsOnWorkers() });
    const loadSeconds = (performance.now() - started) / 1000;
    collectGarbage();
    const rest = process.memoryUsage();

    let peakRss = rest.rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 20);
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    const cpu = process.cpuUsage();
    started = performance.now();
    const reloaded = await loadCatalogue(pool, { startParts: partsOnWorkers() });
    const reloadSeconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    stalls.disable();
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    return {
      services: loaded.services.size,
      endpoints: reloaded.endpoints.size,
      loadSeconds,
      liveHeapMb: mb(rest.heapUsed - before.heapUsed),
      liveBuffersMb: mb(rest.external - before.external),
      restRssMb: mb(rest.rss),
      reloadPeakRssMb: mb(peakRss),
      reloadSeconds,
      reloadCpuSeconds: (used.user + used.system) / 1e6,
      longestStallMs: stalls.max / 1e6,
    };
  } finally {
    await pool.end();
    await database.close();
  }
}

export async function runCatalogueMemoryBenchmark(sizes = [10_000, 30_000]): Promise<string> {
  const loadBefore = os.loadavg()[0] ?? 0;
  const rows: Measured[] = [];
  for (const services of sizes) {
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", fileURLToPath(import.meta.url), "--child", String(services)],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
        maxBuffer: 1024 * 1024,
      },
    );
    if (child.status !== 0) throw new Error(`${services} services: the child exited with ${child.status}`);
    rows.push(JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as Measured);
  }
  const fixed = (n: number, digits = 0) => n.toFixed(digits);
  return [
    "## In-memory catalogue at scale",
    "",
    `${os.cpus().length} CPUs, Node ${process.version} (default heap limit), embedded Postgres 17; 1-minute load average before the run ${loadBefore.toFixed(1)}.`,
    "One process per size: the catalogue loaded, then loaded again beside the first (what a change of its shape costs today). Live = heap and buffers still held after a full GC.",
    `Command: \`node --import tsx bench/catalogue-memory.ts ${sizes.join(" ")}\``,
    "",
    markdownTable(
      [
        "services",
        "endpoints",
        "load s",
        "live heap MB",
        "live buffers MB",
        "RSS at rest MB",
        "RSS peak in a reload MB",
        "reload s / CPU s",
        "longest event-loop stall in a reload ms",
      ],
      rows.map((r) => [
        r.services,
        r.endpoints,
        fixed(r.loadSeconds, 1),
        fixed(r.liveHeapMb),
        fixed(r.liveBuffersMb),
        fixed(r.restRssMb),
        fixed(r.reloadPeakRssMb),
        `${fixed(r.reloadSeconds, 1)} / ${fixed(r.reloadCpuSeconds, 1)}`,
        fixed(r.longestStallMs),
      ]),
    ),
  ].join("\n");
}

if (process.argv[2] === "--child") {
  console.log(JSON.stringify(await measureInThisProcess(Number(process.argv[3]))));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter(Boolean);
  const markdown = await runCatalogueMemoryBenchmark(sizes.length > 0 ? sizes : undefined);
  console.log(markdown);
  const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, "catalogue-memory.md"), `${markdown}\n`);
}
