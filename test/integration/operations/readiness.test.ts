import { rm } from "node:fs/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEmbeddedPostgres } from "../../../src/db/embedded-postgres";
import { createPrismaClient } from "../../../src/db/prisma-client";
import { call, type Replica, startReplica } from "../../support/accounts";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";
import { preparedDataDir } from "../../support/prepared-data-dir";

const LOADING = { statusCode: 503, message: "the catalogue is loading", error: "Service Unavailable" };

/** Waits (without a time goal) until GET /readyz answers 200. */
async function becomesReady(api: Replica): Promise<void> {
  await vi.waitFor(
    async () => {
      const answer = await call(api.url, "/readyz");
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: "ready" });
    },
    { timeout: 30_000, interval: 100 },
  );
}

describe("GET /readyz and GET /healthz", () => {
  let database: TestDatabase;
  let sql: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase();
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    await seedServices(database.db, [{ name: "Weather" }, { name: "Search" }]);
  });
  afterAll(async () => {
    await sql.end();
    await database.drop();
  });

  it("when the first catalogue load waits on the database, then readiness is 503 with the reason and liveness 200, and 200 once it has loaded", async () => {
    const api = await startReplica(database);
    try {
      // Another session holds the services table: the catalogue load cannot read it until released.
      await sql.query("BEGIN");
      await sql.query("LOCK TABLE services IN ACCESS EXCLUSIVE MODE");
      try {
        const first = await call(api.url, "/readyz");
        expect(first.status).toBe(503);
        expect(first.body).toEqual(LOADING);
        expect(first.headers.get("cache-control")).toBe("no-store");
        // The load asked for is under way, waiting for the lock.
        await vi.waitFor(
          async () => {
            const { rows } = await sql.query<{ waiting: number }>(
              "SELECT count(*)::int AS waiting FROM pg_locks WHERE relation = 'services'::regclass AND NOT granted",
            );
            expect(rows[0]?.waiting).toBeGreaterThan(0);
          },
          { timeout: 30_000, interval: 50 },
        );
        const again = await call(api.url, "/readyz");
        expect(again.status).toBe(503);
        expect(again.body).toEqual(LOADING);
        const live = await call(api.url, "/healthz");
        expect(live.status).toBe(200);
        expect(live.body).toMatchObject({ status: "ok", database: "up" });
      } finally {
        await sql.query("COMMIT");
      }
      await becomesReady(api);
    } finally {
      await api.close();
    }
  });

  it("when the database stops, then readiness and liveness answer 503 with the reason", async () => {
    const dataDir = await preparedDataDir("catalogue-readiness-");
    const server = await startEmbeddedPostgres({
      dataDir,
      preferredPort: 0,
      database: "catalogue",
      logger: testLogger,
      durable: false,
    });
    const db = createPrismaClient(server.url, 2);
    const api = await startReplica({ db, url: server.url });
    try {
      await becomesReady(api);
      await server.stop();
      const ready = await call(api.url, "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ statusCode: 503, error: "Service Unavailable" });
      expect(ready.body.message).toMatch(/^the database does not answer: /);
      const live = await call(api.url, "/healthz");
      expect(live.status).toBe(503);
      expect(live.body).toMatchObject({ status: "unavailable", database: "down" });
    } finally {
      await api.close().catch(() => undefined);
      await db.$disconnect();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
