import type pg from "pg";
import type { ReadPool } from "./read-pool";

/**
 * Runs `work` in one transaction on a connection of its own, begun with `begin` (a BEGIN
 * statement): committed when `work` returns, rolled back when it throws. For work on the whole
 * catalogue (reading it, storing its image), whose statements may run well beyond the pool's
 * limit for one API query.
 */
export async function inLongTransaction<T>(
  pool: ReadPool,
  begin: string,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
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
