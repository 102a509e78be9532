import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inLongTransaction } from "../../../src/db/long-transaction";
import { createReadPool, type ReadPool } from "../../../src/db/read-pool";
import { readInOneSnapshot } from "../../../src/db/read-snapshot";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

describe("long transactions (catalogue loads, images)", () => {
  let database: TestDatabase;
  let pool: ReadPool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 2, testLogger);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const setting = async (client: { query: ReadPool["query"] }, name: string) =>
    (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0]?.[name];

  it("when work runs in one, then its statements may run 300 s and take no parallel workers, and the connection goes back as it was", async () => {
    const inside = await inLongTransaction(pool, "BEGIN", async (client) => ({
      timeout: await setting(client, "statement_timeout"),
      workers: await setting(client, "max_parallel_workers_per_gather"),
    }));
    expect(inside).toEqual({ timeout: "5min", workers: "0" });
    const read = await readInOneSnapshot(pool, (client) =>
      setting(client, "max_parallel_workers_per_gather"),
    );
    expect(read).toBe("0");
    // SET LOCAL ends with the transaction: the pool's next query has the server's defaults.
    const clients = await Promise.all([pool.connect(), pool.connect()]);
    for (const client of clients) {
      expect(await setting(client, "max_parallel_workers_per_gather")).not.toBe("0");
      client.release();
    }
  });

  it("when the work throws, then the transaction is rolled back and the error passes on", async () => {
    await pool.query("CREATE TABLE long_transaction_probe (n int)");
    await expect(
      inLongTransaction(pool, "BEGIN", async (client) => {
        await client.query("INSERT INTO long_transaction_probe VALUES (1)");
        throw new Error("work failed");
      }),
    ).rejects.toThrow("work failed");
    expect((await pool.query("SELECT count(*)::int AS n FROM long_transaction_probe")).rows[0]).toEqual({
      n: 0,
    });
  });
});
