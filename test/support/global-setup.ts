import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../src/db/embedded-postgres";
import { applyMigrations } from "../../src/db/migrate";
import { createLogger } from "../../src/logging/logger";
import { TEMPLATE_DATABASE } from "./database";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
  }
}

/**
 * One real Postgres for the whole integration run. Migrations are applied once, exactly as
 * production applies them (prisma migrate deploy), to a template database; each test file then
 * clones it (CREATE DATABASE … TEMPLATE), which takes milliseconds.
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "catalogue-test-pg-"));
  const logger = createLogger("warn", false);
  const server = await startEmbeddedPostgres({
    dataDir,
    preferredPort: 0,
    database: TEMPLATE_DATABASE,
    logger,
    durable: false,
  });
  await applyMigrations(server.url, logger);
  project.provide("templateDatabaseUrl", server.url);
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
