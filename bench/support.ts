import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import { startEmbeddedPostgres } from "../src/db/embedded-postgres";
import { logIndexUsage } from "../src/db/index-usage";
import { applyMigrations } from "../src/db/migrate";
import { createPrismaClient, type Database } from "../src/db/prisma-client";
import { createLogger } from "../src/logging/logger";

export const benchLogger = createLogger(process.env.BENCH_LOG_LEVEL ?? "warn", false);

export interface BenchDatabase {
  url: string;
  db: Database;
  close(): Promise<void>;
}

/** A fresh embedded Postgres with production settings (durable), migrated, in a temp directory. */
export async function benchDatabase(): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "catalogue-bench-"));
  const server = await startEmbeddedPostgres({
    dataDir,
    preferredPort: 0,
    database: "catalogue",
    logger: benchLogger,
  });
  await applyMigrations(server.url, benchLogger);
  const db = createPrismaClient(server.url);
  return {
    url: server.url,
    db,
    async close() {
      await db.$disconnect();
      await logIndexUsage(server.url);
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts a helper script in its own process; resolves with the first JSON line it prints. */
export async function startHelperProcess<T>(
  script: string,
  args: string[],
): Promise<{ info: T; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { info: JSON.parse(line) as T, child };
}

/** The heap flags (`--max-old-space-size=…`) among node's arguments. */
export function heapFlags(args: readonly string[]): string[] {
  return args.filter((arg) => arg.startsWith("--max-"));
}

/**
 * The heap flags an npm script of package.json starts node with, so a benchmark measures a job's
 * memory on the heap the product gives that job.
 */
export function npmScriptHeapFlags(script: string): string[] {
  const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    scripts: Record<string, string>;
  };
  return heapFlags((packageJson.scripts[script] ?? "").split(/\s+/));
}

/** Set in a benchmark's own process started by measureWithHeapOf: measure here. */
export const MEASURING_HERE = process.env.BENCH_MEASURING_HERE === "1";

/**
 * Runs the benchmark file `file` again in a process of its own started with the heap flags of
 * npm script `script`, so it measures a job's memory on the heap the product gives that job;
 * resolves with what it prints. The file measures in place when MEASURING_HERE is true.
 */
export function measureWithHeapOf(script: string, file: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [...npmScriptHeapFlags(script), "--import", "tsx", file, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, BENCH_MEASURING_HERE: "1" },
  });
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`${file} exited with ${code}`)),
    );
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port free on 127.0.0.1 right now, for a process that cannot be told to listen on port 0. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/**
 * A full garbage collection, so that a measurement of memory growth starts from what is live, not
 * from garbage earlier work left for V8's next major collection (which would otherwise make V8
 * grow the heap during the measurement, whatever the measured work does).
 */
export function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

/**
 * Samples this process's memory every 20 ms while `work` runs; returns the peak growth in MB of
 * its resident memory and of its JavaScript heap plus buffers (heapUsed + external). Both: RSS is
 * what the machine pays, but it can read 0 when the heap grows into pages an earlier collection
 * freed and the allocator kept; the heap's growth shows what the work itself piled up.
 */
export async function peakMemoryGrowthMb<T>(
  work: () => Promise<T>,
): Promise<{ result: T; rssMb: number; heapMb: number }> {
  const heap = () => {
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  };
  const before = { rss: process.memoryUsage().rss, heap: heap() };
  const peak = { ...before };
  const sample = () => {
    peak.rss = Math.max(peak.rss, process.memoryUsage().rss);
    peak.heap = Math.max(peak.heap, heap());
  };
  const timer = setInterval(sample, 20);
  try {
    const result = await work();
    sample();
    const mb = (bytes: number) => bytes / 1024 / 1024;
    return { result, rssMb: mb(peak.rss - before.rss), heapMb: mb(peak.heap - before.heap) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The environment of an API process a benchmark starts against `databaseUrl`: a pure replica
 * (no crawls, no probes), logging at info (benchmarks read its log lines), with `extra` on top.
 */
export function replicaEnvironment(
  databaseUrl: string,
  port: number,
  extra: Record<string, string>,
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: "127.0.0.1",
    SOURCES: "none",
    PROBE_ENABLED: "false",
    LOG_LEVEL: "info",
    ...extra,
  };
}

/** Writes a benchmark's markdown to bench/results/<name>.md, and returns it. */
export async function writeBenchResult(name: string, markdown: string): Promise<string> {
  const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, `${name}.md`), `${markdown}\n`);
  return markdown;
}
