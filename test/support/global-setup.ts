import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
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
  }
}

interface SharedSetup {
  templateDatabaseUrl: string;
  preparedDataDir: string;
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

async function start(): Promise<SharedSetup> {
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
  return {
    templateDatabaseUrl: server.url,
    preparedDataDir,
    users: 0,
    async teardown() {
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
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await shared.teardown();
  };
}
