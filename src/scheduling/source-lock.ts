import pg from "pg";

/** Namespace of our advisory locks, so other applications on the same database never collide. */
const LOCK_NAMESPACE = "x402-catalogue:crawl";

export interface HeldLock {
  release(): Promise<void>;
}

/**
 * Holds a Postgres session-level advisory lock on its own connection for as long as a crawl of
 * the source runs. Across any number of processes and machines sharing the database, only one
 * holder exists; if the holder dies, Postgres releases the lock with its connection.
 * Returns null when another process holds it. Other single-holder jobs (a chain's settlement
 * watcher) use their own namespace.
 */
export async function tryLockSource(
  databaseUrl: string,
  sourceId: string,
  namespace = LOCK_NAMESPACE,
): Promise<HeldLock | null> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: "x402-catalogue crawl lock",
  });
  await client.connect();
  client.on("error", () => {}); // a lost connection releases the lock; the crawl finishes on its own
  const { rows } = await client.query<{ locked: boolean }>(
    "SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked",
    [namespace, sourceId],
  );
  if (!rows[0]?.locked) {
    await client.end();
    return null;
  }
  return {
    async release() {
      await client.query("SELECT pg_advisory_unlock(hashtext($1), hashtext($2))", [namespace, sourceId]);
      await client.end();
    },
  };
}
