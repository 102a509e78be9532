import type pg from "pg";
import { inLongTransaction } from "./long-transaction";
import type { ReadPool } from "./read-pool";

/**
 * Runs `work` in one read-only REPEATABLE READ transaction: everything it reads is one consistent
 * snapshot of the catalogue, which pg_current_snapshot() names. With `exported` (what
 * pg_export_snapshot() returned in another open transaction), the transaction reads that same
 * snapshot, so two connections can read one catalogue at once.
 */
export function readInOneSnapshot<T>(
  pool: ReadPool,
  work: (client: pg.PoolClient) => Promise<T>,
  exported?: string,
): Promise<T> {
  return inLongTransaction(pool, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", async (client) => {
    if (exported !== undefined) {
      if (!/^[0-9A-F-]+$/i.test(exported)) throw new Error(`not a snapshot id: ${exported}`);
      await client.query(`SET TRANSACTION SNAPSHOT '${exported}'`);
    }
    return work(client);
  });
}
