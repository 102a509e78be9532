import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadPool, queryRows, type ReadPool } from "../../../src/db/read-pool";
import { Prisma } from "../../../src/generated/prisma/client";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("read pool", () => {
  let database: TestDatabase;
  let pool: ReadPool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 1); // one connection: every query below shares it
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const prepared = () =>
    pool.query<{ statement: string; generic: string }>(
      "SELECT statement, generic_plans::text AS generic FROM pg_prepared_statements",
    );

  it("runs a query marked prepared as one named statement per text, with its own values each time", async () => {
    const doubled = (n: number) => Prisma.sql`SELECT ${n}::int * 2 AS doubled`;
    const first = await queryRows<{ doubled: number }>(pool, doubled(2), { prepared: true });
    const second = await queryRows<{ doubled: number }>(pool, doubled(21), { prepared: true });
    await queryRows(pool, Prisma.sql`SELECT ${1}::int AS unprepared`);

    expect([first[0]?.doubled, second[0]?.doubled]).toEqual([4, 42]);
    const { rows } = await prepared();
    expect(rows.map((row) => row.statement)).toEqual(["SELECT $1::int * 2 AS doubled"]);
    // force_generic_plan: planned once, then reused (planning cost the detail's SQL more than running it).
    expect(Number(rows[0]?.generic)).toBe(2);
  });

  it("when a checked-out connection's backend dies mid-transaction, then its user gets the error and the process lives on", async () => {
    const client = await pool.connect();
    const errors: unknown[] = [];
    const uncaught = (error: unknown) => errors.push(error);
    process.on("uncaughtException", uncaught);
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      await database.db.$queryRawUnsafe(`SELECT pg_terminate_backend(${rows[0]?.pid})`);
      await expect(client.query("SELECT 1")).rejects.toThrow();
      // pg emits 'error' on the client after failing its queries: unheard, it would be uncaught.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(errors).toEqual([]);
    } finally {
      process.off("uncaughtException", uncaught);
      client.release(true);
    }
    // The pool replaces the broken connection.
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });
});
