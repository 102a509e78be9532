import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenFor } from "../../../src/db/notifications";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

describe("listening for notifications", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  const notify = async (channel: string) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query("SELECT pg_notify($1, '')", [channel]);
    } finally {
      await client.end();
    }
  };
  const listening = async (channel: string) => {
    const rows = await database.db.$queryRaw<Array<{ pid: number }>>`
      SELECT pid FROM pg_stat_activity WHERE query = ${`LISTEN "${channel}"`}`;
    return rows.map((row) => row.pid);
  };

  it("when its connection is cut, then it reconnects, calls its subscribers once, and hears later notifications", async () => {
    const listener = listenFor(database.url, "test_channel", testLogger);
    let calls = 0;
    listener.subscribe(() => {
      calls += 1;
    });
    try {
      await expect.poll(() => listening("test_channel"), { timeout: 30_000 }).toHaveLength(1);
      await notify("test_channel");
      await expect.poll(() => calls, { timeout: 30_000 }).toBe(1);

      const [pid] = await listening("test_channel");
      await database.db.$queryRaw`SELECT pg_terminate_backend(${pid}::int)::text`;
      await expect.poll(() => calls, { timeout: 30_000 }).toBe(2); // the reconnect's own call
      await expect.poll(() => listening("test_channel"), { timeout: 30_000 }).toHaveLength(1);
      await notify("test_channel");
      await expect.poll(() => calls, { timeout: 30_000 }).toBe(3);
    } finally {
      await listener.close();
    }
  });
});
