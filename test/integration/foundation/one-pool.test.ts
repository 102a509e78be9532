import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../../src/db/prisma-client";
import { createReadPool, queryRows } from "../../../src/db/read-pool";
import { inTransaction } from "../../../src/db/transaction";
import { Prisma } from "../../../src/generated/prisma/client";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("one pool per process", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("when Prisma is built over the process's pool, then its queries use that pool's connections, and disconnecting leaves the pool open", async () => {
    const pool = createReadPool(database.url, 1);
    const db = createPrismaClient(pool);
    try {
      expect(pool.totalCount).toBe(0);
      await db.source.create({ data: { kind: "html_directory", baseUrl: "http://one-pool.test/" } });
      expect(pool.totalCount).toBe(1);
      // The write is visible to the raw SQL on the same single connection.
      const rows = await queryRows<{ n: string }>(pool, Prisma.sql`SELECT count(*)::text AS n FROM sources`);
      expect(rows[0]?.n).toBe("1");
      await inTransaction(db, async (tx) => tx.source.count());
      expect(pool.totalCount).toBe(1);
      await db.$disconnect();
      await expect(queryRows(pool, Prisma.sql`SELECT 1 AS one`)).resolves.toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
