import pg from "pg";
import type { Database } from "../db/prisma-client";
import { DELIVERIES_DUE_CHANNEL } from "../events/emit";
import type { Logger } from "../logging/logger";

/**
 * Advisory-lock class of delivery sessions: pg_advisory_lock(CLASS, backend pid). A positive
 * constant rather than a hashed name so pg_locks.classid (an unsigned oid) compares with it as is.
 */
const CLAIMER_LOCK_CLASS = 1_464_355_633; // "WHK1"

/**
 * Proof that a delivering process is alive. Each process holds, on a connection of its own, an
 * advisory lock keyed by that connection's backend pid, and stamps the deliveries it claims with
 * the pid. When the process dies, Postgres drops the connection and the lock with it, so its
 * in-flight deliveries can be released at once (`releaseOrphanedClaims`) instead of waiting for
 * their lease to run out. A pid is unique among live sessions; a later session that reuses it
 * also holds the lock, so its predecessor's claims wait for the lease: never released early.
 * The same connection LISTENs for committed deliveries (`onDue`), so an idle process need not
 * wait for its next poll.
 */
export class ClaimerSession {
  private client: pg.Client | null = null;
  private pid: Promise<number> | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    private readonly onDue: () => void,
  ) {}

  /** The pid to stamp claims with; (re)connects and takes the lock when the session was lost. */
  claimer(): Promise<number> {
    this.pid ??= this.open().catch((error: unknown) => {
      this.pid = null;
      throw error;
    });
    return this.pid;
  }

  private async open(): Promise<number> {
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: "x402-catalogue webhook delivery",
    });
    await client.connect();
    const lost = () => {
      if (this.client !== client) return;
      // Claims made under the old pid may now be delivered by others too (at least once);
      // new claims carry the next session's pid.
      this.logger.warn("webhook delivery session lost; reconnecting before the next claim");
      this.client = null;
      this.pid = null;
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", this.onDue);
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pg_backend_pid() AS pid, pg_advisory_lock($1, pg_backend_pid())",
      [CLAIMER_LOCK_CLASS],
    );
    await client.query(`LISTEN ${pg.escapeIdentifier(DELIVERIES_DUE_CHANNEL)}`);
    this.client = client;
    return rows[0]!.pid;
  }

  /** Ends the session (after the attempts in flight were recorded); its lock goes with it. */
  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.pid = null;
    await client?.end();
  }
}

/**
 * Makes the in-flight deliveries of dead processes (their session's lock is gone) due now.
 * Returns how many were released.
 */
export function releaseOrphanedClaims(db: Database): Promise<number> {
  return db.$executeRaw`
    UPDATE webhook_deliveries d SET claimed_by = NULL, next_attempt_at = now(), updated_at = now()
    WHERE d.claimed_by IS NOT NULL AND d.status = 'pending'
      AND NOT EXISTS (
        SELECT 1 FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
          AND l.classid = ${CLAIMER_LOCK_CLASS}::int::oid AND l.objid = d.claimed_by::oid)`;
}

/** Gives back claims whose attempt never started: due now, as if never claimed. */
export async function releaseClaims(db: Database, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.$executeRaw`
    UPDATE webhook_deliveries SET claimed_by = NULL, next_attempt_at = now(), attempts = attempts - 1, updated_at = now()
    WHERE id = ANY(${ids as string[]}::uuid[]) AND status = 'pending'`;
}
