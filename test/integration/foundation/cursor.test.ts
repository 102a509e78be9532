import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cursorBatches } from "../../../src/db/cursor";
import { createReadPool, type ReadPool } from "../../../src/db/read-pool";
import { Prisma } from "../../../src/generated/prisma/client";
import { createTestDatabase, type TestDatabase } from "../../support/database";

async function collect(batches: AsyncIterable<unknown[][]>): Promise<unknown[][][]> {
  const all: unknown[][][] = [];
  for await (const batch of batches) all.push(batch);
  return all;
}

describe("cursor batches", () => {
  let database: TestDatabase;
  let pool: ReadPool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 1); // one connection: a leaked one would block the next test
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it("yields every row in order, in batches of the size asked, as arrays with timestamps in ISO 8601 UTC", async () => {
    const query = Prisma.sql`
      SELECT n, n::text || 'x', timestamptz '2026-01-02 03:04:05.6+02' + n * interval '1 day'
      FROM generate_series(1, ${7}::int) AS n ORDER BY n`;

    const batches = await collect(cursorBatches(pool, query, 3));

    expect(batches.map((batch) => batch.length)).toEqual([3, 3, 1]);
    expect(batches.flat()[0]).toEqual([1, "1x", "2026-01-03T01:04:05.600Z"]);
    expect(batches.flat().map((row) => row[0])).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("when a row fails in a later batch, then the error reaches the consumer and the connection is usable again", async () => {
    // 1 / (n - 6): the sixth row divides by zero, in the second batch of three.
    // No ORDER BY: a sort would compute every row before the first FETCH.
    const failing = Prisma.sql`SELECT 1 / (n - ${6}::int) FROM generate_series(1, 9) AS n`;
    const seen: number[] = [];

    await expect(
      (async () => {
        for await (const batch of cursorBatches(pool, failing, 3)) seen.push(batch.length);
      })(),
    ).rejects.toThrow(/division by zero/);

    expect(seen).toEqual([3]);
    const { rows } = await pool.query<{ ok: number }>("SELECT 1 AS ok");
    expect(rows).toEqual([{ ok: 1 }]);
  });

  it("when the consumer stops early, then the cursor's transaction ends and the connection is reused", async () => {
    for await (const batch of cursorBatches(pool, Prisma.sql`SELECT generate_series(1, 100)`, 10)) {
      expect(batch).toHaveLength(10);
      break;
    }

    const { rows } = await pool.query<{ open: string }>("SELECT count(*)::text AS open FROM pg_cursors");
    expect(rows).toEqual([{ open: "0" }]);
  });
});
