import type pg from "pg";
import type { ReadPool } from "./read-pool";

/** Runs `work` in one transaction on one connection: committed when it returns, rolled back when it throws. */
export async function withTransaction<T>(
  pool: ReadPool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
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
