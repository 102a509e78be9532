// Freshness benchmark: how soon a running API (`npm start`'s entry, in its own
// process) answers from a changed catalogue, and what a probe sweep costs it.
//  1. A synthetic directory of N services is crawled by `npm run crawl`'s entry; one service is
//     renamed on the directory, the crawl runs again, and we time from the crawl process's exit to
//     the API's search finding the new name (several renames).
//  2. The catalogue is replaced by a generated one of N services × 5 endpoints pointing at x402
//     fixtures on loopback; a probe sweep at full speed runs beside the API (which serves a request
//     a second), and we count the API process's CPU seconds per minute (from /proc) over the
//     sweep's first two minutes, and its catalogue loads.
// Standalone: `node --import tsx bench/freshness.ts [services] [renames]`.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { announceCatalogueChange } from "../src/catalogue/catalogue-changes";
import { refreshAllSearch } from "../src/catalogue/search-documents";
import { startProbing } from "../src/probe/start-probing";
import { generateCatalogue } from "./api-catalogue";
import { benchProbeSettings, queued } from "./probe";
import { processCpuSeconds } from "./process-cpu";
import {
  type BenchDatabase,
  benchDatabase,
  benchLogger,
  freePort,
  markdownTable,
  replicaEnvironment,
  sleep,
  startHelperProcess,
} from "./support";

/** The product's own entry point in its own process, counting its "catalogue index loaded" lines. */
class ApiProcess {
  loads = 0;
  private constructor(
    readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.includes("catalogue index loaded")) this.loads += 1;
    });
  }

  static async start(databaseUrl: string): Promise<ApiProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: replicaEnvironment(databaseUrl, port, {
        // The benchmark polls the search every 20 ms as one anonymous client.
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: "1000000",
      }),
      stdio: ["ignore", "pipe", "inherit"],
    });
    const api = new ApiProcess(child, `http://127.0.0.1:${port}`);
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(200)) {
      if (api.loads > 0 && (await api.total("/v1/services?limit=1").catch(() => null)) !== null) return api;
    }
    throw new Error("the API did not start within 120 s");
  }

  async total(pathAndQuery: string): Promise<number> {
    const response = await fetch(new URL(pathAndQuery, this.baseUrl));
    if (!response.ok) throw new Error(`${pathAndQuery}: HTTP ${response.status}`);
    return ((await response.json()) as { total: number }).total;
  }

  cpuSeconds(): number {
    return processCpuSeconds(this.child.pid ?? -1) ?? Number.NaN;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGTERM");
    await exited;
  }
}

async function crawl(databaseUrl: string, listingUrl: string): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", "jobs/crawl.ts", listingUrl], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      CRAWL_MAX_REQUESTS_PER_MINUTE: "1000000",
      CRAWL_MAX_CONCURRENCY: "8",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`the crawl exited with ${code}`);
}

/** Seconds from each re-crawl's exit to the API's search finding the renamed service. */
async function renameLatencies(
  database: BenchDatabase,
  api: ApiProcess,
  directory: { origin: string; listingUrl: string; services: number },
  renames: number,
): Promise<{ seconds: number[]; crawlSeconds: number[] }> {
  const seconds: number[] = [];
  const crawlSeconds: number[] = [];
  for (let k = 0; k < renames; k++) {
    const word = `freshness${k}x${Date.now()}`;
    const i = Math.floor((directory.services * (k + 1)) / (renames + 1));
    await fetch(`${directory.origin}/_rename?i=${i}&name=Renamed%20${word}`, { method: "POST" });
    const started = performance.now();
    await crawl(database.url, directory.listingUrl);
    const exited = performance.now();
    crawlSeconds.push((exited - started) / 1000);
    while ((await api.total(`/v1/services?q=${word}&limit=1`)) === 0) {
      if (performance.now() - exited > 300_000) throw new Error(`rename ${k} not visible after 300 s`);
      await sleep(20);
    }
    seconds.push((performance.now() - exited) / 1000);
  }
  return { seconds, crawlSeconds };
}

/** How long the API's CPU is watched while the sweep runs (a full sweep at this speed takes longer). */
const SWEEP_WINDOW_MS = 120_000;

/**
 * A client asking for a page every second, as traffic would: an API process checks whether the
 * catalogue changed on requests (at most every API_INDEX_REFRESH_SECONDS), not on a timer.
 */
function trickle(api: ApiProcess): () => Promise<void> {
  let running = true;
  const done = (async () => {
    while (running) {
      await api.total("/v1/services?limit=1");
      await sleep(1_000);
    }
  })();
  return async () => {
    running = false;
    await done;
  };
}

interface SweepCost {
  endpoints: number;
  sweepSeconds: number;
  probes: number;
  apiCpuSecondsPerMinute: number;
  idleCpuSecondsPerMinute: number;
  loads: number;
}

/** The API's CPU while a full-speed probe sweep of every endpoint runs beside it. */
async function sweepCost(database: BenchDatabase, api: ApiProcess, services: number): Promise<SweepCost> {
  const { info, child } = await startHelperProcess<{ origins: string[] }>("bench/probe-fixtures.ts", ["8"]);
  try {
    await database.db.$executeRaw`DELETE FROM sources`;
    await generateCatalogue(database.url, { services, endpointsPerService: 5, historyPerService: 0 });
    await database.db.$executeRaw`
      UPDATE endpoints e SET url = (${info.origins}::text[])[1 + n.i % ${info.origins.length}] || '/e/' || n.i
      FROM (SELECT id, row_number() OVER (ORDER BY id) AS i FROM endpoints) n WHERE n.id = e.id`;
    await refreshAllSearch(database.db);
    const [{ endpoints } = { endpoints: 0 }] = await database.db.$queryRaw<{ endpoints: number }[]>`
      SELECT count(*)::int AS endpoints FROM endpoints e JOIN services s ON s.id = e.service_id
      WHERE s.status = 'listed'`;
    // The API takes in the new catalogue (announced as a crawl announces its writes), then rests:
    // its idle CPU is the baseline.
    const loadsBefore = api.loads;
    await announceCatalogueChange(database.db);
    while (api.loads === loadsBefore) await sleep(200);
    await sleep(5_000);
    const stopTrickle = trickle(api);
    let cpu = api.cpuSeconds();
    await sleep(30_000);
    const idleCpuSecondsPerMinute = ((api.cpuSeconds() - cpu) / 30) * 60;

    const probing = await startProbing({
      db: database.db,
      databaseUrl: database.url,
      settings: benchProbeSettings({ concurrency: 64, perHostPerMinute: 1_000_000 }),
      logger: benchLogger,
      runWorker: true,
    });
    const loads = api.loads;
    cpu = api.cpuSeconds();
    const started = performance.now();
    await probing.requestSweep();
    let probes = 0;
    while (performance.now() - started < SWEEP_WINDOW_MS) {
      const progress = await queued(database);
      probes = progress.probes;
      if (probes >= endpoints && progress.unfinished === 0) break;
      await sleep(500);
    }
    const sweepSeconds = (performance.now() - started) / 1000;
    const used = api.cpuSeconds() - cpu;
    await stopTrickle();
    await probing.stop();
    return {
      endpoints,
      sweepSeconds,
      probes,
      apiCpuSecondsPerMinute: (used / sweepSeconds) * 60,
      idleCpuSecondsPerMinute,
      loads: api.loads - loads,
    };
  } finally {
    child.kill();
  }
}

export async function runFreshnessBenchmark(services = 10_000, renames = 3): Promise<string> {
  const loadBefore = os.loadavg()[0] ?? 0;
  const database = await benchDatabase();
  const { info, child: directoryProcess } = await startHelperProcess<{ port: number; listing: string }>(
    "bench/directory-server.ts",
    [String(services)],
  );
  let api: ApiProcess | undefined;
  try {
    const origin = `http://127.0.0.1:${info.port}`;
    const directory = { origin, listingUrl: `${origin}${info.listing}`, services };
    const started = performance.now();
    await crawl(database.url, directory.listingUrl);
    const fullCrawlSeconds = (performance.now() - started) / 1000;
    api = await ApiProcess.start(database.url);
    const renamed = await renameLatencies(database, api, directory, renames);
    directoryProcess.kill();
    const sweep = await sweepCost(database, api, services);
    const fixed = (n: number, digits = 1) => n.toFixed(digits);
    return [
      "## Freshness benchmark",
      "",
      `${os.cpus().length} CPUs, Node ${process.version}, embedded Postgres 17; 1-minute load average before the run ${fixed(loadBefore)}.`,
      `Command: \`node --import tsx bench/freshness.ts${services === 10_000 ? "" : ` ${services}`}\``,
      "",
      markdownTable(
        ["measure", "value"],
        [
          [`full crawl of ${services} services (s)`, fixed(fullCrawlSeconds)],
          ["re-crawls after one rename (s)", renamed.crawlSeconds.map((s) => fixed(s)).join(", ")],
          [
            "crawl exit → API search finds the new name (s)",
            renamed.seconds.map((s) => fixed(s, 2)).join(", "),
          ],
          [
            `probe sweep of ${sweep.endpoints} endpoints: probed / seconds watched`,
            `${sweep.probes} / ${fixed(sweep.sweepSeconds)}`,
          ],
          ["API CPU s per minute, at rest", fixed(sweep.idleCpuSecondsPerMinute, 2)],
          ["API CPU s per minute, during the sweep", fixed(sweep.apiCpuSecondsPerMinute, 2)],
          ["API catalogue loads during the sweep", sweep.loads],
        ],
      ),
    ].join("\n");
  } finally {
    directoryProcess.kill();
    await api?.stop();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [services, renames] = process.argv.slice(2).map(Number);
  const markdown = await runFreshnessBenchmark(services || undefined, renames || undefined);
  console.log(markdown);
  const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, "freshness.md"), `${markdown}\n`);
}
