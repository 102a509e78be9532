import { RateLimiterMemory, RateLimiterPostgres } from "rate-limiter-flexible";
import type { ReadPool } from "../db/read-pool";

/** The store never refuses by itself: each caller compares with its own limit (plans differ). */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * Points counted per key in fixed windows of `durationSeconds`, in Postgres (`rate_limits`,
 * keys under `keyPrefix`) through rate-limiter-flexible, so every API process shares one count.
 * `insured`: if Postgres fails, count in this process's memory instead of failing.
 */
export function sharedCounter(
  pool: ReadPool,
  keyPrefix: string,
  durationSeconds: number,
  insured = false,
): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: pool,
    storeType: "pool",
    tableName: "rate_limits",
    tableCreated: true,
    keyPrefix,
    points: UNBOUNDED,
    duration: durationSeconds,
    insuranceLimiter: insured
      ? new RateLimiterMemory({ points: UNBOUNDED, duration: durationSeconds })
      : undefined,
  });
}
