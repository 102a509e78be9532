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
});
