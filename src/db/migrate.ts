import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { Logger } from "../logging/logger";

/** The folder holding package.json and prisma.config.ts: two levels up from source, one from dist/. */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "prisma.config.ts"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("prisma.config.ts not found above the running code");
    dir = parent;
  }
  return dir;
}

const projectRoot = findProjectRoot();

/**
 * Whether `migrate deploy` would have nothing to do: every migration folder is recorded in
 * `_prisma_migrations` as finished and not rolled back, and no attempt is left failed. Any doubt
 * (no table yet, an unreachable server, a failed or unknown migration) answers false, so the CLI
 * runs and says what it says.
 */
async function nothingToApply(databaseUrl: string): Promise<boolean> {
  const folders = (await readdir(path.join(projectRoot, "prisma", "migrations"), { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ migration_name: string; finished: boolean; rolled_back: boolean }>(
      `SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back
       FROM _prisma_migrations`,
    );
    if (rows.some((row) => !row.finished && !row.rolled_back)) return false;
    const applied = new Set(
      rows.filter((row) => row.finished && !row.rolled_back).map((row) => row.migration_name),
    );
    return folders.every((folder) => applied.has(folder));
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Applies pending migrations with the Prisma CLI's own `migrate deploy`, so the app, tests and
 * operators share exactly one migration path. The CLI reads prisma.config.ts from the project root.
 * When every migration is already recorded as applied, the CLI is not started: it took ~1.4 s
 * (a second Node process loading Prisma's CLI and schema engine) on every start of every entry
 * point, to find nothing to do.
 */
export async function applyMigrations(databaseUrl: string, logger: Logger): Promise<void> {
  const checked = Date.now();
  if (await nothingToApply(databaseUrl)) {
    logger.info({ ms: Date.now() - checked, applied: 0 }, "database schema is up to date");
    return;
  }
  const cli = createRequire(import.meta.url).resolve("prisma/build/index.js");
  const started = Date.now();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "migrate", "deploy"], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(text) : reject(new Error(`prisma migrate deploy failed (exit ${code}):\n${text}`)),
    );
  });
  const applied = output.match(/The following migration\(s\) have been applied:[\s\S]*/)?.[0];
  logger.info(
    {
      ms: Date.now() - started,
      applied: applied
        ? applied.split("\n").filter((l) => l.includes("└─") || l.includes("migration.sql")).length
        : 0,
    },
    applied ? "database migrations applied" : "database schema is up to date",
  );
}
