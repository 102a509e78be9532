import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import v8 from "node:v8";
import vm from "node:vm";
import { startEmbeddedPostgres } from "../src/db/embedded-postgres";
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

export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** Samples this process's resident memory while `work` runs; returns the peak growth in MB. */
/**
 * A full garbage collection, so that a measurement of memory growth starts from what is live, not
 * from garbage earlier work left for V8's next major collection (which would otherwise make V8
 * grow the heap during the measurement, whatever the measured work does).
 */
export function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

export async function peakRssGrowthMb<T>(
  work: () => Promise<T>,
): Promise<{ result: T; peakGrowthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, peakGrowthMb: (peak - before) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}
