import { randomUUID } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { withDatabase } from "../../src/db/connection-options";
import { logIndexUsage } from "../../src/db/index-usage";
import { createPrismaClient, type Database } from "../../src/db/prisma-client";

export const TEMPLATE_DATABASE = "catalogue_template";

export interface TestDatabase {
  url: string;
  db: Database;
  drop(): Promise<void>;
}

async function admin<T>(templateUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(templateUrl, "postgres") });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database for one test file, cloned from the migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const templateUrl = inject("templateDatabaseUrl");
  const name = `test_${randomUUID().replaceAll("-", "")}`;
  await admin(templateUrl, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}"`));
  const url = withDatabase(templateUrl, name);
  const db = createPrismaClient(url, 5);
  return {
    url,
    db,
    async drop() {
      await db.$disconnect();
      await logIndexUsage(url);
      await admin(templateUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** An empty database (no migrations), to test that migrations apply from scratch. */
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const templateUrl = inject("templateDatabaseUrl");
  const name = `empty_${randomUUID().replaceAll("-", "")}`;
  await admin(templateUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  return {
    url: withDatabase(templateUrl, name),
    drop: () =>
      admin(templateUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}
