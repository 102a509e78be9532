import type pg from "pg";
import type { ReadPool } from "./read-pool";

/**
 * Runs `work` in one read-only REPEATABLE READ transaction: everything it reads is one consistent
 * snapshot of the catalogue, which pg_current_snapshot() names. With `exported` (what
 * pg_export_snapshot() returned in another open transaction), the transaction reads that same
 * snapshot, so two connections can read one catalogue at once.
 */
export async function readInOneSnapshot<T>(
  pool: ReadPool,
  work: (client: pg.PoolClient) => Promise<T>,
  exported?: string,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    if (exported !== undefined) {
      if (!/^[0-9A-F-]+$/i.test(exported)) throw new Error(`not a snapshot id: ${exported}`);
      await client.query(`SET TRANSACTION SNAPSHOT '${exported}'`);
    }
    // The whole catalogue is read here, well beyond the pool's limit for one API query.
    await client.query("SET LOCAL statement_timeout = '300s'");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
