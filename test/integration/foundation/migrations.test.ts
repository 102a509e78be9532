import { spawnSync } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "../../../src/db/migrate";
import { createEmptyDatabase, createTestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("database migrations", () => {
  let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
  beforeAll(async () => {
    database = await createEmptyDatabase();
  });
  afterAll(() => database.drop());

  it("when applied to an empty database, then every table of the schema exists", async () => {
    await applyMigrations(database.url, testLogger);
    const tables = await query<{ table_name: string }>(
      database.url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining([
        "_prisma_migrations",
        "crawl_errors",
        "crawl_runs",
        "endpoints",
        "page_cache",
        "service_tags",
        "services",
        "sources",
        "stats_snapshots",
      ]),
    );
  });

  it("when applied a second time, then nothing changes and nothing fails", async () => {
    const before = await query<{ migration_name: string }>(
      database.url,
      "SELECT migration_name FROM _prisma_migrations ORDER BY migration_name",
    );
    await applyMigrations(database.url, testLogger);
    const after = await query<{ migration_name: string; finished_at: Date | null }>(
      database.url,
      "SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(after.map((m) => m.migration_name)).toEqual(before.map((m) => m.migration_name));
    expect(after.every((m) => m.finished_at !== null)).toBe(true);
  });

  it("when the last migration is recorded as failed, then applying refuses as the CLI does, not as up to date", async () => {
    const failed = await createTestDatabase(); // migrated (a clone of the template)
    try {
      await query(
        failed.url,
        `UPDATE _prisma_migrations SET finished_at = NULL
         WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)`,
      );
      await expect(applyMigrations(failed.url, testLogger)).rejects.toThrow(/P3009|failed migrations/);
    } finally {
      await failed.drop();
    }
  });

  it("when the schema is compared with the migrations, then there is no drift", () => {
    const result = spawnSync(
      process.execPath,
      [
        "node_modules/prisma/build/index.js",
        "migrate",
        "diff",
        "--from-migrations",
        "prisma/migrations",
        "--to-schema-datamodel",
        "prisma/schema.prisma",
        "--exit-code",
      ],
      { env: { ...process.env, DATABASE_URL: database.url }, encoding: "utf8" },
    );
    expect(result.stdout + result.stderr).not.toMatch(/error/i);
    expect(result.status).toBe(0);
  });
});
