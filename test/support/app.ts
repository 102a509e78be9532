import type { Express } from "express";
import { createReadPool, type ReadPool } from "../../src/db/read-pool";
import { createApp } from "../../src/http/app";
import type { TestDatabase } from "./database";
import { testLogger } from "./logger";

export interface TestApp {
  app: Express;
  pool: ReadPool;
  close(): Promise<void>;
}

/** The real app on a test database: Prisma for health, a pg pool for the read API and CSV. */
export function createTestApp(database: Pick<TestDatabase, "db" | "url">): TestApp {
  const pool = createReadPool(database.url, 5, testLogger);
  return { app: createApp({ db: database.db, pool, logger: testLogger }), pool, close: () => pool.end() };
}
