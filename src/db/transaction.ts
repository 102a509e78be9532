import type { Prisma } from "../generated/prisma/client";
import type { Database } from "./prisma-client";

/** A Prisma interactive transaction: typed models, and SQL through `queryRows(tx, …)` or `$executeRaw`. */
export type Transaction = Prisma.TransactionClient;

export interface TransactionOptions {
  /** Postgres's default (READ COMMITTED) unless given. */
  isolationLevel?: Prisma.TransactionIsolationLevel;
  /** How long the work may run before Prisma rolls it back (default 30 s). */
  timeoutMs?: number;
}

/**
 * How long a transaction may wait for a connection: pg's pool queues without limit, and a burst
 * of transactions that take turns on one lock needs every waiter served (a hundred order
 * creations on a loaded 2-core machine took over 15 s); the bound only makes a stuck pool an error.
 */
const MAX_WAIT_MS = 120_000;
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The one way to open a read-write transaction: Prisma's interactive transaction, on the driver
 * adapter's pool (in `npm start` the process's one pg pool, shared with the raw reads). Committed
 * when `work` resolves, rolled back when it throws. Prisma's own limits (2 s to get a connection,
 * 5 s of work) failed requests that only queue: a hundred payment orders created at once take
 * turns on one advisory lock, and with 2 s to get a connection most answered 500 (billing's pg
 * transactions before waited as long as the pool's queue took). In `npm start` each statement
 * stays bounded by the pool's statement_timeout (15 s).
 */
export function inTransaction<T>(
  db: Database,
  work: (tx: Transaction) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  return db.$transaction(work, {
    maxWait: MAX_WAIT_MS,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(options.isolationLevel !== undefined ? { isolationLevel: options.isolationLevel } : {}),
  });
}
