import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../src/db/embedded-postgres";
import { applyMigrations } from "../../src/db/migrate";
import { createLogger } from "../../src/logging/logger";
import { TEMPLATE_DATABASE } from "./database";
import { PREPARED_MARKER } from "./prepared-data-dir";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
    /** A product data directory (CATALOGUE_DATA_DIR) already initialised and migrated; see prepared-data-dir.ts. */
    preparedDataDir: string;
    /** The entry points built once for this run by `npm run build`'s own command; see processes.ts. */
    builtEntryPoints: string;
  }
}

interface SharedSetup {
  templateDatabaseUrl: string;
  preparedDataDir: string;
  builtEntryPoints: string;
  users: number;
  teardown(): Promise<void>;
}

/**
 * Several vitest projects (run groups) use this setup and each runs it: they share one Postgres
 * through the main process's globalThis, and the last to finish stops it.
 */
const SHARED = Symbol.for("x402-catalogue.test-postgres");
type WithShared = typeof globalThis & { [SHARED]?: Promise<SharedSetup> };

/**
 * A product data directory initialised and migrated once, in the background while the first
 * files run: the tests that start the product on a fresh directory copy it instead of running
 * initdb and every migration each time (~2.5 s of CPU per start). A file then marks it ready.
 */
async function prepareDataDir(dir: string): Promise<void> {
  const logger = createLogger("warn", false);
  const server = await startEmbeddedPostgres({
    dataDir: dir,
    preferredPort: 0,
    database: "catalogue",
    logger,
    durable: false,
  });
  try {
    await applyMigrations(server.url, logger);
  } finally {
    await server.stop();
  }
  await writeFile(path.join(dir, PREPARED_MARKER), "");
}

/**
 * The entry points bundled by `npm run build`'s command (read from package.json, only the output
 * folder changed), into a folder inside the project: the bundles find node_modules and
 * prisma.config.ts by walking up from where they are, as dist/ does. A spawned entry point then
 * loads one bundle instead of hundreds of modules through tsx's loader (~1.0 s of CPU against
 * ~2.3 s for `npm run crawl -- --help`); there are some twenty such starts in a run.
 */
async function buildEntryPoints(): Promise<string> {
  const cache = path.resolve("node_modules", ".cache");
  await mkdir(cache, { recursive: true });
  const outdir = await mkdtemp(path.join(cache, "test-entry-points-"));
  const scripts = (JSON.parse(await readFile("package.json", "utf8")) as { scripts: { build: string } })
    .scripts;
  const command = scripts.build.replace("--outdir=dist", `--outdir=${outdir}`);
  if (command === scripts.build)
    throw new Error("package.json's build script no longer writes --outdir=dist");
  await promisify(execFile)("sh", ["-c", command], {
    env: {
      ...process.env,
      PATH: `${path.resolve("node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
    },
  });
  return outdir;
}

async function start(): Promise<SharedSetup> {
  const built = buildEntryPoints();
  const dataDir = await mkdtemp(path.join(tmpdir(), "catalogue-test-pg-"));
  const preparedDataDir = await mkdtemp(path.join(tmpdir(), "catalogue-test-prepared-"));
  const prepared = prepareDataDir(preparedDataDir);
  // An unawaited failure would crash the run; the tests that wait for the marker time out instead.
  prepared.catch((error: unknown) => console.error("preparing the product data directory failed", error));
  const logger = createLogger("warn", false);
  const server = await startEmbeddedPostgres({
    dataDir,
    preferredPort: 0,
    database: TEMPLATE_DATABASE,
    logger,
    durable: false,
  });
  await applyMigrations(server.url, logger);
  const builtEntryPoints = await built;
  return {
    templateDatabaseUrl: server.url,
    preparedDataDir,
    builtEntryPoints,
    users: 0,
    async teardown() {
      await rm(builtEntryPoints, { recursive: true, force: true });
      await prepared.catch(() => undefined);
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
      await rm(preparedDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One real Postgres for the whole integration run. Migrations are applied once, exactly as
 * production applies them (prisma migrate deploy), to a template database; each test file then
 * clones it (CREATE DATABASE … TEMPLATE), which takes milliseconds.
 */
export default async function setup(project: TestProject) {
  const holder = globalThis as WithShared;
  holder[SHARED] ??= start();
  const shared = await holder[SHARED];
  shared.users += 1;
  project.provide("templateDatabaseUrl", shared.templateDatabaseUrl);
  project.provide("preparedDataDir", shared.preparedDataDir);
  project.provide("builtEntryPoints", shared.builtEntryPoints);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await shared.teardown();
  };
}
