import type { RateLimiterPostgres } from "rate-limiter-flexible";
import { sharedCounter } from "../accounts/shared-counter";
import type { ReadPool } from "../db/read-pool";

const HOUR_SECONDS = 3_600;

export type AllowanceDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * So many uses an hour per subject (a client address, an origin), counted in Postgres by
 * rate-limiter-flexible so every API process shares one count. A window lasts an hour from the
 * first use in it; a refused use is not counted.
 */
export class HourlyAllowance {
  private readonly store: RateLimiterPostgres;

  constructor(
    pool: ReadPool,
    keyPrefix: string,
    private readonly perHour: number,
  ) {
    this.store = sharedCounter(pool, keyPrefix, HOUR_SECONDS);
  }

  async take(subject: string): Promise<AllowanceDecision> {
    const counted = await this.store.consume(subject, 1);
    if (counted.consumedPoints <= this.perHour) return { allowed: true };
    await this.store.reward(subject, 1);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(counted.msBeforeNext / 1000)) };
  }
}
