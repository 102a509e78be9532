import type pg from "pg";
import type { ReadPool } from "./read-pool";

/**
 * Settings of a long transaction: its statements may run well beyond the pool's limit for one
 * API query, and none takes parallel workers. This is background work beside requests: a
 * parallel plan (the load's count of listed endpoints: a leader and two workers for 0.4-0.7 s
 * at 100,000 services) takes every core of a machine shared with Postgres, and the answering
 * thread waited 45-73 ms for one (harness, `bench/scale.ts`'s shape change).
 */
const SETTINGS = "SET LOCAL statement_timeout = '300s'; SET LOCAL max_parallel_workers_per_gather = 0";

/**
 * Runs `work` in one transaction on a connection of its own, begun with `begin` (a BEGIN
 * statement) and SETTINGS: committed when `work` returns, rolled back when it throws. For work
 * on the whole catalogue (reading it, storing its image).
 */
export async function inLongTransaction<T>(
  pool: ReadPool,
  begin: string,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    await client.query(SETTINGS);
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
