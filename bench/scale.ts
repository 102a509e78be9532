// Scale benchmark of one API replica: for generated catalogues of N services × 5
// endpoints, the product's own process as an operator runs a pure API replica (the build's
// dist/main.js, as the Dockerfile runs it; an external DATABASE_URL, no crawl schedule, no probes,
// no webhook delivery) on the heap Node gives a 2 GB machine. Per size: time from start to the
// first answer, RSS at rest, computed search p99 at rest, then three changes written beside it as
// the product's writers write them (a crawl-like shape change, an unchanged crawl marking every
// service seen, a probe sweep) while a client sends a request every 10 ms: RSS peak, how long each
// change took to show through the API, the replica's CPU, the longest event-loop stall inside it
// and the longest wait the client saw; then a restart, which starts from the catalogue image the
// first replica stored. A crash (heap out of memory) is reported as such.
// One embedded Postgres serves every size. Standalone:
// `node --import tsx bench/scale.ts [services …]` (default 10000 30000 100000).

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { announceCatalogueChange } from "../src/catalogue/catalogue-changes";
import { markListed } from "../src/catalogue/end-of-run-writes";
import { recordProbe } from "../src/catalogue/probe-writes";
import { refreshAllSearch, refreshServiceSearch } from "../src/catalogue/search-documents";
import { inTransaction } from "../src/db/transaction";
import { readChallengeTraits } from "../src/payments/challenge-traits";
import { probeChangeAnnouncer } from "../src/probe/start-probing";
import { meanMatches, scenarios } from "./api";
import { generateCatalogue } from "./api-catalogue";
import { load } from "./api-load";
import { processCpuSeconds } from "./process-cpu";
import {
  type BenchDatabase,
  benchDatabase,
  benchLogger,
  freePort,
  markdownTable,
  replicaEnvironment,
  sleep,
} from "./support";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * The old-space limit Node 20 picks on a 2 GB machine: V8 sizes the old generation at a quarter of
 * physical memory times 2 (its pointer multiplier on 64-bit builds without pointer compression, as
 * Node's are), capped at 4 GB. This 24 GB machine gets the cap (heap_size_limit 4,144 MB: 4,096 old
 * + 48 young); 2 GB gives 1,024 MB (heap_size_limit 1,072 MB, the same as this flag gives).
 */
const HEAP_LIMIT_MB = 1024;
/** Probe results recorded in the sweep, whatever the size: the same write volume at every size. */
const SWEEP_PROBES = 5_000;
/** Share of services a crawl-like shape change renames, in crawl batches of 100 (service-batcher.ts). */
const RENAMED_SHARE = 0.01;
const CRAWL_BATCH = 100;
/** The search shapes whose p99 is measured at rest, by their names in bench/api.ts. */
const P99_SHAPES = ["text search", "text + filters", "typo'd text search", "filters, sorted by volume"];
const SHAPE_LABELS = ["text", "text+filters", "typo", "sort"];
/** How long each phase may take: a fixed part plus a part per service. */
const phaseLimitMs = (services: number) => 120_000 + services * 4;

const mb = (kb: number) => kb / 1024;

/**
 * With BENCH_REPLICA_CPU_PROF_DIR set, each replica (and its build workers) writes a V8 CPU profile
 * per thread there when it stops (`--cpu-prof`, which NODE_OPTIONS does not accept), 0.5 ms a sample.
 */
function profilingArguments(): string[] {
  const dir = process.env.BENCH_REPLICA_CPU_PROF_DIR;
  return dir === undefined || dir === ""
    ? []
    : ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--cpu-prof-interval=500"];
}

class PhaseFailure extends Error {}

/**
 * The longest gap between the monitor's 10 ms ticks, ms beyond the tick, and how the answering
 * thread spent it: running, or runnable and waiting for a core (null where Linux does not say).
 */
interface TickGap {
  ms: number;
  runMs: number | null;
  waitMs: number | null;
}

const NO_GAP: TickGap = { ms: 0, runMs: null, waitMs: null };

/** The replica process: its log lines, its stalls (from bench/scale-monitor.mjs on fd 3), its /proc. */
class Replica {
  readonly loads: Array<{ at: number; ms: number; services: number; endpoints: number; from: string }> = [];
  /** The product's "catalogue image written" lines: how long each write took. */
  readonly imageWrites: number[] = [];
  readonly exit: Promise<void>;
  exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  heapMb = 0;
  private peakHeapMb = 0;
  private longestStallMs = 0;
  private longestGap = NO_GAP;
  private stderrTail = "";
  private readonly startedAt = performance.now();
  /** The last /proc reading, kept so a crash can still say how far memory had grown. */
  private lastMemory = { rssMb: Number.NaN, peakMb: Number.NaN };
  private readonly sampler: NodeJS.Timeout;

  private constructor(
    readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.includes("catalogue image written"))
        this.imageWrites.push((JSON.parse(line) as { ms: number }).ms);
      if (!line.includes("catalogue index loaded")) return;
      const entry = JSON.parse(line) as { ms: number; services: number; endpoints: number; from: string };
      this.loads.push({
        at: performance.now(),
        ms: entry.ms,
        services: entry.services,
        endpoints: entry.endpoints,
        from: entry.from,
      });
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-16_384);
    });
    createInterface({ input: child.stdio[3] as NodeJS.ReadableStream }).on("line", (line) => {
      const sample = JSON.parse(line) as { stallMs: number; gap: TickGap; heapMb: number };
      this.longestStallMs = Math.max(this.longestStallMs, sample.stallMs);
      if (sample.gap.ms > this.longestGap.ms) this.longestGap = sample.gap;
      this.heapMb = sample.heapMb;
      this.peakHeapMb = Math.max(this.peakHeapMb, sample.heapMb);
    });
    this.sampler = setInterval(() => {
      try {
        this.memory();
      } catch {
        // the process is gone
      }
    }, 100);
    this.exit = new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        this.exited = { code, signal };
        clearInterval(this.sampler);
        resolve();
      }),
    );
  }

  static async start(databaseUrl: string): Promise<Replica> {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${HEAP_LIMIT_MB}`,
        ...profilingArguments(),
        "--import",
        "./bench/scale-monitor.mjs",
        "dist/main.js",
      ],
      {
        cwd: root,
        env: replicaEnvironment(databaseUrl, port, {
          WEBHOOK_DELIVERY_ENABLED: "false",
          // Every answer computed: the p99 is the search's, not the response cache's.
          API_CACHE_TTL_SECONDS: "0",
          // The benchmark is one anonymous client sending hundreds of requests a second.
          RATE_LIMIT_ANONYMOUS_PER_MINUTE: "100000000",
          // The Dockerfile's malloc settings (see there).
          MALLOC_ARENA_MAX: "2",
          MALLOC_MMAP_THRESHOLD_: "131072",
        }),
        stdio: ["ignore", "pipe", "pipe", "pipe"],
      },
    );
    return new Replica(child, `http://127.0.0.1:${port}`);
  }

  /** Why the process ended, as a table cell. */
  crashReason(): string {
    const { code, signal } = this.exited ?? { code: null, signal: null };
    const what = /heap out of memory/i.test(this.stderrTail)
      ? "heap out of memory"
      : `exit ${signal ?? code}`;
    const after = (performance.now() - this.startedAt) / 1000;
    return (
      `crashed: ${what} ${after.toFixed(0)} s after start (RSS peak ${this.lastMemory.peakMb.toFixed(0)} MB ` +
      `since start or the last reset, JS heap up to ${this.peakHeapMb.toFixed(0)} MB)`
    );
  }

  /** VmRSS and VmHWM (peak since start or since resetPeak) in MB, from /proc. */
  memory(): { rssMb: number; peakMb: number } {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    const field = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
    const memory = { rssMb: mb(field("VmRSS")), peakMb: mb(field("VmHWM")) };
    // A process that exited but is not reaped yet has a status without them.
    if (Number.isFinite(memory.peakMb)) this.lastMemory = memory;
    return memory;
  }

  /** Starts a new VmHWM window (clear_refs 5: "reset the peak resident set size"). */
  resetPeak(): void {
    writeFileSync(`/proc/${this.child.pid}/clear_refs`, "5");
  }

  cpuSeconds(): number {
    return processCpuSeconds(this.child.pid ?? -1) ?? Number.NaN;
  }

  /** The longest event-loop stall since the last call, and the longest tick gap's split. */
  takeLongestStall(): { ms: number; gap: TickGap } {
    const longest = { ms: this.longestStallMs, gap: this.longestGap };
    this.longestStallMs = 0;
    this.longestGap = NO_GAP;
    return longest;
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    this.child.kill("SIGTERM");
    const stopped = await Promise.race([this.exit.then(() => true), sleep(30_000).then(() => false)]);
    if (!stopped) {
      this.child.kill("SIGKILL");
      await this.exit;
    }
  }

  /** `work`, unless the process ends or `limitMs` passes first (then a PhaseFailure saying which). */
  async within<T>(limitMs: number, work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new PhaseFailure(`timed out after ${Math.round(limitMs / 1000)} s`)),
        limitMs,
      );
    });
    const crashed = this.exit.then(() => {
      throw new PhaseFailure(this.crashReason());
    });
    try {
      return await Promise.race([work, timedOut, crashed]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Polls `check` every `everyMs` until it holds; fails as `within` does. */
  async until(limitMs: number, check: () => Promise<boolean>, everyMs = 20): Promise<void> {
    const deadline = performance.now() + limitMs;
    await this.within(
      limitMs,
      (async () => {
        while (performance.now() < deadline && this.exited === null) {
          if (await check().catch(() => false)) return;
          await sleep(everyMs);
        }
      })(),
    );
    if (this.exited === null && performance.now() >= deadline) {
      throw new PhaseFailure(`timed out after ${Math.round(limitMs / 1000)} s`);
    }
  }

  async getJson<T>(pathAndQuery: string, timeoutMs = 10_000): Promise<T> {
    const response = await fetch(new URL(pathAndQuery, this.baseUrl), {
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status !== 200) throw new Error(`${pathAndQuery}: HTTP ${response.status}`);
    return (await response.json()) as T;
  }
}

/**
 * The client beside the changes, in a worker thread so the benchmark's own writes never delay it:
 * one keep-alive connection, a small list request every 10 ms (or as soon as the previous answer
 * came, when it took longer). "take" answers and resets the longest wait, the count and failures.
 */
const CLIENT = `
const { parentPort, workerData } = require("node:worker_threads");
let longestMs = 0, requests = 0, failures = {}, running = true;
parentPort.on("message", (message) => {
  if (message === "stop") running = false;
  if (message !== "take") return;
  parentPort.postMessage({ longestMs, requests, failures });
  longestMs = 0; requests = 0; failures = {};
});
(async () => {
  while (running) {
    const sent = performance.now();
    try {
      const response = await fetch(workerData.url, { signal: AbortSignal.timeout(60000) });
      await response.arrayBuffer();
      if (response.status !== 200) failures["HTTP " + response.status] = (failures["HTTP " + response.status] || 0) + 1;
    } catch (error) {
      const code = (error && error.cause && error.cause.code) || (error && error.name) || "error";
      failures[code] = (failures[code] || 0) + 1;
    }
    requests += 1;
    const waited = performance.now() - sent;
    longestMs = Math.max(longestMs, waited);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10 - waited)));
  }
  parentPort.close();
})();
`;

interface ClientWindow {
  longestMs: number;
  requests: number;
  failures: Record<string, number>;
}

class Client {
  private readonly worker: Worker;
  constructor(url: string) {
    this.worker = new Worker(CLIENT, { eval: true, workerData: { url } });
  }

  take(): Promise<ClientWindow> {
    return new Promise((resolve) => {
      this.worker.once("message", resolve);
      this.worker.postMessage("take");
    });
  }

  async stop(): Promise<void> {
    this.worker.postMessage("stop");
    await new Promise((resolve) => this.worker.once("exit", resolve));
  }
}

interface ChangeResult {
  change: string;
  writesSeconds: number;
  /** From the announcement (NOTIFY after the writes) to the API showing the change. */
  visibleSeconds: number;
  loads: number;
  /** The product's own "catalogue index loaded" ms of the last whole load in the change. */
  loadMs: number | null;
  cpuSeconds: number;
  /** From the writes' start until 3 s after the change showed. */
  windowSeconds: number;
  longestStallMs: number;
  longestGap: TickGap;
  longestWaitMs: number;
  requests: number;
  failures: Record<string, number>;
}

interface SizeResult {
  services: number;
  endpoints: number | null;
  generateSeconds: number;
  searchDocumentsSeconds: number;
  firstAnswerSeconds: number | null;
  startLoadMs: number | null;
  restRssMb: number | null;
  startPeakRssMb: number | null;
  restHeapMb: number | null;
  p99: Array<{ shape: string; matches: number; p50Ms: number; p99Ms: number }>;
  clientAloneCpuPerSecond: number | null;
  changes: ChangeResult[];
  changesPeakRssMb: number | null;
  /** Image writes (ms each, from the log): after the first load and after the shape change's reload. */
  imageWriteMs: number[];
  /** A second replica started after the first stopped: it reads the newest image. */
  restart: {
    firstAnswerSeconds: number;
    from: string;
    loadMs: number;
    /** From start until the sweep's probe results (recorded after the image) show. */
    caughtUpSeconds: number;
    restRssMb: number;
    startPeakRssMb: number;
    restHeapMb: number;
    /** The same kind of shape change again, on the restarted replica. */
    reload: ChangeResult;
    reloadPeakRssMb: number;
  } | null;
  /** The phase that failed and why (a crash, a timeout); later measures are missing. */
  failure: { phase: string; reason: string } | null;
  loadBefore: number;
  loadAfter: number;
  benchSeconds: number;
}

/** The build the Dockerfile runs (`npm run build`), rebuilt so it is this worktree's code. */
function build(): void {
  const result = spawnSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build exited with ${result.status}`);
}

/** A fresh generated catalogue of `services` services in the shared database, with no image: the first start is cold. */
async function replaceCatalogue(database: BenchDatabase, services: number) {
  await database.db.$executeRawUnsafe(
    "TRUNCATE sources, catalogue_changes, seen_changes, probe_changes, events, catalogue_images CASCADE",
  );
  let started = performance.now();
  await generateCatalogue(database.url, { services, endpointsPerService: 5, historyPerService: 0 });
  const generateSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  // Statistics of this catalogue, not the previous size's (TRUNCATE keeps them). In one run without
  // this, the search documents of 30,000 services after the 10,000 size ran over 5 minutes (then
  // cancelled) against 13–21 s otherwise; the cause was not pinned down (the plans read the same).
  await database.db.$executeRawUnsafe("ANALYZE");
  await refreshAllSearch(database.db);
  const searchDocumentsSeconds = (performance.now() - started) / 1000;
  await database.db.$executeRawUnsafe("VACUUM ANALYZE");
  return { generateSeconds, searchDocumentsSeconds };
}

/** Measures one change: its writes, then waits until `visible` holds and 3 s more (late collections). */
async function measureChange(
  replica: Replica,
  client: Client,
  limitMs: number,
  change: string,
  writes: () => Promise<void>,
  visible: () => Promise<boolean>,
  /** What else must have happened before the window closes (the image written after a reload). */
  settled: () => boolean = () => true,
): Promise<ChangeResult> {
  await client.take();
  replica.takeLongestStall();
  const loadsBefore = replica.loads.length;
  const cpu = replica.cpuSeconds();
  const started = performance.now();
  await replica.within(limitMs, writes());
  const announced = performance.now();
  await replica.until(limitMs, visible);
  const visibleSeconds = (performance.now() - announced) / 1000;
  await replica.until(limitMs, async () => settled());
  await replica.within(10_000, sleep(3_000));
  const loads = replica.loads.slice(loadsBefore);
  const window = await client.take();
  const stall = replica.takeLongestStall();
  return {
    change,
    writesSeconds: (announced - started) / 1000,
    visibleSeconds,
    loads: loads.length,
    loadMs: loads.at(-1)?.ms ?? null,
    cpuSeconds: replica.cpuSeconds() - cpu,
    windowSeconds: (performance.now() - started) / 1000,
    longestStallMs: stall.ms,
    longestGap: stall.gap,
    longestWaitMs: window.longestMs,
    requests: window.requests,
    failures: window.failures,
  };
}

interface ServiceItem {
  id: string;
  name: string;
  last_seen_at: string;
}

async function measureSize(database: BenchDatabase, services: number): Promise<SizeResult> {
  const benchStarted = performance.now();
  const loadBefore = os.loadavg()[0] ?? 0;
  const limitMs = phaseLimitMs(services);
  const catalogue = await replaceCatalogue(database, services);
  const result: SizeResult = {
    services,
    endpoints: null,
    ...catalogue,
    firstAnswerSeconds: null,
    startLoadMs: null,
    restRssMb: null,
    startPeakRssMb: null,
    restHeapMb: null,
    p99: [],
    clientAloneCpuPerSecond: null,
    changes: [],
    changesPeakRssMb: null,
    imageWriteMs: [],
    restart: null,
    failure: null,
    loadBefore,
    loadAfter: 0,
    benchSeconds: 0,
  };
  const started = performance.now();
  const replica = await Replica.start(database.url);
  let phase = "start";
  let client: Client | null = null;
  let second: Replica | null = null;
  try {
    await replica.until(
      limitMs,
      async () =>
        (await fetch(`${replica.baseUrl}/v1/services`, { signal: AbortSignal.timeout(limitMs) })).ok,
      100,
    );
    result.firstAnswerSeconds = (performance.now() - started) / 1000;
    const [loaded] = replica.loads;
    result.startLoadMs = loaded?.ms ?? null;
    result.endpoints = loaded?.endpoints ?? null;

    phase = "at rest";
    await replica.within(10_000, sleep(5_000));
    const rest = replica.memory();
    result.restRssMb = rest.rssMb;
    result.startPeakRssMb = rest.peakMb;
    result.restHeapMb = replica.heapMb;

    phase = "search p99 at rest";
    const shapes = scenarios([]).filter((s) => P99_SHAPES.includes(s.query));
    for (const shape of shapes) {
      const matches = await replica.within(60_000, meanMatches(replica.baseUrl, shape.paths));
      await replica.within(
        60_000,
        load(replica.baseUrl, shape.paths, { connections: 1, durationSeconds: 2 }),
      );
      const measured = await replica.within(
        60_000,
        load(replica.baseUrl, shape.paths, { connections: 1, durationSeconds: 5 }),
      );
      if (measured.non2xx + measured.errors > 0) {
        throw new PhaseFailure(
          `${shape.query}: ${measured.non2xx} answers not 2xx, ${measured.errors} errors`,
        );
      }
      result.p99.push({ shape: shape.query, matches, p50Ms: measured.p50Ms, p99Ms: measured.p99Ms });
    }

    phase = "changes";
    await replica.within(10_000, sleep(2_000));
    replica.resetPeak();
    client = new Client(`${replica.baseUrl}/v1/services?limit=20`);
    // What the client alone costs the replica: the changes' CPU below includes it.
    const idleCpu = replica.cpuSeconds();
    await replica.within(10_000, sleep(5_000));
    result.clientAloneCpuPerSecond = (replica.cpuSeconds() - idleCpu) / 5;

    const marker = `scalebench${services}x${Date.now()}`;
    const sourceId = (await database.db.$queryRaw<{ id: string }[]>`SELECT id::text FROM sources LIMIT 1`)[0]!
      .id;
    const renamed = (
      await database.db.$queryRaw<{ id: string }[]>`
        SELECT id::text FROM services WHERE status = 'listed'
        ORDER BY md5(id::text) LIMIT ${Math.max(1, Math.round(services * RENAMED_SHARE))}`
    ).map((row) => row.id);
    const markerId = renamed[0]!;
    const findMarker = async () =>
      (await replica.getJson<{ items: ServiceItem[] }>(`/v1/services?q=${marker}&limit=1`)).items[0];
    /** What a crawl writes for changed names and descriptions (the rows, then their search documents in the same transaction: saveServices), then the run's NOTIFY. */
    const rename = async (markerName: string) => {
      for (let i = 0; i < renamed.length; i += CRAWL_BATCH) {
        const ids = renamed.slice(i, i + CRAWL_BATCH);
        await inTransaction(
          database.db,
          async (tx) => {
            await tx.$executeRaw`
              UPDATE services SET
                name = CASE WHEN id = ${markerId}::uuid THEN ${`Renamed ${markerName} API`} ELSE name || ' v2' END,
                description = description || ' (revised)', updated_at = now()
              WHERE id = ANY(${ids}::uuid[])`;
            await refreshServiceSearch(tx, ids);
          },
          { timeoutMs: 60_000 },
        );
      }
      await announceCatalogueChange(database.db);
    };
    const renaming = `crawl-like shape change: ${renamed.length} services renamed in batches of ${CRAWL_BATCH}`;

    phase = "shape change";
    result.changes.push(
      await measureChange(
        replica,
        client,
        limitMs,
        renaming,
        () => rename(marker),
        async () => (await findMarker()) !== undefined,
        // The reload's image (the first was written after the start's load).
        () => replica.imageWrites.length >= 2,
      ),
    );

    phase = "unchanged crawl (seen)";
    const seenAt = new Date();
    const detailUrls = (
      await database.db.$queryRaw<
        { url: string }[]
      >`SELECT detail_url AS url FROM services WHERE status = 'listed'`
    ).map((row) => row.url);
    result.changes.push(
      await measureChange(
        replica,
        client,
        limitMs,
        `unchanged crawl: ${detailUrls.length} listed services marked seen`,
        async () => {
          await markListed(database.db, sourceId, detailUrls, seenAt);
          await announceCatalogueChange(database.db);
        },
        async () => (await findMarker())?.last_seen_at === seenAt.toISOString(),
      ),
    );

    phase = "probe sweep";
    const probedAt = new Date();
    const markerEndpoints = (
      await database.db.$queryRaw<{ id: string }[]>`
        SELECT id::text FROM endpoints WHERE service_id = ${markerId}::uuid ORDER BY position`
    ).map((row) => row.id);
    const others = (
      await database.db.$queryRaw<{ id: string }[]>`
        SELECT e.id::text FROM endpoints e JOIN services s ON s.id = e.service_id
        WHERE s.status = 'listed' AND e.service_id <> ${markerId}::uuid
        ORDER BY md5(e.id::text) LIMIT ${SWEEP_PROBES - markerEndpoints.length}`
    ).map((row) => row.id);
    // The marker service's endpoints go last: when they show, the whole sweep has.
    const targets = [...others, ...markerEndpoints];
    result.changes.push(
      await measureChange(
        replica,
        client,
        limitMs,
        `probe sweep: ${targets.length} probe results, 8 at a time, announced at most once a second`,
        async () => {
          // As probe workers record and announce (worker.ts): recordProbe per endpoint, the
          // ChangeAnnouncer's NOTIFY at most once a second, flushed at the end.
          const announcer = probeChangeAnnouncer(database.db, benchLogger);
          let next = 0;
          const worker = async () => {
            for (let i = next++; i < targets.length; i = next++) {
              await recordProbe(database.db, {
                endpointId: targets[i]!,
                probedAt,
                drift: null,
                result: {
                  outcome: "no_challenge",
                  statusCode: 200,
                  latencyMs: 40 + (i % 200),
                  challengeValid: false,
                  x402Version: null,
                  options: [],
                  call: null,
                  warnings: [],
                  error: null,
                  redirects: 0,
                  checks: [],
                  traits: readChallengeTraits(null),
                },
              });
              announcer.changed();
            }
          };
          await Promise.all(Array.from({ length: 8 }, worker));
          await announcer.flush();
        },
        async () => {
          const { items } = await replica.getJson<{ items: Array<{ last_probe: { at: string } | null }> }>(
            `/v1/endpoints?q=${marker}&limit=10`,
          );
          return items.length > 0 && items.every((item) => item.last_probe?.at === probedAt.toISOString());
        },
      ),
    );
    result.changesPeakRssMb = replica.memory().peakMb;
    result.imageWriteMs = [...replica.imageWrites];

    phase = "restart from the image";
    await client.stop();
    client = null;
    await replica.stop();
    const restarted = performance.now();
    second = await Replica.start(database.url);
    const restart = second;
    await restart.until(
      limitMs,
      async () =>
        (await fetch(`${restart.baseUrl}/v1/services`, { signal: AbortSignal.timeout(limitMs) })).ok,
      100,
    );
    const firstAnswerSeconds = (performance.now() - restarted) / 1000;
    const [first] = restart.loads;
    const caughtUp = async () => {
      const { items } = await restart.getJson<{ items: Array<{ last_probe: { at: string } | null }> }>(
        `/v1/endpoints?q=${marker}&limit=10`,
      );
      return items.length > 0 && items.every((item) => item.last_probe?.at === probedAt.toISOString());
    };
    await restart.until(limitMs, caughtUp);
    const caughtUpSeconds = (performance.now() - restarted) / 1000;
    await restart.within(10_000, sleep(5_000));
    const memory = restart.memory();
    // A change of shape reloads beside the catalogue read from the image: the peak of a replica started from one.
    restart.resetPeak();
    client = new Client(`${restart.baseUrl}/v1/services?limit=20`);
    const secondMarker = `${marker}again`;
    const reloadAfterRestart = await measureChange(
      restart,
      client,
      limitMs,
      `${renaming}, on the restarted replica`,
      () => rename(secondMarker),
      async () =>
        (await restart.getJson<{ items: ServiceItem[] }>(`/v1/services?q=${secondMarker}&limit=1`)).items
          .length > 0,
      () => restart.imageWrites.length >= 1,
    );
    result.restart = {
      reload: reloadAfterRestart,
      reloadPeakRssMb: restart.memory().peakMb,
      firstAnswerSeconds,
      from: first?.from ?? "–",
      loadMs: first?.ms ?? Number.NaN,
      caughtUpSeconds,
      restRssMb: memory.rssMb,
      startPeakRssMb: memory.peakMb,
      restHeapMb: restart.heapMb,
    };
  } catch (error) {
    // Anything else (an answer that is not 200, a write that failed) also ends this size, in its row.
    // A request can fail before the exit is noticed: a process that ended says why it ended.
    const failed = second ?? replica;
    const ended = await Promise.race([failed.exit.then(() => true), sleep(2_000).then(() => false)]);
    const message = error instanceof Error ? error.message : String(error);
    const reason = ended
      ? failed.crashReason()
      : error instanceof PhaseFailure
        ? message
        : `failed: ${message}`;
    result.failure = { phase, reason };
  } finally {
    await client?.stop();
    await replica.stop();
    await second?.stop();
  }
  result.loadAfter = os.loadavg()[0] ?? 0;
  result.benchSeconds = (performance.now() - benchStarted) / 1000;
  return result;
}

const fixed = (n: number | null, digits = 0) => (n === null || Number.isNaN(n) ? "–" : n.toFixed(digits));

function failuresText(failures: Record<string, number>): string {
  const entries = Object.entries(failures);
  return entries.length === 0 ? "0" : entries.map(([code, count]) => `${count} ${code}`).join(", ");
}

function report(results: SizeResult[], command: string): string {
  const sizes = results.map((r) => `${r.services} services`);
  /** A cell: the value, or why it is missing (the failure, in the row of the phase that failed). */
  const cell = (r: SizeResult, phases: string[], value: () => string): string => {
    if (r.failure === null) return value();
    const order = [
      "start",
      "at rest",
      "search p99 at rest",
      "changes",
      "shape change",
      "unchanged crawl (seen)",
      "probe sweep",
      "restart from the image",
    ];
    const failedAt = order.indexOf(r.failure.phase);
    const first = Math.min(...phases.map((p) => order.indexOf(p)));
    const last = Math.max(...phases.map((p) => order.indexOf(p)));
    if (failedAt > last) return value();
    if (failedAt >= first) return `${r.failure.reason} (${r.failure.phase})`;
    return "–";
  };
  const changes = ["changes", "shape change", "unchanged crawl (seen)", "probe sweep"];
  const perChange = (r: SizeResult, text: (c: ChangeResult) => string) =>
    r.changes.map((c) => `${c.change.split(":")[0]}: ${text(c)}`).join("; ");
  const main = markdownTable(
    ["", ...sizes],
    [
      [
        "endpoints (of listed services, loaded)",
        ...results.map((r) => (r.endpoints === null ? "–" : String(r.endpoints))),
      ],
      [
        "`npm start` → first 200 of `GET /v1/services` (s; the catalogue load in it, from the log)",
        ...results.map((r) =>
          cell(
            r,
            ["start"],
            () => `${fixed(r.firstAnswerSeconds, 1)} (load ${fixed((r.startLoadMs ?? 0) / 1000, 1)})`,
          ),
        ),
      ],
      [
        "restart: stop, `npm start` again → first 200, s (the load in it and where from; until the probes recorded after the image show)",
        ...results.map((r) =>
          cell(r, ["restart from the image"], () =>
            r.restart === null
              ? "–"
              : `${fixed(r.restart.firstAnswerSeconds, 1)} (load ${fixed(r.restart.loadMs / 1000, 1)} from ${r.restart.from}; caught up ${fixed(r.restart.caughtUpSeconds, 1)})`,
          ),
        ),
      ],
      [
        "RSS at rest after the restart, MB (peak during it; live JS heap)",
        ...results.map((r) =>
          cell(r, ["restart from the image"], () =>
            r.restart === null
              ? "–"
              : `${fixed(r.restart.restRssMb)} (peak ${fixed(r.restart.startPeakRssMb)}; heap ${fixed(r.restart.restHeapMb)})`,
          ),
        ),
      ],
      [
        "restarted replica, a shape change again: RSS peak MB (VmHWM) / visible s / longest stall / client wait ms",
        ...results.map((r) =>
          cell(r, ["restart from the image"], () =>
            r.restart === null
              ? "–"
              : `${fixed(r.restart.reloadPeakRssMb)} / ${fixed(r.restart.reload.visibleSeconds, 1)} / ${fixed(r.restart.reload.longestStallMs)} / ${fixed(r.restart.reload.longestWaitMs)} (${failuresText(r.restart.reload.failures)})`,
          ),
        ),
      ],
      [
        "catalogue image writes (after the first load; after the shape change's reload), ms",
        ...results.map((r) =>
          cell(r, changes, () => r.imageWriteMs.map((ms) => fixed(ms)).join("; ") || "–"),
        ),
      ],
      [
        "RSS at rest after the load, MB (peak during start; live JS heap)",
        ...results.map((r) =>
          cell(
            r,
            ["at rest"],
            () => `${fixed(r.restRssMb)} (peak ${fixed(r.startPeakRssMb)}; heap ${fixed(r.restHeapMb)})`,
          ),
        ),
      ],
      [
        "RSS peak while it takes in the changes, MB (VmHWM)",
        ...results.map((r) => cell(r, changes, () => fixed(r.changesPeakRssMb))),
      ],
      [
        "change → visible through the API, s / replica CPU s (whole loads, product's ms)",
        ...results.map((r) =>
          cell(r, changes, () =>
            perChange(
              r,
              (c) =>
                `${fixed(c.visibleSeconds, 1)} / ${fixed(c.cpuSeconds, 1)}` +
                (c.loads > 0 ? ` (${c.loads} load${c.loads > 1 ? "s" : ""}, ${fixed(c.loadMs)} ms)` : ""),
            ),
          ),
        ),
      ],
      [
        "longest event-loop stall / longest client wait during the changes, ms (failed requests)",
        ...results.map((r) =>
          cell(r, changes, () => {
            const stall = Math.max(...r.changes.map((c) => c.longestStallMs));
            const wait = Math.max(...r.changes.map((c) => c.longestWaitMs));
            const failures: Record<string, number> = {};
            for (const c of r.changes) {
              for (const [code, count] of Object.entries(c.failures))
                failures[code] = (failures[code] ?? 0) + count;
            }
            return `${fixed(stall)} / ${fixed(wait)} (${failuresText(failures)})`;
          }),
        ),
      ],
      [
        `computed search p99 at rest, ms (${SHAPE_LABELS.join(" / ")})`,
        ...results.map((r) =>
          cell(r, ["search p99 at rest"], () => r.p99.map((p) => fixed(p.p99Ms)).join(" / ")),
        ),
      ],
      [
        "catalogue generation / search documents, s",
        ...results.map((r) => `${fixed(r.generateSeconds, 1)} / ${fixed(r.searchDocumentsSeconds, 1)}`),
      ],
      ["benchmark wall time for this size, s", ...results.map((r) => fixed(r.benchSeconds))],
      [
        "1-minute load average before / after",
        ...results.map((r) => `${fixed(r.loadBefore, 2)} / ${fixed(r.loadAfter, 2)}`),
      ],
    ],
  );
  const changeRows = results.flatMap((r) =>
    [...r.changes, ...(r.restart === null ? [] : [r.restart.reload])].map((c) => [
      r.services,
      c.change,
      fixed(c.writesSeconds, 1),
      fixed(c.visibleSeconds, 2),
      c.loads,
      fixed(c.loadMs),
      `${fixed(c.cpuSeconds, 1)} in ${fixed(c.windowSeconds, 1)} s`,
      fixed(c.longestStallMs),
      c.longestGap.runMs === null
        ? `${fixed(c.longestGap.ms)} (–)`
        : `${fixed(c.longestGap.ms)} (${fixed(c.longestGap.runMs)} / ${fixed(c.longestGap.waitMs)})`,
      fixed(c.longestWaitMs),
      `${c.requests} (${failuresText(c.failures)})`,
    ]),
  );
  const p99Rows = results.flatMap((r) =>
    r.p99.map((p) => [r.services, p.shape, Math.round(p.matches), fixed(p.p50Ms), fixed(p.p99Ms)]),
  );
  return [
    "## API replica at scale",
    "",
    `${os.cpus().length} CPUs, Node ${process.version}, embedded Postgres 17 (one for every size, durable settings). ` +
      `The replica is \`node --max-old-space-size=${HEAP_LIMIT_MB} dist/main.js\` (the Dockerfile's entry; the heap Node 20 gives a 2 GB machine) ` +
      "with DATABASE_URL, SOURCES=none, PROBE_ENABLED=false, WEBHOOK_DELIVERY_ENABLED=false, API_CACHE_TTL_SECONDS=0 (every answer computed), " +
      "the other settings at their defaults; bench/scale-monitor.mjs is preloaded into it to report event-loop stalls and its heap. " +
      "RSS from /proc/<pid>/status (VmRSS; VmHWM for peaks, reset with clear_refs before the changes).",
    `Catalogues: \`generateCatalogue\` (bench/api-catalogue.ts), N services × 5 endpoints, no history. Changes, one after another: ` +
      `${RENAMED_SHARE * 100}% of services renamed (name, description and search documents per crawl batch of ${CRAWL_BATCH}, then NOTIFY catalogue_changed); ` +
      "`markListed` of every listed service (an unchanged crawl), then NOTIFY; " +
      `${SWEEP_PROBES} \`recordProbe\` results, 8 at a time, announced by the probe workers' ChangeAnnouncer. ` +
      "Meanwhile a client in a worker thread asks `GET /v1/services?limit=20` every 10 ms on one keep-alive connection. " +
      "A change is visible when the renamed service is found by its new name, shows the new last_seen_at, and its endpoints show the sweep's probe. " +
      "CPU is the replica's from the change's first write until 3 s after it showed (and the shape change's reload was stored as an image), and includes the client's requests (measured alone below). " +
      "The catalogue starts with no image (the first start builds from the rows); after the changes the replica stops and a second one starts, which reads the image the first stored after its reload and catches up on the probe sweep recorded after it.",
    "p99: autocannon, 1 connection, 2 s warm-up then 5 s per shape (bench/api.ts's request shapes; latencies in whole ms).",
    `Command: \`${command}\``,
    "",
    main,
    "",
    ...results.flatMap((r) =>
      r.failure === null
        ? []
        : [
            `- ${r.services} services: ${r.failure.reason} during "${r.failure.phase}"; later measures missing.`,
          ],
    ),
    ...results
      .filter((r) => r.clientAloneCpuPerSecond !== null)
      .map(
        (r) =>
          `- ${r.services} services: the client alone costs the replica ${fixed(r.clientAloneCpuPerSecond, 2)} CPU s per s.`,
      ),
    "",
    markdownTable(
      [
        "services",
        "change",
        "writes s",
        "announce → visible s",
        "whole loads",
        "last load ms (log)",
        "replica CPU s",
        "longest stall ms",
        "longest tick gap ms (ran / waited for a core)",
        "longest client wait ms",
        "client requests (failed)",
      ],
      changeRows,
    ),
    "",
    markdownTable(["services", "search shape", "matches", "p50 ms", "p99 ms"], p99Rows),
  ].join("\n");
}

export async function runScaleBenchmark(sizes = [10_000, 30_000, 100_000]): Promise<string> {
  build();
  const database = await benchDatabase();
  const results: SizeResult[] = [];
  try {
    for (const services of sizes) {
      const measured = await measureSize(database, services);
      results.push(measured);
      console.error(
        `scale: ${services} services in ${fixed(measured.benchSeconds)} s` +
          (measured.failure ? ` (${measured.failure.reason} during ${measured.failure.phase})` : ""),
      );
    }
  } finally {
    await database.close();
  }
  return report(results, `node --import tsx bench/scale.ts ${sizes.join(" ")}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter(Boolean);
  const markdown = await runScaleBenchmark(sizes.length > 0 ? sizes : undefined);
  console.log(markdown);
  const resultsDir = path.join(root, "bench", "results");
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, "scale.md"), `${markdown}\n`);
}
